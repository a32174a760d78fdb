/**
 * The bundle the `acai` command runs (dist/bundle/, scripts/bundle.mjs,
 * decision 0035): every file a bundled acai module finds through
 * `new URL("…", import.meta.url)` is there, and `acai -p` loads none of the
 * REPL's UI (ink, React, repl/). The e2e suite runs this bundle throughout
 * (test/support/run-acai.ts); the plugin worker, `hooks init`'s SDK and the
 * Bash grammar are exercised there.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { isBuiltin } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
// @ts-expect-error -- a build script in plain JavaScript, without types
import { COLD } from "../../scripts/bundle-lazy.mjs";
// @ts-expect-error -- a build script in plain JavaScript, without types
import { scanSource, urlsIn } from "../../scripts/bundle-urls.mjs";
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
      for (const match of line.matchAll(/new URL\((["'])([^"'`]+)\1,\s*import\.meta\.url\)/g)) {
        found.push({ module, literal: match[2] ?? "" });
      }
    }
  }
  return found;
}

describe("the bundle's files", () => {
  it("has the CLI and, as entries, every module some module finds through new URL(…, import.meta.url)", () => {
    const { entries, problems } = scanSource(path.join(REPO_ROOT, "source"));
    expect(problems).toEqual([]);
    // What Node starts or imports by URL: the worker, the module the worker imports at run
    // time, the sandbox's bridge, the SDK `hooks init` points at.
    expect(Object.keys(entries).sort()).toEqual(
      expect.arrayContaining([
        "hooks-run-plugins-relay-shape",
        "hooks-run-plugins-worker",
        "hooks-run-plugins-worker-a3s",
        "hooks-run-plugins-worker-children",
        "sandbox-bridge",
        "sdk-hooks",
      ]),
    );
    for (const entry of ["main", ...Object.keys(entries)]) {
      expect(existsSync(path.join(BUNDLE, `${entry}.js`)), entry).toBe(true);
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

/** The bundle's file holding a module's section (`// source/x.ts`). */
async function fileWith(module: string): Promise<string> {
  for (const name of (await readdir(BUNDLE)).filter((file) => file.endsWith(".js"))) {
    if ((await readFile(path.join(BUNDLE, name), "utf8")).includes(`// ${module}\n`)) return name;
  }
  throw new Error(`no bundle file holds ${module}`);
}

/** A bundle file and every bundle file it imports statically, transitively: what loading it reads. */
async function staticClosure(name: string): Promise<Set<string>> {
  const seen = new Set<string>();
  const queue = [name];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    if (seen.has(next)) continue;
    seen.add(next);
    const text = await readFile(path.join(BUNDLE, next), "utf8");
    // `import{a}from"./chunk-X.js"`, `import"./chunk-X.js"`, `export*from"./chunk-X.js"` (compacted); not `import("…")`.
    for (const match of text.matchAll(/(?:\bfrom|\bimport)\s*"\.\/([^"]+\.js)"/g)) {
      queue.push(match[1] ?? "");
    }
  }
  return seen;
}

describe("the REPL's first frame (decision 0073)", () => {
  it("reads none of the agent's code: the CLI's, the REPL's and the UI's files do not import the session's", async () => {
    const agent = await fileWith("source/agent/agent.ts");
    for (const module of ["source/cli/run.ts", "source/repl/start.ts", "source/repl/mount.tsx"]) {
      expect(await staticClosure(await fileWith(module)), module).not.toContain(agent);
    }
    expect(await staticClosure(await fileWith("source/cli/session-entry.ts"))).toContain(agent);
  });

  it("gives ink acai's string-width: the real package is called only from acai's module", () => {
    const chunks = readdirSync(BUNDLE).filter((f) => f.endsWith(".js"));
    const holding = chunks.filter((f) =>
      readFileSync(path.join(BUNDLE, f), "utf8").includes("// source/repl/string-width.ts\n"),
    );
    expect(holding.length).toBe(1);
    const text = readFileSync(path.join(BUNDLE, holding[0] ?? ""), "utf8");
    const nameAfter = (section: string) =>
      new RegExp(
        `// ${section}\\n[\\s\\S]*?function (\\w+)\\(input,\\s*options\\s*=\\s*\\{\\}\\)`,
      ).exec(text)?.[1];
    const real = nameAfter("node_modules/string-width/index.js");
    const ours = nameAfter("source/repl/string-width.ts");
    expect(real).toBeDefined();
    expect(ours).toBeDefined();
    // The real one: defined, and called once — from acai's module, for the strings it does not take.
    expect(text.match(new RegExp(`\\b${real}\\(`, "g"))?.length).toBe(2);
    expect(text).toMatch(new RegExp(`\\?\\?\\s*${real}\\(input,\\s*options\\)`));
    // Other chunks get acai's under the package's name, never the real one.
    const exported = (/\bexport\s*\{([^}]*)\}/.exec(text)?.[1] ?? "")
      .split(",")
      .map((e) => e.trim());
    expect(exported).toContain(`${ours} as stringWidth`);
    expect(exported.filter((e) => e.split(" ")[0] === real)).toEqual([]);
    const users = chunks.filter((f) =>
      /\bstringWidth\(/.test(readFileSync(path.join(BUNDLE, f), "utf8")),
    );
    expect(users.length).toBeGreaterThan(1);
  });

  it("carries React's production build only, the one the REPL loads", async () => {
    const text = (
      await Promise.all(
        (
          await readdir(BUNDLE)
        )
          .filter((file) => file.endsWith(".js"))
          .map((file) => readFile(path.join(BUNDLE, file), "utf8")),
      )
    ).join("");
    for (const build of [
      "react/cjs/react",
      "react-reconciler/cjs/react-reconciler",
      "scheduler/cjs/scheduler",
    ]) {
      expect(text, build).toContain(`// node_modules/${build}.production.js\n`);
      expect(text, build).not.toContain(`// node_modules/${build}.development.js\n`);
    }
  });
});

describe("what the bundle leaves to Node", () => {
  it("imports only Node's builtins and the package's own dependencies by name", async () => {
    const pkg = JSON.parse(await readFile(path.join(REPO_ROOT, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    const named = new Set<string>();
    for (const name of (await readdir(BUNDLE)).filter((file) => file.endsWith(".js"))) {
      const text = await readFile(path.join(BUNDLE, name), "utf8");
      for (const match of text.matchAll(/\b(?:import\(|from )"([@a-z][\w.:@/-]*)"/g)) {
        named.add(match[1] ?? "");
      }
    }
    // yaml and the NATS client are CommonJS imported lazily: Node loads them (their names intact).
    expect(named).toContain("yaml");
    expect(named).toContain("@nats-io/transport-node");
    const strays = [...named].filter((specifier) => {
      // ink imports its optional devtools only when asked to (DEV=true); acai does not carry it.
      if (isBuiltin(specifier) || specifier === "react-devtools-core") return false;
      const pkgName = specifier.startsWith("@")
        ? specifier.split("/").slice(0, 2).join("/")
        : (specifier.split("/")[0] ?? "");
      return !(pkgName in pkg.dependencies);
    });
    expect(strays).toEqual([]);
  });
});

describe("what the bundle follows", () => {
  const sourceDir = path.join(REPO_ROOT, "source");
  const file = path.join(sourceDir, "hooks", "run", "plugins", "worker.ts");

  it("makes a module named by a literal an entry, and a plain file a file", () => {
    const text = `const a = new URL("./relay-shape.js", import.meta.url);
const b = new URL("../../../../package.json", import.meta.url);`;
    const { urls, problems } = urlsIn(file, text, sourceDir);
    expect(problems).toEqual([]);
    expect(urls).toEqual([
      { literal: "./relay-shape.js", module: path.join(path.dirname(file), "relay-shape.ts") },
      { literal: "../../../../package.json", module: undefined },
    ]);
  });

  it("refuses a URL it cannot follow (a variable, a template) or another use of import.meta, naming file and line", () => {
    const text = `// a comment naming import.meta.dirname is fine
const own = "./relay-shape.js";
const a = new URL(own, import.meta.url);
const b = new URL(\`./\${own}\`, import.meta.url);
const c = import.meta.dirname;`;
    const { urls, problems } = urlsIn(file, text, sourceDir) as {
      urls: unknown[];
      problems: string[];
    };
    expect(urls).toEqual([]);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toContain(
      "source/hooks/run/plugins/worker.ts:3: new URL(own, import.meta.url)",
    );
    expect(problems[1]).toContain("worker.ts:4:");
    expect(problems[2]).toContain("source/hooks/run/plugins/worker.ts: uses import.meta");
  });
});

/**
 * The `// source/repl/…` marks of the REPL's own modules: those no module outside
 * source/repl/ imports (the ACP session shares the REPL's prompt queue, not its UI).
 */
async function replOnlyMarks(): Promise<string[]> {
  const sourceDir = path.join(REPO_ROOT, "source");
  const shared = new Set<string>();
  for (const entry of await readdir(sourceDir, { recursive: true })) {
    if (!/\.tsx?$/.test(entry) || entry.startsWith(`repl${path.sep}`)) continue;
    const text = await readFile(path.join(sourceDir, entry), "utf8");
    for (const match of text.matchAll(/from "((?:\.\.\/)+repl\/[^"]+)\.js"/g)) {
      const target = path.relative(
        sourceDir,
        path.resolve(sourceDir, path.dirname(entry), match[1] ?? ""),
      );
      shared.add(target.split(path.sep).join("/"));
    }
  }
  const marks: string[] = [];
  for (const entry of await readdir(path.join(sourceDir, "repl"), { recursive: true })) {
    const module = `repl/${entry.split(path.sep).join("/")}`.replace(/\.tsx?$/, "");
    if (/\.tsx?$/.test(entry) && !shared.has(module))
      marks.push(`// source/${entry.endsWith("x") ? `${module}.tsx` : `${module}.ts`}\n`);
  }
  return marks;
}

/** A `--import` module that appends the URL of every module Node loads to `loadedFile`. */
async function loadRecorder(dirs: AcaiDirs, loadedFile: string): Promise<Record<string, string>> {
  const recorder = path.join(dirs.root, "recorder.mjs");
  await writeFile(
    recorder,
    `import { appendFileSync } from "node:fs";
import { registerHooks } from "node:module";
registerHooks({ load(url, context, next) { appendFileSync(${JSON.stringify(loadedFile)}, url + "\\n"); return next(url, context); } });
`,
  );
  return { NODE_OPTIONS: `--import ${pathToFileURL(recorder).href}` };
}

/** A replay model file of `turns` in the test's folder. */
async function replayOf(dirs: AcaiDirs, turns: unknown[]): Promise<string> {
  const replay = path.join(dirs.root, "replay.json");
  await writeFile(replay, JSON.stringify({ turns }));
  return replay;
}

describe("acai -p from the bundle", () => {
  let dirs: AcaiDirs;
  beforeEach(async () => {
    dirs = await makeAcaiDirs("acai-bundle-");
  });
  afterEach(async () => {
    await dirs.cleanup();
  });

  it("loads few of the bundle's files, and no package left to Node, when the model calls no tool (decision 0062)", async () => {
    const replay = await replayOf(dirs, [{ text: "done" }]);
    const loadedFile = path.join(dirs.root, "loaded.txt");
    const result = await runAcai({
      dirs,
      args: ["-p", "go", "--model", `replay:${replay}`],
      env: await loadRecorder(dirs, loadedFile),
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain("done");
    const loaded = (await readFile(loadedFile, "utf8")).split("\n").filter(Boolean);
    const bundleFiles = loaded.filter((url) => url.startsWith(pathToFileURL(BUNDLE).href));
    const all = (await readdir(BUNDLE)).filter((file) => file.endsWith(".js"));
    // The session's code did load (so the counts below mean something)…
    const text = (await Promise.all(bundleFiles.map((url) => readFile(new URL(url), "utf8")))).join(
      "",
    );
    expect(text).toContain("// source/agent/agent.ts");
    // …from a few files: one per module the dynamic imports of acai's own modules made
    // before (102 for this start at ed19d16); the rest of the bundle not read at all.
    expect(bundleFiles.length).toBeLessThan(40);
    expect(all.length).toBeGreaterThan(bundleFiles.length);
    // Neither the Bash parser nor its package (no tool was judged), nor the REPL's UI.
    expect(loaded.filter((url) => url.includes("/node_modules/"))).toEqual([]);
    const repl = await replOnlyMarks();
    expect(repl).toContain("// source/repl/start.ts\n");
    for (const ui of [
      "// node_modules/ink/",
      "// node_modules/react/",
      "// source/permissions/shell/parser.ts",
      ...repl,
    ]) {
      expect(text, ui).not.toContain(ui);
    }
    // Nor what only the subcommands, telemetry, MCP or the relay run: the cold entry's
    // modules and the packages only they use (decision 0062, amended).
    expect(COLD.size).toBeGreaterThan(10);
    for (const cold of [
      ...[...(COLD as Set<string>)].map((target) => `// source/${target}\n`),
      "// source/cli/hooks/",
      "// source/cli/acp/",
      "// node_modules/@opentelemetry/sdk-",
      "// node_modules/@opentelemetry/exporter-",
      "// node_modules/@agentclientprotocol/",
    ]) {
      expect(text, cold).not.toContain(cold);
    }
    // 23 files at d1a329b; 27 since the session's modules are an entry of their own, so that
    // the REPL's prompt does not wait for them (decision 0073).
    expect(bundleFiles.length).toBeLessThan(30);
  });

  it("loads the cold entry's modules when a subcommand asks for one", async () => {
    const loadedFile = path.join(dirs.root, "loaded.txt");
    const result = await runAcai({
      dirs,
      args: ["hooks", "list"],
      env: await loadRecorder(dirs, loadedFile),
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const loaded = (await readFile(loadedFile, "utf8"))
      .split("\n")
      .filter((url) => url.startsWith(pathToFileURL(BUNDLE).href));
    const text = (await Promise.all(loaded.map((url) => readFile(new URL(url), "utf8")))).join("");
    expect(text).toContain("// source/cli/hooks/command.ts\n");
    expect(text).toContain("// source/cli/hooks/list.ts\n");
  });

  it("runs a Bash call judged by the grammar and loads nothing of the REPL's UI", async () => {
    const replay = await replayOf(dirs, [
      { text: "", tool_calls: [{ name: "Bash", input: { command: "touch bundled-ok" } }] },
      { text: "done" },
    ]);
    const loadedFile = path.join(dirs.root, "loaded.txt");
    const result = await runAcai({
      dirs,
      args: ["-p", "go", "--model", `replay:${replay}`, "--allowedTools", "Bash(touch bundled-ok)"],
      env: await loadRecorder(dirs, loadedFile),
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
    for (const ui of [
      "// node_modules/ink/",
      "// node_modules/react/",
      ...(await replOnlyMarks()),
    ]) {
      expect(text, ui).not.toContain(ui);
    }
  });
});
