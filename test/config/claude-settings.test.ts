import { describe, expect, it } from "vitest";
import { claudeModelSpec, translateClaudeSettings } from "../../source/config/claude-settings.js";
import { SettingsError } from "../../source/config/settings.js";

describe("Claude Code settings as acai settings", () => {
  it("maps Claude Code's model names and aliases to anthropic: models, and nothing else", () => {
    expect(claudeModelSpec("sonnet")).toBe("anthropic:claude-sonnet-4-5");
    expect(claudeModelSpec("Opus")).toBe("anthropic:claude-opus-4-1");
    expect(claudeModelSpec("claude-3-5-haiku-20241022")).toBe(
      "anthropic:claude-3-5-haiku-20241022",
    );
    expect(claudeModelSpec("claude-sonnet-4-5[1m]")).toBe("anthropic:claude-sonnet-4-5");
    expect(claudeModelSpec("gpt-5")).toBeUndefined();
    expect(claudeModelSpec("claude sonnet; rm -rf")).toBeUndefined();
  });

  it("carries hooks, permissions, env and model; passes over Claude Code's other keys without a word", () => {
    const hooks = { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "x" }] }] };
    const { settings, warnings } = translateClaudeSettings("/p/.claude/settings.json", {
      hooks,
      permissions: {
        allow: ["Bash(npm test:*)"],
        deny: ["Read(./.env)"],
        additionalDirectories: ["../x"],
      },
      env: { FOO: "bar" },
      model: "haiku",
      statusLine: { type: "command", command: "echo" },
      includeCoAuthoredBy: false,
      baseUrl: "http://elsewhere",
    });
    expect(settings).toEqual({
      hooks,
      permissions: { allow: ["Bash(npm test:*)"], deny: ["Read(./.env)"] },
      env: { FOO: "bar" },
      model: "anthropic:claude-haiku-4-5",
    });
    expect(warnings).toEqual([]);
  });

  it("leaves out a carried key that does not validate, naming the file", () => {
    const { settings, warnings } = translateClaudeSettings("/p/.claude/settings.json", {
      model: "gpt-5",
      env: { "not a name": "x" },
      permissions: { allow: [42] },
    });
    expect(settings).toEqual({ permissions: {} });
    expect(warnings).toHaveLength(3);
    expect(warnings.join("\n")).toContain(
      '/p/.claude/settings.json: model "gpt-5" has no acai equivalent',
    );
    expect(warnings.join("\n")).toContain('"env" is not used');
    expect(warnings.join("\n")).toContain('"permissions.allow" is not used');
  });

  it("refuses to run on deny or ask rules it cannot read (a guard is never dropped)", () => {
    for (const permissions of [{ deny: "Read(.env)" }, { ask: [{}] }, "deny everything"]) {
      expect(() => translateClaudeSettings("/p/.claude/settings.json", { permissions })).toThrow(
        SettingsError,
      );
    }
    expect(() =>
      translateClaudeSettings("/p/.claude/settings.json", { permissions: { deny: 7 } }),
    ).toThrow(/its permission rules cannot be read \(deny: /);
    // A mode acai does not have costs the mode, never the deny rules beside it.
    const kept = translateClaudeSettings("/p/.claude/settings.json", {
      permissions: { deny: ["Read(.env)"], defaultMode: "dontAsk" },
    });
    expect(kept.settings).toEqual({ permissions: { deny: ["Read(.env)"] } });
    expect(kept.warnings.join("\n")).toContain('"permissions.defaultMode" is not used');
  });
});
