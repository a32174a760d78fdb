/**
 * "Yes, and don't ask again" never lets the model write its own guards: a
 * protected write's prompt offers no rule to keep, whole-tool and wildcard
 * rules are never kept, and a rule the session keeps still loses to the
 * protected-path check (decide's step 2a).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { decide, type PermissionPolicy } from "../../source/permissions/decide.js";
import { keepableRule } from "../../source/permissions/keep.js";
import type { ProtectedPaths } from "../../source/permissions/protected.js";
import { NO_RULES } from "../../source/permissions/rules.js";
import type { ShellAnalyzer } from "../../source/permissions/shell/analyze.js";
import { loadShellAnalyzer } from "../../source/permissions/shell/parser.js";
import { askChoices } from "../../source/repl/ask-choices.js";
import { permissionControls } from "../../source/session/permission-controls.js";

const guard: ProtectedPaths = {
  areas: [
    { path: "/p/.acai", scope: "tree", why: "trusted-set" },
    { path: "/p/.git/hooks", scope: "tree", why: "git" },
  ],
  resolve: (file) => file,
};

let shell: ShellAnalyzer;
beforeAll(async () => {
  shell = await loadShellAnalyzer({ baselineOnly: true });
});

function policy(): PermissionPolicy {
  return {
    mode: "default",
    rules: NO_RULES,
    paths: { projectDir: "/p", homeDir: "/home/u" },
    cwd: "/p",
    guard,
    shell,
  };
}

const controlsFor = (p: PermissionPolicy) =>
  permissionControls(p, { cwd: "/p", env: {}, homeDir: "/home/u", startedWith: null });

describe("rules a prompt may keep", () => {
  it("never a whole Bash, Write, Edit or Read, nor a wildcard tool; a named command or file, yes", () => {
    for (const rule of ["Bash", "Write", "Edit", "Read", "Bash(*)", "mcp__x__*"]) {
      expect(keepableRule(rule).ok, rule).toBe(false);
    }
    for (const rule of ["Bash(npm test:*)", "Edit(./src/a.ts)", "mcp__github__list"]) {
      expect(keepableRule(rule).ok, rule).toBe(true);
    }
  });

  it("a protected write's prompt offers yes-once and no only, whatever rule is suggested", () => {
    const choices = askChoices(
      {
        event: "permission_request",
        reason: "protected",
        toolName: "Write",
        toolInput: { file_path: "/p/.acai/hooks/guard", content: "" },
        suggestion: "Edit(./.acai/hooks/guard)",
        protected: { file: "/p/.acai/hooks/guard", why: "trusted-set" },
      },
      { keepable: (rule) => keepableRule(rule).ok, projectRulesOff: undefined },
    );
    expect(choices.map((c) => c.answer.kind)).toEqual(["yes", "no", "no"]);
  });

  it("a whole-tool suggestion (a line the parse cannot judge) is not offered to keep", () => {
    const choices = askChoices(
      {
        event: "permission_request",
        reason: "r",
        toolName: "Bash",
        toolInput: {},
        suggestion: "Bash",
      },
      { keepable: (rule) => keepableRule(rule).ok, projectRulesOff: undefined },
    );
    expect(choices.map((c) => c.key)).toEqual(["y", "c", "n", "t"]);
  });

  it("the session's controls refuse such rules too, and a kept rule never approves a protected write", () => {
    const p = policy();
    const controls = controlsFor(p);
    expect(controls.allowForSession("Bash").ok).toBe(false);
    expect(controls.allowForSession("Edit").ok).toBe(false);
    expect(controls.allowForSession("Edit(./.acai/**)").ok).toBe(true);
    expect(controls.allowForSession("Bash(tee:*)").ok).toBe(true);
    const hook = {
      toolName: "Edit",
      input: { file_path: "/p/.acai/hooks/guard", old_string: "a", new_string: "b" },
    };
    expect(decide(hook, p)).toMatchObject({ behavior: "ask", by: { kind: "protected" } });
    const tee = { toolName: "Bash", input: { command: "echo x | tee >/p/.git/hooks/pre-commit" } };
    expect(decide(tee, p)).toMatchObject({ behavior: "ask", by: { kind: "protected" } });
    const plain = {
      toolName: "Edit",
      input: { file_path: "/p/.acai/notes.md", old_string: "a", new_string: "b" },
    };
    expect(decide(plain, p).by.kind).toBe("protected");
  });

  it("Shift-Tab's modes: default, acceptEdits, plan; bypassPermissions only when the session started in it", () => {
    const p = policy();
    expect(controlsFor(p).modes).toEqual(["default", "acceptEdits", "plan"]);
    const bypass = { ...policy(), mode: "bypassPermissions" as const };
    expect(controlsFor(bypass).modes).toEqual([
      "default",
      "acceptEdits",
      "plan",
      "bypassPermissions",
    ]);
    const controls = controlsFor(p);
    controls.setMode("acceptEdits");
    expect(p.mode).toBe("acceptEdits");
    expect(
      decide({ toolName: "Write", input: { file_path: "/p/a.txt", content: "" } }, p).behavior,
    ).toBe("allow");
  });
});
