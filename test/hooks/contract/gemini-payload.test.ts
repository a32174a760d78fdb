/**
 * Gemini CLI's payload spelling (gemini-payload.ts): only a Gemini-only name
 * that names the event switches it on; each Gemini tool name given is one the
 * matcher aliases accept for that built-in, so `tool_name` and a matcher agree.
 */
import { describe, expect, it } from "vitest";
import { toolNameSpellings } from "../../../source/hooks/contract/aliases.js";
import { geminiPayload, geminiTrigger } from "../../../source/hooks/contract/gemini-payload.js";

describe("Gemini CLI's payload", () => {
  it("is for a Gemini-only name of this very event", () => {
    expect(geminiTrigger("before_tool", "BeforeTool")).toBe("BeforeTool");
    expect(geminiTrigger("before_model", "BeforeToolSelection")).toBe("BeforeToolSelection");
    expect(geminiTrigger("after_tool", "BeforeTool")).toBeUndefined();
    // Shared with Claude Code, or not Gemini's at all: Claude Code's payload.
    expect(geminiTrigger("session_start", "SessionStart")).toBeUndefined();
    expect(geminiTrigger("before_tool", "pre-tool-call")).toBeUndefined();
    expect(geminiTrigger("before_tool", undefined)).toBeUndefined();
  });

  it.each(["Bash", "Read", "Write", "Edit", "Glob", "Grep"])(
    "names %s as Gemini does, a name its matchers accept, and keeps acai's",
    (tool) => {
      const out = geminiPayload("BeforeTool", { hook_event_name: "PreToolUse", tool_name: tool });
      expect(out.hook_event_name).toBe("BeforeTool");
      expect(out.tool_name).not.toBe(tool);
      expect(toolNameSpellings(tool)).toContain(out.tool_name);
      expect(out.acai_tool_name).toBe(tool);
    },
  );

  it("leaves other tools' names, and the payload it was given, as they are", () => {
    const payload = {
      tool_name: "mcp__s__t",
      llm_request: { messages: [{ role: "assistant", content: "x" }] },
    };
    const out = geminiPayload("BeforeTool", payload);
    expect(out.tool_name).toBe("mcp__s__t");
    expect(out.acai_tool_name).toBeUndefined();
    expect(out.llm_request).toEqual({ messages: [{ role: "model", content: "x" }] });
    expect(payload.llm_request.messages[0]?.role).toBe("assistant");
  });
});
