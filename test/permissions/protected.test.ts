import { beforeAll, describe, expect, it } from "vitest";
import { decide, type PermissionPolicy } from "../../source/permissions/decide.js";
import { askReason } from "../../source/permissions/explain.js";
import {
  isGitControl,
  type ProtectedPaths,
  pathsInInput,
  protectedWrite,
} from "../../source/permissions/protected.js";
import { NO_RULES, type PermissionMode, toRules } from "../../source/permissions/rules.js";
import type { ShellAnalyzer } from "../../source/permissions/shell/analyze.js";
import { loadShellAnalyzer } from "../../source/permissions/shell/parser.js";

const LINKS: Record<string, string> = {
  // docs/cfg is a link a hostile repository ships, into the user's hooks.
  "/p/docs/cfg": "/home/u/.acai/hooks",
};

const guard: ProtectedPaths = {
  areas: [
    { path: "/home/u/.acai", scope: "tree", why: "acai-home" },
    { path: "/p/.acai", scope: "tree", why: "trusted-set" },
    { path: "/p/AGENTS.md", scope: "file", why: "trusted-set" },
    { path: "/p/.git/config", scope: "file", why: "git" },
    { path: "/p/.git/hooks", scope: "tree", why: "git" },
  ],
  resolve: (file) => {
    for (const [link, target] of Object.entries(LINKS)) {
      if (file === link || file.startsWith(`${link}/`)) return target + file.slice(link.length);
    }
    return file;
  },
};

let shell: ShellAnalyzer;
beforeAll(async () => {
  shell = await loadShellAnalyzer({ baselineOnly: true });
});

function policy(mode: PermissionMode = "default", allow: string[] = []): PermissionPolicy {
  return {
    mode,
    rules: {
      ...NO_RULES,
      allow: toRules(allow, "allow", { scope: "flag", label: "--allowedTools" }).rules,
    },
    paths: { projectDir: "/p", homeDir: "/home/u" },
    cwd: "/p",
    guard,
    shell,
  };
}

const write = (file_path: string) => ({ toolName: "Write", input: { file_path, content: "x" } });
const edit = (file_path: string) => ({
  toolName: "Edit",
  input: { file_path, old_string: "a", new_string: "b" },
});

describe("protectedWrite", () => {
  it("names the first protected file, as given and where it leads", () => {
    expect(protectedWrite(["/p/src/a.ts", "/home/u/.acai/hooks/x"], guard)).toEqual({
      file: "/home/u/.acai/hooks/x",
      why: "acai-home",
    });
    expect(protectedWrite(["/p/docs/cfg/HOOK.md"], guard)).toEqual({
      file: "/p/docs/cfg/HOOK.md",
      resolved: "/home/u/.acai/hooks/HOOK.md",
      why: "acai-home",
    });
    expect(protectedWrite(["/p/src/a.ts", "/p/AGENTS.md.bak"], guard)).toBeUndefined();
  });

  it("a tree covers the folder itself and all below it; a file only itself", () => {
    expect(protectedWrite(["/home/u/.acai"], guard)?.why).toBe("acai-home");
    expect(protectedWrite(["/home/u/.acai/a/b/c"], guard)?.why).toBe("acai-home");
    expect(protectedWrite(["/home/u/.acai-other/x"], guard)).toBeUndefined();
    expect(protectedWrite(["/p/AGENTS.md/x"], guard)).toBeUndefined();
    expect(protectedWrite(["/p/x/../AGENTS.md"], guard)?.why).toBe("trusted-set");
  });

  it("ignores case only where the file system does", () => {
    expect(protectedWrite(["/P/.ACAI/hooks/x"], guard)).toBeUndefined();
    expect(protectedWrite(["/P/.ACAI/hooks/x"], { ...guard, ignoreCase: true })?.why).toBe(
      "trusted-set",
    );
  });

  it("git's config and hooks are protected in any repository, a .git entry itself too", () => {
    for (const file of [
      "/q/.git/config",
      "/q/.git/config.worktree",
      "/q/.git/hooks/pre-commit",
      "/q/.git/modules/sub/config",
      "/q/.git/modules/sub/hooks/post-checkout",
      "/q/.git/worktrees/w/config.worktree",
      "/q/sub/.git",
      // commondir points git at another folder's config (red team, issue 18)
      "/q/.git/commondir",
      "/q/.git/worktrees/w/commondir",
    ]) {
      expect(isGitControl(file), file).toBe(true);
    }
    for (const file of [
      "/q/.git/info/exclude",
      "/q/.git/HEAD",
      "/q/config",
      "/q/.github/hooks/x",
    ]) {
      expect(isGitControl(file), file).toBe(false);
    }
  });
});

describe("pathsInInput (dynamic and MCP tools)", () => {
  it("takes every one-line string as a path, bounded in depth", () => {
    const found = pathsInInput(
      { out: "~/.acai/hooks/x", nested: { list: ["AGENTS.md", "two\nlines"] } },
      "/p",
      "/home/u",
    );
    expect(found).toEqual(["/home/u/.acai/hooks/x", "/p/AGENTS.md"]);
    const deep = { a: { b: { c: { d: { e: "/home/u/.acai/x" } } } } };
    expect(pathsInInput(deep, "/p", "/home/u")).toEqual([]);
  });
});

describe("decide: a protected write asks as kind protected, whatever would allow it", () => {
  const modes: PermissionMode[] = ["default", "acceptEdits", "bypassPermissions"];
  for (const mode of modes) {
    it(`in ${mode}, with an allow rule and a hook's allow`, () => {
      const p = policy(mode, ["Edit", "Write", "my_tool", "Bash"]);
      const hint = { behavior: "allow" as const, reason: "ok", by: "project-hook" };
      for (const call of [
        write("/home/u/.acai/hooks/x"),
        edit(".acai/hooks/guard"),
        write(".git/config"),
        write("docs/cfg/HOOK.md"),
        { toolName: "my_tool", input: { target: ".git/hooks/pre-commit" } },
        { toolName: "mcp__fs__write", input: { path: "AGENTS.md" } },
        // A Bash redirection is a write too, judged from the parse.
        { toolName: "Bash", input: { command: "echo x >> ~/.acai/settings.json" } },
        { toolName: "Bash", input: { command: "ls && (echo '[core]' > .git/config)" } },
        // A cd earlier in the line moves where a relative redirection lands (red team).
        { toolName: "Bash", input: { command: "cd .git && echo x > config" } },
        { toolName: "Bash", input: { command: "cd /p; cd .git/hooks; echo x > pre-commit" } },
        { toolName: "Bash", input: { command: "pushd .acai && echo x >> settings.json" } },
        { toolName: "Bash", input: { command: "cd && echo x > .acai/hooks/x" } },
        { toolName: "Bash", input: { command: "builtin cd .git; command cd hooks; echo > x" } },
        { toolName: "Bash", input: { command: "bash -c 'cd .git; exec 3>config'" } },
      ]) {
        const decision = decide(call, p, hint);
        expect(decision.behavior, JSON.stringify(call)).toBe("ask");
        expect(decision.by.kind, JSON.stringify(call)).toBe("protected");
      }
    });
  }

  it("a deny rule and plan mode still deny; reads are not writes", () => {
    const denied = {
      ...policy(),
      rules: { ...NO_RULES, deny: toRules(["Write"], "deny", { scope: "flag", label: "f" }).rules },
    };
    expect(decide(write(".git/config"), denied).behavior).toBe("deny");
    expect(decide(write(".git/config"), policy("plan")).behavior).toBe("deny");
    expect(
      decide({ toolName: "Read", input: { file_path: ".git/config" } }, policy()).behavior,
    ).toBe("allow");
    expect(decide(write("src/a.ts"), policy("acceptEdits")).behavior).toBe("allow");
  });

  it("the ask says which path and why", () => {
    const decision = decide(write("docs/cfg/HOOK.md"), policy("acceptEdits"));
    expect(askReason("Write", decision.by)).toBe(
      "/p/docs/cfg/HOOK.md (which leads to /home/u/.acai/hooks/HOOK.md) is a protected path: it is in ACAI_HOME, acai's own folder (settings, hooks, tools, plugins, agents, trust records); only you can approve this exact write",
    );
  });
});
