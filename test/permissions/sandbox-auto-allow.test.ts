/** sandbox.autoAllowBashIfSandboxed (docs/security.md §8): what it lets through and what it does not. */
import { beforeAll, describe, expect, it } from "vitest";
import { decide, type PermissionPolicy } from "../../source/permissions/decide.js";
import { NO_RULES, type PermissionMode, toRules } from "../../source/permissions/rules.js";
import type { ShellAnalyzer } from "../../source/permissions/shell/analyze.js";
import { loadShellAnalyzer } from "../../source/permissions/shell/parser.js";

let shell: ShellAnalyzer;
beforeAll(async () => {
  shell = await loadShellAnalyzer({ baselineOnly: true });
});

function policy(mode: PermissionMode, auto: boolean, deny: string[] = []): PermissionPolicy {
  const source = { scope: "user" as const, label: "/home/u/.acai/settings.json" };
  return {
    mode,
    rules: { ...NO_RULES, deny: toRules(deny, "deny", source).rules },
    paths: { projectDir: "/p", homeDir: "/home/u" },
    cwd: "/p",
    shell,
    ...(auto ? { autoAllowSandboxedBash: true } : {}),
  };
}

const bash = (command: string) => ({ toolName: "Bash", input: { command } });

describe("autoAllowSandboxedBash", () => {
  it("in default mode a sandboxed Bash call no rule decides runs without asking", () => {
    expect(decide(bash("npm test"), policy("default", true)).behavior).toBe("allow");
    expect(decide(bash("npm test"), policy("default", false)).behavior).toBe("ask");
  });

  it("deny rules still apply, and it does not touch other tools or plan mode", () => {
    expect(decide(bash("curl x"), policy("default", true, ["Bash(curl:*)"])).behavior).toBe("deny");
    const write = { toolName: "Write", input: { file_path: "a.txt", content: "" } };
    expect(decide(write, policy("default", true)).behavior).toBe("ask");
    expect(decide(bash("ls"), policy("plan", true)).behavior).toBe("deny");
  });
});
