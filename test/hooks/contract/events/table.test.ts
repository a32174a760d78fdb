/** The events table's invariants: every other module reads it, so its rows must agree with each other. */
import { describe, expect, it } from "vitest";
import {
  AGENT_HOOKS_TRIGGERS,
  agentHooksEventName,
  CLAUDE_EVENT_NAMES,
  GEMINI_EVENTS,
  geminiOnlyNames,
  HOOK_EVENT_OF,
  normalizeAgentHooksEventName,
  normalizeEventName,
} from "../../../../source/hooks/contract/events/names.js";
import { eventRow, HOOK_EVENTS } from "../../../../source/hooks/contract/events/table.js";

describe("the events table", () => {
  it("maps each agent event to at most one hook event, and every hook event to its agent event", () => {
    const agentEvents = HOOK_EVENTS.map((event) => eventRow(event).agentEvent);
    expect(new Set(agentEvents).size).toBe(HOOK_EVENTS.length);
    for (const event of HOOK_EVENTS) expect(HOOK_EVENT_OF[eventRow(event).agentEvent]).toBe(event);
  });

  it("names every event once in each dialect, and reads every spelling back", () => {
    const claude = HOOK_EVENTS.map((event) => CLAUDE_EVENT_NAMES[event]);
    expect(new Set(claude).size).toBe(HOOK_EVENTS.length);
    for (const event of HOOK_EVENTS) {
      expect(normalizeEventName(event)).toBe(event);
      expect(normalizeEventName(CLAUDE_EVENT_NAMES[event])).toBe(event);
      expect(normalizeAgentHooksEventName(agentHooksEventName(event))).toBe(event);
    }
    for (const [name, event] of Object.entries(AGENT_HOOKS_TRIGGERS)) {
      expect(normalizeAgentHooksEventName(name)).toBe(event);
      // A spec name never shadows another event's own name.
      if (normalizeEventName(name) !== undefined) expect(normalizeEventName(name)).toBe(event);
    }
  });

  it("reads Gemini CLI's names as the acai events they mean, a name Claude Code shares meaning the same", () => {
    expect(GEMINI_EVENTS).toEqual({
      SessionStart: "session_start",
      BeforeAgent: "user_prompt",
      BeforeModel: "before_model",
      BeforeToolSelection: "before_model",
      AfterModel: "after_model",
      BeforeTool: "before_tool",
      AfterTool: "after_tool",
      AfterAgent: "before_stop",
      Notification: "notification",
      PreCompress: "pre_compact",
      SessionEnd: "session_end",
    });
    for (const [name, event] of Object.entries(GEMINI_EVENTS)) {
      expect(normalizeEventName(name)).toBe(event);
      // Never acai's own name of another event, nor Claude Code's name of another event.
      if (name in CLAUDE_EVENT_NAMES) expect(name).toBe(event);
      const claudeOf = HOOK_EVENTS.find((e) => CLAUDE_EVENT_NAMES[e] === name);
      if (claudeOf !== undefined) expect(claudeOf).toBe(event);
    }
    expect(geminiOnlyNames()).toEqual([
      "BeforeAgent",
      "BeforeModel",
      "BeforeToolSelection",
      "AfterModel",
      "BeforeTool",
      "AfterTool",
      "AfterAgent",
      "PreCompress",
    ]);
    // Gemini events acai lacks, and near misses, stay unknown.
    expect(normalizeEventName("BeforeTools")).toBeUndefined();
    expect(normalizeEventName("beforeTool")).toBeUndefined();
    expect(normalizeEventName("hasOwnProperty")).toBeUndefined();
  });

  it("lets only gates block, modify, ask, skip or retry; observe-only events honour stop at most", () => {
    for (const event of HOOK_EVENTS) {
      const row = eventRow(event);
      if (event === "permission_request") {
        // Its hooks allow or deny for the user; an ask is no decision (the user is asked).
        expect(row.honours).toEqual(["block", "allow", "modify", "skip", "stop"]);
      } else if (event === "after_tool_batch") {
        // Claude Code's PostToolBatch: a block ends the turn; nothing of the calls to change or ask.
        expect(row.honours).toEqual(["block", "stop"]);
      } else if (event === "permission_denied") {
        // Claude Code's PermissionDenied: the call stays denied; retry tells the model it may try again.
        expect(row.honours).toEqual(["retry"]);
      } else if (event === "config_change") {
        // Claude Code's ConfigChange: a block keeps the session's settings; nothing else to say.
        expect(row.honours).toEqual(["block"]);
      } else if (event === "pattern") {
        // A pattern handler answers (context) or skips the handlers after it; nothing to block.
        expect(row.honours).toEqual(["skip"]);
      } else if (row.kind === "gate") {
        expect(row.honours).toEqual(
          expect.arrayContaining(["block", "modify", "ask", "skip", "stop"]),
        );
      } else {
        expect(row.honours.filter((answer) => answer !== "stop")).toEqual([]);
        expect(row.changes).toEqual([]);
      }
    }
    expect(HOOK_EVENTS.filter((event) => eventRow(event).honours.includes("retry"))).toEqual([
      "before_model",
      "permission_denied",
    ]);
    expect(
      HOOK_EVENTS.filter(
        (event) => eventRow(event).honours.includes("stop") && eventRow(event).kind === "observe",
      ),
    ).toEqual(["after_agent"]);
  });

  it("gives tool subjects to the tool events only, and each change to the event that carries it", () => {
    const toolEvents = HOOK_EVENTS.filter((event) => eventRow(event).subject === "tool");
    expect(toolEvents.map((event) => eventRow(event).agentEvent).sort()).toEqual([
      "permission_denied",
      "permission_request",
      "tool_call_end",
      "tool_call_error",
      "tool_call_start",
    ]);
    expect(HOOK_EVENTS.filter((event) => eventRow(event).honours.includes("allow")).sort()).toEqual(
      ["before_tool", "permission_request"],
    );
    expect(HOOK_EVENTS.filter((event) => eventRow(event).honours.includes("defer"))).toEqual([
      "before_tool",
    ]);
    const changes = Object.fromEntries(
      HOOK_EVENTS.filter((event) => eventRow(event).changes.length > 0).map((event) => [
        event,
        eventRow(event).changes,
      ]),
    );
    expect(changes).toEqual({
      user_prompt: ["prompt"],
      // The turn's prompt in the conversation (A3S GenerateStart's modified); this one
      // request (llm_request), or an answer in place of the model (llm_response).
      before_model: ["prompt", "request", "response"],
      // The text kept (llm_response), tool calls dropped before they run.
      after_model: ["response", "tool_calls"],
      before_tool: ["input"],
      permission_request: ["input"],
      // One follow-up call (Gemini's tailToolCallRequest), through every gate.
      after_tool: ["output", "follow_up"],
      // The text the model gets for the message.
      message_received: ["prompt"],
      // The text of a message to another agent, before it goes out (OpenClaw's message-sending).
      before_message_send: ["prompt"],
    });
  });

  it("says what a block does on every event, and runs only session_end's async hooks inline", () => {
    for (const event of HOOK_EVENTS) expect(eventRow(event).onBlock).not.toBe("");
    expect(HOOK_EVENTS.filter((event) => eventRow(event).asyncHooks === "inline")).toEqual([
      "session_end",
    ]);
    expect(HOOK_EVENTS.filter((event) => eventRow(event).plainStdoutIsContext)).toEqual([
      "session_start",
      "user_prompt",
      "pattern",
    ]);
  });
});
