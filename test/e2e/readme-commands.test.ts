/**
 * The README's "Getting started" commands, exactly as written. The first two
 * (`npm install && npm run demo`, `npm test`) are what CI and
 * demo-scripts.test.ts run; the third, `npx acai … --trust-project`, is run
 * here as a user's shell would, in a scratch copy of the repository (its
 * package.json, README, launcher, hooks and replay files; the built dist/ and
 * node_modules/ linked in), with a PATH that has no acai on it.
 */
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/run-acai.js";

let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  root = undefined;
});

/** The commands of the README's first `sh` block, comments dropped. */
async function gettingStarted(): Promise<string[]> {
  const readme = await readFile(path.join(REPO_ROOT, "README.md"), "utf8");
  const block = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  return block
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line.length > 0);
}

async function scratchClone(): Promise<{ project: string; home: string }> {
  root = await mkdtemp(path.join(os.tmpdir(), "acai-readme-"));
  const project = path.join(root, "acai");
  const home = path.join(root, "home");
  await mkdir(path.join(project, "examples"), { recursive: true });
  await mkdir(home);
  for (const name of ["dist", "node_modules"]) {
    await symlink(path.join(REPO_ROOT, name), path.join(project, name));
  }
  for (const name of ["package.json", "package-lock.json", "README.md", ".acai", "bin"]) {
    await cp(path.join(REPO_ROOT, name), path.join(project, name), { recursive: true });
  }
  await cp(path.join(REPO_ROOT, "examples", "replay"), path.join(project, "examples", "replay"), {
    recursive: true,
  });
  return { project, home };
}

interface ShellResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `command` through /bin/sh, as typed, with a user's PATH (no node_modules/.bin, no acai). */
function shell(command: string, cwd: string, home: string): Promise<ShellResult> {
  const env: Record<string, string> = {
    PATH: process.env.PATH?.split(":")
      .filter((dir) => !dir.includes("node_modules"))
      .join(":") as string,
    HOME: home,
    LANG: "C.UTF-8",
    NO_COLOR: "1",
    npm_config_update_notifier: "false",
  };
  return new Promise((resolve) => {
    execFile("/bin/sh", ["-c", command], { cwd, env, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe("the README's first commands", () => {
  it("are npm install && npm run demo, npm test, and acai itself through npx", async () => {
    const commands = await gettingStarted();
    expect(commands).toHaveLength(3);
    expect(commands[0]).toBe("npm install && npm run demo");
    expect(commands[1]).toBe("npm test");
    expect(commands[2]).toMatch(/^npx acai -p /);
  });

  it("the third works as written in a fresh copy, with no acai on PATH", async () => {
    const [, , third = ""] = await gettingStarted();
    const { project, home } = await scratchClone();
    expect((await shell("command -v acai", project, home)).code).not.toBe(0);
    const result = await shell(third, project, home);
    expect(result.stderr).not.toContain("acai: error");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("wrote ACAI_DEMO.md");
    expect(await readFile(path.join(project, "ACAI_DEMO.md"), "utf8")).not.toBe("");
  }, 90_000);

  it("without --trust-project it exits 4 naming the ways on; after `npx acai hooks trust` it runs", async () => {
    const [, , third = ""] = await gettingStarted();
    const untrusted = third.replace(/ --trust-project\b/, "");
    const { project, home } = await scratchClone();
    const refused = await shell(untrusted, project, home);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain("acai hooks trust");
    expect(refused.stderr).toContain("--trust-project");
    expect((await shell("npx acai hooks trust", project, home)).code).toBe(0);
    const trusted = await shell(untrusted, project, home);
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain("wrote ACAI_DEMO.md");
  }, 90_000);
});
