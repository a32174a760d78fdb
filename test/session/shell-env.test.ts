/**
 * The session's CLAUDE_ENV_FILEs on acai's side (session/shell-env.ts): made
 * anew and read without following a link — a hook whose sandbox may write
 * their folder (decision 0069's fallback policy) could leave one pointing at
 * a file its sandbox hides, or at one acai would then truncate.
 */
import { lstatSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSessionEnvFiles, createShellEnvReader } from "../../source/session/shell-env.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "acai-shell-env-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const hooks = [{ id: "h1", events: ["session_start" as const] }];

describe("CLAUDE_ENV_FILEs", () => {
  it("are made anew: a link left where one goes is replaced, its target untouched", async () => {
    const dir = path.join(root, "session");
    await mkdir(dir);
    const victim = path.join(root, "victim");
    await writeFile(victim, "keep me\n");
    await symlink(victim, path.join(dir, "env-hook-0.sh"));
    const files = await createSessionEnvFiles(dir, hooks);
    const file = files.get("h1")!;
    expect(lstatSync(file).isFile()).toBe(true);
    expect(await readFile(file, "utf8")).toBe("");
    expect(await readFile(victim, "utf8")).toBe("keep me\n");
  });

  it("are read as data, and never through a link", async () => {
    const plain = path.join(root, "plain.sh");
    await writeFile(plain, "export FOO=bar\n");
    const hidden = path.join(root, "hidden");
    await writeFile(hidden, "export SECRET=1\n");
    const linked = path.join(root, "linked.sh");
    await symlink(hidden, linked);
    const read = createShellEnvReader([plain, linked], {})();
    expect(read.vars).toEqual({ FOO: "bar" });
    expect(read.warnings).toEqual([`cannot read CLAUDE_ENV_FILE ${linked}: it is a symbolic link`]);
  });
});
