import { describe, expect, it } from "vitest";
import {
  PermissionRuleSchema,
  parseRuleText,
  ruleNamesTool,
  splitRuleList,
  toRules,
} from "../../source/permissions/rules.js";

describe("parseRuleText", () => {
  it("reads a tool, a tool with content, and Claude Code's Tool(*)", () => {
    expect(parseRuleText("Bash")).toEqual({ ok: true, tool: "Bash" });
    expect(parseRuleText(" Bash(npm test:*) ")).toEqual({
      ok: true,
      tool: "Bash",
      content: "npm test:*",
    });
    expect(parseRuleText("Read(./.env)")).toEqual({ ok: true, tool: "Read", content: "./.env" });
    expect(parseRuleText("Bash(*)")).toEqual({ ok: true, tool: "Bash" });
    expect(parseRuleText("mcp__github__*")).toEqual({ ok: true, tool: "mcp__github__*" });
    // Parentheses inside the content belong to it.
    expect(parseRuleText("Bash(echo (hi))")).toEqual({
      ok: true,
      tool: "Bash",
      content: "echo (hi)",
    });
  });

  it("says what is wrong with a rule that is not one", () => {
    expect(parseRuleText("")).toMatchObject({ ok: false, error: expect.stringMatching(/empty/) });
    expect(parseRuleText("Bash()")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/empty parentheses/),
    });
    expect(parseRuleText("Bash(npm")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/does not end with "\)"/),
    });
    expect(parseRuleText("rm -rf")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/not a tool name/),
    });
  });

  it("is the settings schema's check", () => {
    expect(PermissionRuleSchema.safeParse("Edit(src/**)").success).toBe(true);
    const bad = PermissionRuleSchema.safeParse("Bash()");
    expect(bad.success).toBe(false);
  });
});

describe("splitRuleList", () => {
  it("splits at commas and spaces outside parentheses", () => {
    expect(splitRuleList("Bash(npm test:*) Edit,Read(./src/**)  mcp__x")).toEqual([
      "Bash(npm test:*)",
      "Edit",
      "Read(./src/**)",
      "mcp__x",
    ]);
  });
});

describe("toRules", () => {
  it("keeps each rule's list and source, and reports the broken ones", () => {
    const source = { scope: "flag" as const, label: "--allowedTools" };
    const { rules, errors } = toRules(["Bash(ls:*)", "Bash()"], "allow", source);
    expect(rules).toEqual([
      { text: "Bash(ls:*)", tool: "Bash", content: "ls:*", list: "allow", source },
    ]);
    expect(errors).toHaveLength(1);
  });
});

describe("ruleNamesTool", () => {
  it("matches names exactly, with * wildcards, and a server's every tool", () => {
    expect(ruleNamesTool("Bash", "Bash")).toBe(true);
    expect(ruleNamesTool("Bash", "BashX")).toBe(false);
    expect(ruleNamesTool("mcp__github__*", "mcp__github__get_issue")).toBe(true);
    expect(ruleNamesTool("mcp__github__*", "mcp__gitlab__get_issue")).toBe(false);
    expect(ruleNamesTool("mcp__github", "mcp__github__get_issue")).toBe(true);
    expect(ruleNamesTool("mcp__github", "mcp__github-enterprise__get_issue")).toBe(false);
    expect(ruleNamesTool("mcp__github__get_issue", "mcp__github__get_issue")).toBe(true);
    expect(ruleNamesTool("mcp__*", "Bash")).toBe(false);
  });
});
