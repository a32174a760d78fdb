import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assessProject } from "../../source/session/assessment.js";
import { addProjectAllowRule } from "../../source/session/project-rule.js";

let root: string;
let cwd: string;
let env: Record<string, string>;
let homeDir: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "acai-project-rule-"));
  cwd = path.join(root, "project");
  homeDir = path.join(root, "home");
  await Promise.all([mkdir(cwd), mkdir(homeDir), mkdir(path.join(root, "acai-home"))]);
  env = { ACAI_HOME: path.join(root, "acai-home") };
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const options = (startedWith: string | null) => ({ cwd, env, homeDir, startedWith });
const local = () => path.join(cwd, ".acai", "settings.local.json");

describe("a rule kept in the project", () => {
  it("a project with nothing of its own gets the file, and the new set is trusted", async () => {
    const outcome = await addProjectAllowRule("Bash(npm test:*)", options(null));
    expect(outcome).toEqual({ ok: true, file: local() });
    expect(JSON.parse(await readFile(local(), "utf8"))).toEqual({
      permissions: { allow: ["Bash(npm test:*)"] },
    });
    expect((await assessProject({ cwd, env, homeDir })).status).toBe("trusted");
  });

  it("keeps the other settings, adds a rule once, and stays trusted", async () => {
    await mkdir(path.join(cwd, ".acai"));
    await writeFile(
      local(),
      JSON.stringify({ model: "x", permissions: { deny: ["Read(./.env)"] } }),
    );
    const before = await assessProject({ cwd, env, homeDir });
    await before.trust();
    const fingerprint = before.scan.projectFingerprint;
    expect((await addProjectAllowRule("Bash(ls:*)", options(fingerprint))).ok).toBe(true);
    const after = await assessProject({ cwd, env, homeDir });
    expect(
      (await addProjectAllowRule("Bash(ls:*)", options(after.scan.projectFingerprint))).ok,
    ).toBe(true);
    expect(JSON.parse(await readFile(local(), "utf8"))).toEqual({
      model: "x",
      permissions: { deny: ["Read(./.env)"], allow: ["Bash(ls:*)"] },
    });
    expect((await assessProject({ cwd, env, homeDir })).status).toBe("trusted");
  });

  it("refuses when the project changed since the session started, or is not trusted", async () => {
    await mkdir(path.join(cwd, ".acai"));
    await writeFile(local(), '{"model":"x"}');
    const outcome = await addProjectAllowRule("Bash(ls:*)", options(null));
    expect(outcome.ok).toBe(false);
    expect(outcome.ok ? "" : outcome.error).toContain("changed since this session started");
    const untrusted = (await assessProject({ cwd, env, homeDir })).scan.projectFingerprint;
    const refused = await addProjectAllowRule("Bash(ls:*)", options(untrusted));
    expect(refused.ok ? "" : refused.error).toContain("not trusted");
    expect(await readFile(local(), "utf8")).toBe('{"model":"x"}');
  });

  it("never writes through a link a cloned repository planted", async () => {
    const target = path.join(root, "elsewhere.json");
    await writeFile(target, "{}");
    await mkdir(path.join(cwd, ".acai"));
    await symlink(target, local());
    const before = await assessProject({ cwd, env, homeDir });
    await before.trust();
    const outcome = await addProjectAllowRule(
      "Bash(ls:*)",
      options(before.scan.projectFingerprint),
    );
    expect(outcome.ok ? "" : outcome.error).toContain("a link or not a file");
    expect(await readFile(target, "utf8")).toBe("{}");
  });
});
