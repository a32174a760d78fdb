/**
 * The npm package: the `acai` launcher says which Node it needs before it
 * imports anything (run with an older Node of this machine, when there is
 * one), the packed file list holds what the installed command and
 * `acai-agent/hooks` need (and no sources or tests), and the lockfile records
 * every platform's optional packages so that `npm ci` accepts it anywhere.
 * `.ci/package-check` installs the real tarball and runs it; this is the fast
 * part of that, in the suite.
 */
import { execFile, execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/run-acai.js";

const LAUNCHER = path.join(REPO_ROOT, "bin", "acai.cjs");
const PROJECT_NODE = path.join(REPO_ROOT, "node_modules", ".bin", "node");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(file: string, args: readonly string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: REPO_ROOT, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** A Node older than 22 on PATH (the system's, typically), or undefined. */
function olderNode(): { file: string; version: string } | undefined {
  let found: string[];
  try {
    found = execFileSync("which", ["-a", "node", "nodejs"], { encoding: "utf8" }).split("\n");
  } catch (error) {
    // `which` exits 1 when one of the names is missing but still prints the others.
    found = String((error as { stdout?: unknown }).stdout ?? "").split("\n");
  }
  for (const file of found.filter((line) => line.trim() !== "")) {
    try {
      const version = execFileSync(file, ["-p", "process.versions.node"], { encoding: "utf8" });
      if (Number(version.split(".")[0]) < 22) return { file, version: version.trim() };
    } catch {
      // Not runnable: not a candidate.
    }
  }
  return undefined;
}

const old = olderNode();

describe("the acai launcher (bin/acai.cjs)", () => {
  it.skipIf(old === undefined)(
    `refuses an older Node in one sentence, exit 1 (${old ? `${old.file}, Node ${old.version}` : "skipped: no Node older than 22 on PATH"})`,
    async () => {
      const result = await run(old?.file ?? "", [LAUNCHER, "--version"]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toBe(
        `acai: acai needs Node 22.13 or newer; this is Node ${old?.version} (${old?.file}). Install a current Node (https://nodejs.org, or nvm install 24) and run acai again.\n`,
      );
    },
  );

  it("on the project's Node starts acai itself", async () => {
    const pkg = JSON.parse(await readFile(path.join(REPO_ROOT, "package.json"), "utf8")) as {
      version: string;
      engines: { node: string };
    };
    const result = await run(PROJECT_NODE, [LAUNCHER, "--version"]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(`${pkg.version}\n`);
    // The launcher's minimum is the one package.json declares.
    expect(pkg.engines.node).toBe(">=22.13");
  });
});

describe("the packed package", () => {
  it("holds the launcher, dist, the exports' targets, the demo replay file and the changelog; no sources or tests", async () => {
    const packed = await run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"]);
    expect(packed.code).toBe(0);
    const [entry] = JSON.parse(packed.stdout) as { files: { path: string }[] }[];
    const files = new Set(entry?.files.map((file) => file.path));
    const pkg = JSON.parse(await readFile(path.join(REPO_ROOT, "package.json"), "utf8")) as {
      bin: Record<string, string>;
      exports: Record<string, Record<string, string> | string>;
    };
    const targets = Object.values(pkg.exports).flatMap((target) =>
      typeof target === "string" ? [target] : Object.values(target),
    );
    for (const file of [
      ...Object.values(pkg.bin),
      ...targets.map((target) => target.replace(/^\.\//, "")),
      "bin/start.cjs",
      "dist/cli/main.js",
      "dist/bundle/main.js",
      "dist/bundle/hooks-run-plugins-worker.js",
      "dist/bundle/hooks-run-plugins-relay-shape.js",
      "dist/bundle/hooks-run-plugins-worker-a3s.js",
      "dist/bundle/hooks-run-plugins-worker-children.js",
      "dist/bundle/sandbox-bridge.js",
      "dist/bundle/sdk-hooks.js",
      "dist/permissions/shell/tree-sitter-bash.wasm",
      "examples/replay/demo.json",
      "CHANGELOG.md",
      "README.md",
      "package.json",
    ]) {
      expect(files, file).toContain(file);
    }
    const strays = [...files].filter((file) => /^(source|test|bench|scripts|\.ci)\//.test(file));
    expect(strays).toEqual([]);
  });
});

describe("the lockfile", () => {
  it("records every optional dependency of every locked package (npm ci needs them on every platform)", async () => {
    const lock = JSON.parse(await readFile(path.join(REPO_ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, { optionalDependencies?: Record<string, string> }>;
    };
    const missing: string[] = [];
    for (const [key, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        // Found beside the package (nested) or hoisted to the top.
        const nested = `${key === "" ? "" : `${key}/`}node_modules/${name}`;
        if (!(nested in lock.packages) && !(`node_modules/${name}` in lock.packages)) {
          missing.push(`${name} (of ${key || "the project"})`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
