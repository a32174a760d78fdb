/**
 * The bundle the `acai` command runs (dist/bundle/, scripts/bundle.mjs,
 * decision 0035): every file a bundled acai module finds through
 * `new URL("…", import.meta.url)` is there, and `acai -p` loads none of the
 * REPL's UI (ink, React, repl/). The e2e suite runs this bundle throughout
 * (test/support/run-acai.ts); the plugin worker, `hooks init`'s SDK and the
 * Bash grammar are exercised there.
 */
import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AcaiDirs, CLI_PATH, makeAcaiDirs, REPO_ROOT, runAcai } from "../support/run-acai.js";

const BUNDLE = path.join(REPO_ROOT, "dist", "bundle");

/** Each `new URL(literal, import.meta.url)` of acai's own modules in the bundle, with its module. */
async function moduleUrls(): Promise<{ module: string; literal: string }[]> {
  const found: { module: string; literal: string }[] = [];
  for (const name of (await readdir(BUNDLE)).filter((file) => file.endsWith(".js"))) {
    let module = "";
    for (const line of (await readFile(path.join(BUNDLE, name), "utf8")).split("\n")) {
      const section = /^\/\/ (\S+\.[cm]?[jt]sx?)$/.exec(line);
      if (section) module = section[1] ?? "";
      if (!module.startsWith("source/")) continue;
      for (const match of line.matchAll(/new URL\((["'])([^"'`]+)\1, import\.meta\.url\)/g)) {
        found.push({ module, literal: match[2] ?? "" });
      }
    }
  }
  return found;
}

describe("the bundle's files", () => {
  it("has its four entries", () => {
    for (const entry of ["main.js", "worker.js", "bridge.js", "hooks.js"]) {
      expect(existsSync(path.join(BUNDLE, entry)), entry).toBe(true);
    }
    expect(CLI_PATH).toBe(path.join(BUNDLE, "main.js"));
  });

  it("every file a bundled module finds beside itself exists (a .ts source fallback aside)", async () => {
    const urls = await moduleUrls();
    const modules = new Set(urls.map((url) => url.module));
    // The grammar, the worker, the bridge, the SDK, package.json and the demo replay file.
    for (const module of [
      "source/permissions/shell/parser.ts",
      "source/hooks/run/plugins/thread.ts",
      "source/session/sandbox.ts",
      "source/cli/hooks/init.ts",
      "source/shared/package-version.ts",
      "source/models/offline-hint.ts",
    ]) {
      expect(modules, module).toContain(module);
    }
    const missing = urls
      .filter(({ literal }) => !literal.endsWith(".ts"))
      .filter(({ literal }) => !existsSync(path.resolve(BUNDLE, literal)))
      .map(({ module, literal }) => `${module}: ${literal}`);
    expect(missing).toEqual([]);
  });
});

describe("acai -p from the bundle", () => {
  let dirs: AcaiDirs;
  beforeEach(async () => {
    dirs = await makeAcaiDirs("acai-bundle-");
  });
  afterEach(async () => {
    await dirs.cleanup();
  });

  it("runs a Bash call judged by the grammar and loads nothing of the REPL's UI", async () => {
    const replay = path.join(dirs.root, "replay.json");
    await writeFile(
      replay,
      JSON.stringify({
        turns: [
          { text: "", tool_calls: [{ name: "Bash", input: { command: "touch bundled-ok" } }] },
          { text: "done" },
        ],
      }),
    );
    const loadedFile = path.join(dirs.root, "loaded.txt");
    const recorder = path.join(dirs.root, "recorder.mjs");
    await writeFile(
      recorder,
      `import { appendFileSync } from "node:fs";
import { registerHooks } from "node:module";
registerHooks({ load(url, context, next) { appendFileSync(${JSON.stringify(loadedFile)}, url + "\\n"); return next(url, context); } });
`,
    );
    const result = await runAcai({
      dirs,
      args: ["-p", "go", "--model", `replay:${replay}`, "--allowedTools", "Bash(touch bundled-ok)"],
      env: { NODE_OPTIONS: `--import ${pathToFileURL(recorder).href}` },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    // The rule allowed the call only because the grammar parsed it (the bundled parser and its WASM).
    expect(existsSync(path.join(dirs.cwd, "bundled-ok"))).toBe(true);
    const loaded = (await readFile(loadedFile, "utf8"))
      .split("\n")
      .filter((url) => url.startsWith(pathToFileURL(BUNDLE).href));
    const text = (await Promise.all(loaded.map((url) => readFile(new URL(url), "utf8")))).join("");
    // The recorder saw the session's code (so the absence below means something).
    expect(text).toContain("// source/agent/agent.ts");
    expect(text).toContain("// source/permissions/shell/parser.ts");
    for (const ui of ["// node_modules/ink/", "// node_modules/react/", "// source/repl/"]) {
      expect(text, ui).not.toContain(ui);
    }
  });
});
