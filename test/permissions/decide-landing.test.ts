/**
 * The permission decision judges where a write lands on the real file system
 * (`tools/landing.ts` as the policy's resolver, as the session wires it): a
 * link to a folder not yet created, a dangling link, a folder linked to
 * ACAI_HOME under acceptEdits. `judgedLanding` is the path the tool must write.
 */
import { mkdir, mkdtemp, realpath, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { decide, judgedLanding, type PermissionPolicy } from "../../source/permissions/decide.js";
import { NO_RULES, type PermissionMode, toRules } from "../../source/permissions/rules.js";
import type { ShellAnalyzer } from "../../source/permissions/shell/analyze.js";
import { loadShellAnalyzer } from "../../source/permissions/shell/parser.js";
import { landingOrUndefined } from "../../source/tools/landing.js";

let root: string;
let project: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "acai-decide-landing-")));
  project = join(root, "project");
  await mkdir(join(project, "src"), { recursive: true });
  await mkdir(join(project, "docs"));
});
afterEach(() => rm(root, { recursive: true, force: true }));

let shell: ShellAnalyzer;
beforeAll(async () => {
  shell = await loadShellAnalyzer({ baselineOnly: true });
});

function policy(mode: PermissionMode, allow: string[] = []): PermissionPolicy {
  const source = { scope: "flag", label: "--allowedTools" } as const;
  return {
    mode,
    rules: { ...NO_RULES, allow: toRules(allow, "allow", source).rules },
    paths: { projectDir: project, homeDir: join(root, "home") },
    cwd: project,
    realpath: landingOrUndefined,
    shell,
  };
}
const write = (file_path: string) => ({ toolName: "Write", input: { file_path, content: "x" } });

describe("writes are judged where they land", () => {
  it("Edit(src/**) allows a plain file under src, not one through a link to a folder not yet created", async () => {
    await symlink("../../outside", join(project, "src", "link"));
    const p = policy("default", ["Edit(src/**)"]);
    expect(decide(write("src/ok.txt"), p).behavior).toBe("allow");
    expect(decide(write("src/link/new/x.txt"), p).behavior).toBe("ask");
    expect(judgedLanding(write("src/link/new/x.txt"), p)).toBe(
      join(root, "outside", "new", "x.txt"),
    );
  });

  it("a dangling link is judged at its target", async () => {
    await symlink(join(root, "target.txt"), join(project, "src", "dangle"));
    expect(decide(write("src/dangle"), policy("default", ["Edit(src/**)"])).behavior).toBe("ask");
    expect(decide(write("src/dangle"), policy("acceptEdits")).behavior).toBe("ask");
  });

  it("acceptEdits does not reach ACAI_HOME through a folder link the repository ships", async () => {
    const hooks = join(root, "acai-home", "hooks");
    await mkdir(hooks, { recursive: true });
    await symlink(hooks, join(project, "docs", "cfg"));
    const p = policy("acceptEdits");
    expect(decide(write("docs/cfg/evil/HOOK.md"), p).behavior).toBe("ask");
    expect(decide(write("docs/readme.md"), p).behavior).toBe("allow");
  });

  it("a link that stays inside the project is judged inside", async () => {
    await symlink("../src", join(project, "docs", "src-alias"));
    const p = policy("acceptEdits");
    expect(decide(write("docs/src-alias/a.ts"), p).behavior).toBe("allow");
    expect(judgedLanding(write("docs/src-alias/a.ts"), p)).toBe(join(project, "src", "a.ts"));
    expect(judgedLanding({ toolName: "Glob", input: { pattern: "*" } }, p)).toBeUndefined();
  });
});
