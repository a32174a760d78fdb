/**
 * Claude Code's stream-json messages of a subagent's events carry the Task
 * call they run under as `parent_tool_use_id`, as Claude Code's do; the
 * session's own agent's carry null. Events with no Claude Code counterpart
 * give none.
 */
import { describe, expect, it } from "vitest";
import { claudeMessagesOf, claudeShapeState } from "../../source/cli/claude-shapes.js";
import type { InterceptedEvent } from "../../source/hooks/run/activity.js";

const usage = { inputTokens: 1, outputTokens: 2, totalTokens: 3 };

describe("claudeMessagesOf", () => {
  it("a subagent's answer and tool result name the parent's Task call", () => {
    const state = claudeShapeState();
    const start: InterceptedEvent = {
      type: "session_start",
      sessionId: "s1",
      model: "m",
      cwd: "/p",
      transcriptPath: "/t",
      source: "startup",
    };
    expect(claudeMessagesOf(start, state)).toHaveLength(1);
    const subagent: InterceptedEvent = {
      type: "subagent_start",
      agentId: "a1",
      agentType: "general-purpose",
      description: "look",
      prompt: "look around",
      toolCallId: "call_task",
      depth: 1,
    };
    expect(claudeMessagesOf(subagent, state)).toEqual([]);
    const inside = { agentId: "a1", agentType: "general-purpose" };
    const [answer] = claudeMessagesOf(
      {
        type: "model_response",
        turn: 1,
        step: 1,
        model: "m",
        text: "",
        toolCalls: [{ toolCallId: "c9", toolName: "Glob", input: { pattern: "*" } }],
        usage,
        finishReason: "tool-calls",
        durationMs: 1,
        ...inside,
      },
      state,
    );
    expect(answer).toMatchObject({
      type: "assistant",
      parent_tool_use_id: "call_task",
      session_id: "s1",
      message: { content: [{ type: "tool_use", id: "c9", name: "Glob" }], stop_reason: "tool_use" },
    });
    const [result] = claudeMessagesOf(
      {
        type: "tool_call_end",
        turn: 1,
        step: 1,
        toolCallId: "c9",
        toolName: "Glob",
        input: { pattern: "*" },
        output: "a.txt",
        response: {},
        durationMs: 1,
        ...inside,
      },
      state,
    );
    expect(result).toEqual({
      type: "user",
      message: {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "c9", content: "a.txt" }],
      },
      parent_tool_use_id: "call_task",
      session_id: "s1",
    });
    // A subagent's own session_start is no second init.
    expect(claudeMessagesOf({ ...start, sessionId: "s2", ...inside }, state)).toEqual([]);
    expect(claudeMessagesOf({ type: "step_end", turn: 1, step: 1 }, state)).toEqual([]);
  });
});
