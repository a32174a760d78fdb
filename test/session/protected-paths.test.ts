import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { protectedWrite } from "../../source/permissions/protected.js";
import { sessionProtectedPaths } from "../../source/session/protected-paths.js";

let base: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), "acai-protected-")));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function layout() {
  const home = path.join(base, "home");
  const acaiHome = path.join(home, ".acai");
  const main = path.join(base, "main");
  const project = path.join(base, "wt");
  mkdirSync(path.join(acaiHome, "hooks"), { recursive: true });
  mkdirSync(path.join(main, ".git", "worktrees", "wt"), { recursive: true });
  writeFileSync(path.join(main, ".git", "worktrees", "wt", "commondir"), "../..\n");
  mkdirSync(path.join(project, "scripts"), { recursive: true });
  writeFileSync(
    path.join(project, ".git"),
    `gitdir: ${path.join(main, ".git", "worktrees", "wt")}\n`,
  );
  writeFileSync(path.join(project, "scripts", "guard.sh"), "#!/bin/sh\n");
  return { home, acaiHome, main, project };
}

describe("sessionProtectedPaths", () => {
  it("covers ACAI_HOME, the trusted set through links, and a worktree's git folders", () => {
    const { home, acaiHome, main, project } = layout();
    const guard = sessionProtectedPaths({
      acaiHome,
      homeDir: home,
      projectDir: project,
      // A trusted hook that is a link to scripts/guard.sh: its target is part of the set.
      manifest: [
        { key: "scripts/guard.sh", digest: "file x 00" },
        // Files configuration names (project/pins.ts): an MCP server's script, a replay file.
        { key: "mcp-server:tools/server.js", digest: "file - 00" },
        { key: "replay:replays/run.json", digest: "missing" },
      ],
      platform: "linux",
    });
    const hit = (file: string) => protectedWrite([file], guard)?.why;
    expect(hit(path.join(acaiHome, "hooks", "new"))).toBe("acai-home");
    expect(hit(path.join(home, ".config", "agents", "hooks", "x", "HOOK.md"))).toBe("user-hooks");
    expect(hit(path.join(project, ".acai", "hooks", "added"))).toBe("trusted-set");
    expect(hit(path.join(project, "scripts", "guard.sh"))).toBe("trusted-set");
    expect(hit(path.join(project, ".mcp.json"))).toBe("trusted-set");
    expect(hit(path.join(project, "tools", "server.js"))).toBe("trusted-set");
    expect(hit(path.join(project, "replays", "run.json"))).toBe("trusted-set");
    expect(hit(path.join(project, ".git"))).toBe("git");
    expect(hit(path.join(main, ".git", "worktrees", "wt", "config.worktree"))).toBe("git");
    expect(hit(path.join(main, ".git", "config"))).toBe("git");
    expect(hit(path.join(project, "scripts", "other.sh"))).toBeUndefined();
    expect(hit(path.join(project, "README.md"))).toBeUndefined();
  });

  it("judges a write through a link, a dangling link and a folder not yet created where it lands", () => {
    const { home, acaiHome, project } = layout();
    symlinkSync(path.join(acaiHome, "hooks"), path.join(project, "docs-cfg"));
    symlinkSync(path.join(acaiHome, "hooks", "not-yet"), path.join(project, "dangling"));
    const guard = sessionProtectedPaths({
      acaiHome,
      homeDir: home,
      projectDir: project,
      manifest: [],
      platform: "linux",
    });
    expect(protectedWrite([path.join(project, "docs-cfg", "new", "HOOK.md")], guard)).toEqual({
      file: path.join(project, "docs-cfg", "new", "HOOK.md"),
      resolved: path.join(acaiHome, "hooks", "new", "HOOK.md"),
      why: "acai-home",
    });
    expect(protectedWrite([path.join(project, "dangling")], guard)?.resolved).toBe(
      path.join(acaiHome, "hooks", "not-yet"),
    );
  });
});
