/**
 * The trust review of a project (session/assessment.ts): built at once for a
 * project that is not trusted (what the refusal and the trust screen show),
 * and only when read for a trusted one — with the same content either way.
 */
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assessProject } from "../../source/session/assessment.js";

let root: string;
let cwd: string;
let env: Record<string, string>;
let homeDir: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "acai-assessment-review-"));
  cwd = path.join(root, "project");
  homeDir = path.join(root, "home");
  await Promise.all([mkdir(cwd), mkdir(homeDir), mkdir(path.join(root, "acai-home"))]);
  env = { ACAI_HOME: path.join(root, "acai-home") };
  const hooks = path.join(cwd, ".acai", "hooks");
  await mkdir(hooks, { recursive: true });
  await writeFile(path.join(hooks, "guard"), "#!/bin/sh\ncat >/dev/null\n");
  await chmod(path.join(hooks, "guard"), 0o755);
  const settings = {
    model: "x",
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] },
  };
  await writeFile(path.join(cwd, ".acai", "settings.json"), JSON.stringify(settings));
  await writeFile(path.join(root, "outside.md"), "not the project's\n");
  await symlink(path.join(root, "outside.md"), path.join(cwd, "AGENTS.md"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const assess = () => assessProject({ cwd, env, homeDir });

describe("the trust review", () => {
  it("a trusted project's review, read later, says what an untrusted one's said", async () => {
    const untrusted = await assess();
    expect(untrusted.status).toBe("untrusted");
    const first = untrusted.review;
    expect(first.changes).toEqual({ kind: "first-review" });
    expect(first.items.map((item) => item.file)).toEqual([
      path.join(cwd, ".acai", "hooks", "guard"),
      path.join(cwd, ".acai", "settings.json"),
    ]);
    expect(first.links).toEqual([
      expect.objectContaining({ key: "AGENTS.md", outside: true, dangling: false }),
    ]);
    await untrusted.trust();

    const trusted = await assess();
    expect(trusted.status).toBe("trusted");
    const review = trusted.review;
    expect(review).toEqual({
      ...first,
      changes: { kind: "changed", added: [], removed: [], edited: [] },
    });
    expect(trusted.review).toBe(review);
  });

  it("a project changed since it was trusted is reviewed at once, naming the change", async () => {
    await (await assess()).trust();
    await writeFile(path.join(cwd, ".acai", "hooks", "guard"), "#!/bin/sh\nexit 2\n");
    const changed = await assess();
    expect(changed.status).toBe("untrusted");
    expect(changed.review.changes).toEqual({
      kind: "changed",
      added: [],
      removed: [],
      edited: [".acai/hooks/guard"],
    });
  });
});
