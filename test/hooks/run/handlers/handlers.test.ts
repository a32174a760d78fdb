import { describe, expect, it } from "vitest";
import { urlMatches } from "../../../../source/hooks/discover/sources/settings-launch.js";
import { judgedDecision, judgePrompt } from "../../../../source/hooks/run/handlers/judged.js";
import { mcpToolInput } from "../../../../source/hooks/run/handlers/mcp-input.js";

describe("allowedHttpHookUrls patterns", () => {
  it("match the whole URL, * any run of characters, nothing else special", () => {
    expect(urlMatches("https://hooks.example.com/*", "https://hooks.example.com/a/b")).toBe(true);
    expect(urlMatches("https://hooks.example.com/*", "https://hooks.example.com.evil.io/a")).toBe(
      false,
    );
    expect(urlMatches("http://127.0.0.1:*/hook", "http://127.0.0.1:4000/hook")).toBe(true);
    expect(urlMatches("http://127.0.0.1:*/hook", "http://127.0.0.1:4000/hook/x")).toBe(false);
    // A dot is a dot, not any character.
    expect(urlMatches("https://a.b/*", "https://aXb/x")).toBe(false);
    expect(urlMatches("https://a.b/x", "https://a.b/x?y")).toBe(false);
  });
});

describe("a prompt or agent hook's answer", () => {
  it("puts the payload where $ARGUMENTS is, or after the prompt", () => {
    expect(judgePrompt("Check $ARGUMENTS now; $ARGUMENTS", "{}")).toBe("Check {} now; {}");
    expect(judgePrompt("Check it", '{"a":1}')).toContain('{"a":1}');
  });

  it("reads {ok, reason} (in a fence too) as continue or block", () => {
    expect(judgedDecision('{"ok": true}', "prompt")).toEqual({ action: "continue" });
    expect(judgedDecision('```json\n{"ok": false, "reason": "tests fail"}\n```', "agent")).toEqual({
      action: "block",
      reason: "tests fail",
    });
    expect(judgedDecision('Sure. {"ok": false}', "prompt")).toMatchObject({ action: "block" });
  });

  it("is a failure when it is not an answer, never a silent continue", () => {
    expect(judgedDecision("looks fine to me", "prompt").action).toBe("failed");
    expect(judgedDecision('{"ok": "yes"}', "prompt").action).toBe("failed");
    expect(judgedDecision("{ not json }", "agent").action).toBe("failed");
  });

  it("reads another dialect's answer as that dialect", () => {
    expect(judgedDecision('{"decision": "block", "reason": "no"}', "prompt")).toMatchObject({
      action: "block",
      reason: "no",
    });
  });
});

describe("an mcp_tool hook's input", () => {
  const payload = { tool_input: { file_path: "/p/a.ts", n: { deep: 1 } }, session_id: "s1" };

  it("is the payload when the hook gives none", () => {
    expect(mcpToolInput(undefined, payload)).toEqual(payload);
  });

  it("fills ${path} placeholders from the payload; a whole placeholder keeps the value's type", () => {
    const input = {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code's placeholder syntax
      path: "${tool_input.file_path}",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code's placeholder syntax
      note: "session ${session_id} on ${missing.field}",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code's placeholder syntax
      nested: ["${tool_input.n}"],
    };
    expect(mcpToolInput(input, payload)).toEqual({
      path: "/p/a.ts",
      note: "session s1 on ",
      nested: [{ deep: 1 }],
    });
  });

  it("keeps a __proto__ key as plain data", () => {
    const input = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    const out = mcpToolInput(input, payload);
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
