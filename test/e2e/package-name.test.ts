/**
 * The npm package is `acai-agent` (the name `acai` belongs to an unrelated
 * package); the command it installs is `acai` and the typed helper is
 * `acai-agent/hooks`, in package.json, the lock file, the docs and the
 * skeleton `acai hooks init --lang ts` writes.
 */
import { mkdir, readFile, symlink } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acai, REPO_ROOT, tempProject } from "../cli/commands/helpers.js";
import type { AcaiDirs } from "../support/run-acai.js";

const PACKAGE = "acai-agent";

let dirs: AcaiDirs | undefined;
afterEach(async () => {
  await dirs?.cleanup();
  dirs = undefined;
});

async function readJson(file: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path.join(REPO_ROOT, file), "utf8")) as Record<string, unknown>;
}

describe("the npm package name", () => {
  it("package.json and its lock name the package acai-agent; the command stays acai", async () => {
    const pkg = await readJson("package.json");
    expect(pkg.name).toBe(PACKAGE);
    expect(pkg.bin).toEqual({ acai: "bin/acai.cjs" });
    expect(Object.keys(pkg.exports as object)).toContain("./hooks");
    const lock = await readJson("package-lock.json");
    expect(lock.name).toBe(PACKAGE);
    expect((lock.packages as Record<string, { name?: string }>)[""]?.name).toBe(PACKAGE);
  });

  it("docs, README and examples never tell to install or import the unrelated `acai` package", async () => {
    const files = [
      "README.md",
      "docs/hooks.md",
      "docs/hook-toolkit.md",
      "docs/cli.md",
      "examples/hooks/bash-timeout.ts",
    ];
    for (const file of files) {
      const text = await readFile(path.join(REPO_ROOT, file), "utf8");
      expect(text, file).not.toMatch(/["'`]acai\/hooks["'`]/);
      expect(text, file).not.toMatch(/npm (install|i)( --save-dev| -D)? acai(?![-\w])/);
    }
    const toolkit = await readFile(path.join(REPO_ROOT, "docs/hook-toolkit.md"), "utf8");
    expect(toolkit).toContain("npm install --save-dev acai-agent");
  });

  it("`acai hooks init --lang ts` imports acai-agent/hooks when the project has the package", async () => {
    dirs = await tempProject();
    await mkdir(path.join(dirs.cwd, "node_modules"), { recursive: true });
    await symlink(REPO_ROOT, path.join(dirs.cwd, "node_modules", PACKAGE));
    const init = await acai(dirs, [
      "hooks",
      "init",
      "typed",
      "--lang",
      "ts",
      "--event",
      "before_tool",
    ]);
    expect(init.exitCode).toBe(0);
    const text = await readFile(path.join(dirs.cwd, ".acai", "hooks", "typed.mts"), "utf8");
    expect(text).toContain(`import { defineHook } from "${PACKAGE}/hooks";`);
  });

  it("without the package, the skeleton says which package to install", async () => {
    dirs = await tempProject();
    const init = await acai(dirs, [
      "hooks",
      "init",
      "typed",
      "--lang",
      "ts",
      "--event",
      "before_tool",
    ]);
    expect(init.exitCode).toBe(0);
    const text = await readFile(path.join(dirs.cwd, ".acai", "hooks", "typed.mts"), "utf8");
    expect(text).toContain(`npm install --save-dev ${PACKAGE}`);
    expect(text).toContain(`"${PACKAGE}/hooks"`);
  });
});
