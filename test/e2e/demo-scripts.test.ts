/**
 * `npm run demo` and `npm run demo:hooks` keep everything acai records in a
 * project-local, git-ignored ACAI_HOME (.acai-demo), never in the user's
 * ~/.acai. The scripts' own command lines from package.json are run (without
 * their build step) in a scratch copy of the repo's demo inputs.
 */
import { execFileSync } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/run-acai.js";

let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

async function scripts(): Promise<Record<string, string>> {
  const pkg = JSON.parse(await readFile(path.join(REPO_ROOT, "package.json"), "utf8"));
  return pkg.scripts as Record<string, string>;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

describe("npm run demo / demo:hooks", () => {
  it.each(["demo", "demo:hooks"])(
    "%s records into .acai-demo in the project, not ~/.acai",
    async (name) => {
      const script = (await scripts())[name] ?? "";
      expect(script).toMatch(/^npm run build && ACAI_HOME=\.acai-demo node dist\/cli\/main\.js /);
      const command = script.replace(/^npm run build && /, "");

      root = await mkdtemp(path.join(os.tmpdir(), "acai-demo-script-"));
      const project = path.join(root, "project");
      const home = path.join(root, "home");
      await mkdir(path.join(project, "examples"), { recursive: true });
      await mkdir(home);
      await symlink(path.join(REPO_ROOT, "dist"), path.join(project, "dist"));
      await symlink(path.join(REPO_ROOT, "node_modules"), path.join(project, "node_modules"));
      await cp(
        path.join(REPO_ROOT, "examples", "replay"),
        path.join(project, "examples", "replay"),
        {
          recursive: true,
        },
      );
      await cp(path.join(REPO_ROOT, ".acai"), path.join(project, ".acai"), { recursive: true });
      await cp(path.join(REPO_ROOT, "README.md"), path.join(project, "README.md"));

      const env: Record<string, string> = {
        PATH: `${path.join(REPO_ROOT, "node_modules", ".bin")}:${process.env.PATH ?? "/usr/bin:/bin"}`,
        HOME: home,
        LANG: "C.UTF-8",
        NO_COLOR: "1",
      };
      execFileSync("/bin/sh", ["-c", command], {
        cwd: project,
        env,
        stdio: ["ignore", "pipe", "pipe"],
        timeout: 60_000,
      });

      expect(await exists(path.join(home, ".acai"))).toBe(false);
      const demoHome = path.join(project, ".acai-demo");
      expect(await readdir(path.join(demoHome, "transcripts"))).toHaveLength(1);
      expect(await exists(path.join(demoHome, "logs", "hooks-audit.jsonl"))).toBe(true);
      expect(await exists(path.join(demoHome, "cache", "node-compile"))).toBe(true);
    },
    90_000,
  );

  it("git ignores .acai-demo/", () => {
    const ignored = execFileSync("git", ["check-ignore", ".acai-demo/transcripts/x.jsonl"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    });
    expect(ignored.trim()).toBe(".acai-demo/transcripts/x.jsonl");
  });
});
