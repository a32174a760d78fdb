import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../source/agent/events.js";
import type { HookEventName } from "../../../source/hooks/contract/definition.js";
import { buildPayload, type SessionInfo } from "../../../source/hooks/contract/payload.js";

const session: SessionInfo = {
  sessionId: "s1",
  transcriptPath: "/t/s1.jsonl",
  cwd: "/proj",
  startedAt: Date.parse("2026-01-01T00:00:00.000Z"),
};
const now = Date.parse("2026-01-01T00:01:00.000Z");
const usage = { inputTokens: 1, outputTokens: 2, totalTokens: 3 };

const rows: [HookEventName, AgentEvent, Record<string, unknown>][] = [
  [
    "session_start",
    {
      type: "session_start",
      sessionId: "s1",
      model: "m",
      cwd: "/proj",
      transcriptPath: "/t",
      source: "startup",
    },
    { hook_event_name: "SessionStart", source: "startup", model: "m" },
  ],
  [
    "user_prompt",
    { type: "user_prompt", turn: 1, prompt: "hello" },
    { hook_event_name: "UserPromptSubmit", prompt: "hello" },
  ],
  [
    "before_model",
    { type: "model_request", turn: 1, step: 2, model: "m" },
    { hook_event_name: "before_model", model: "m", step: 2 },
  ],
  [
    "after_model",
    {
      type: "model_response",
      turn: 1,
      step: 1,
      model: "m",
      text: "hi",
      toolCalls: [{ toolCallId: "c1", toolName: "Bash", input: { command: "ls" } }],
      usage,
      finishReason: "tool-calls",
      durationMs: 12,
    },
    {
      hook_event_name: "after_model",
      text: "hi",
      tool_calls: [{ tool_use_id: "c1", tool_name: "Bash", tool_input: { command: "ls" } }],
      usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
      finish_reason: "tool-calls",
      duration_ms: 12,
    },
  ],
  [
    "before_tool",
    {
      type: "tool_call_start",
      turn: 1,
      step: 1,
      toolCallId: "c1",
      toolName: "Bash",
      input: { command: "ls" },
    },
    {
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "ls" },
      tool_use_id: "c1",
    },
  ],
  [
    "after_tool",
    {
      type: "tool_call_end",
      turn: 1,
      step: 1,
      toolCallId: "c1",
      toolName: "Bash",
      input: { command: "ls" },
      output: "a\n",
      response: { stdout: "a\n", stderr: "", exit_code: 0, interrupted: false },
      durationMs: 5,
    },
    {
      hook_event_name: "PostToolUse",
      tool_response: { stdout: "a\n", stderr: "", exit_code: 0, interrupted: false },
      tool_output: "a\n",
      duration_ms: 5,
    },
  ],
  [
    "after_tool_failure",
    {
      type: "tool_call_error",
      turn: 1,
      step: 1,
      toolCallId: "c1",
      toolName: "Bash",
      input: {},
      error: "boom",
      interrupted: true,
      blocked: false,
      durationMs: 1,
    },
    { hook_event_name: "PostToolUseFailure", error: "boom", is_interrupt: true },
  ],
  [
    "before_stop",
    {
      type: "stop_request",
      turn: 1,
      step: 3,
      lastAssistantMessage: "done",
      stopHookActive: true,
      consecutiveBlocks: 1,
    },
    { hook_event_name: "Stop", stop_hook_active: true, last_assistant_message: "done" },
  ],
  [
    "after_agent",
    { type: "turn_end", turn: 1, stopReason: "end_turn", text: "done", usage },
    { hook_event_name: "after_agent", stop_reason: "end_turn" },
  ],
  [
    "notification",
    { type: "notification", message: "waiting", notificationType: "idle_prompt" },
    { hook_event_name: "Notification", message: "waiting", notification_type: "idle_prompt" },
  ],
  [
    "session_end",
    { type: "session_end", reason: "completed" },
    { hook_event_name: "SessionEnd", reason: "completed" },
  ],
];

describe("stdin payloads", () => {
  it.each(rows)("acai dialect: %s", (event, agentEvent, expected) => {
    const payload = buildPayload({ event, agentEvent, session, dialect: "acai", now });
    expect(payload).toMatchObject({
      event,
      session_id: "s1",
      transcript_path: "/t/s1.jsonl",
      cwd: "/proj",
      timestamp: "2026-01-01T00:01:00.000Z",
      ...expected,
    });
    expect(JSON.parse(JSON.stringify(payload))).toEqual(payload);
  });

  it("shows the input as modified by earlier hooks", () => {
    const agentEvent: AgentEvent = {
      type: "tool_call_start",
      turn: 1,
      step: 1,
      toolCallId: "c1",
      toolName: "Bash",
      input: { command: "ls" },
    };
    const payload = buildPayload({
      event: "before_tool",
      agentEvent,
      state: { toolInput: { command: "ls -la" } },
      session,
      dialect: "acai",
      now,
    });
    expect(payload.tool_input).toEqual({ command: "ls -la" });
  });

  it("agenthooks dialect uses that spec's names", () => {
    const tool = buildPayload({
      event: "before_tool",
      agentEvent: rows[4]![1],
      session,
      dialect: "agenthooks",
      now,
    });
    expect(tool).toMatchObject({
      event_type: "pre-tool-call",
      work_dir: "/proj",
      session_id: "s1",
      timestamp: "2026-01-01T00:01:00.000Z",
      context: {},
      tool_name: "Bash",
      tool_input: { command: "ls" },
      tool_use_id: "c1",
    });
    expect(tool.hook_event_name).toBeUndefined();
    const stop = buildPayload({
      event: "before_stop",
      agentEvent: rows[7]![1],
      session,
      dialect: "agenthooks",
      now,
    });
    expect(stop).toMatchObject({
      event_type: "pre-agent-turn-stop",
      step_count: 3,
      final_message: { role: "assistant", content: "done" },
    });
    const afterAgent = buildPayload({
      event: "after_agent",
      agentEvent: { ...(rows[8]![1] as Extract<AgentEvent, { type: "turn_end" }>), steps: 3 },
      session,
      dialect: "agenthooks",
      now,
    });
    expect(afterAgent).toMatchObject({
      event_type: "post-agent-turn",
      stop_reason: "end_turn",
      step_count: 3,
      final_message: { role: "assistant", content: "done" },
    });
    const end = buildPayload({
      event: "session_end",
      agentEvent: rows[10]![1],
      session,
      dialect: "agenthooks",
      now,
    });
    expect(end).toMatchObject({
      event_type: "post-session",
      exit_reason: "completed",
      duration_seconds: 60,
    });
  });

  it("agenthooks event_type is spelled as the hook's trigger was", () => {
    const eventType = (event: "before_tool" | "user_prompt", trigger?: string) =>
      buildPayload({
        event,
        agentEvent: rows[event === "before_tool" ? 4 : 1]![1],
        session,
        dialect: "agenthooks",
        trigger,
        now,
      }).event_type;
    expect(eventType("before_tool", "before_tool")).toBe("before_tool");
    expect(eventType("before_tool", "pre-tool-call")).toBe("pre-tool-call");
    expect(eventType("before_tool", "PreToolUse")).toBe("PreToolUse");
    expect(eventType("user_prompt", "before_agent")).toBe("before_agent");
    expect(eventType("before_tool")).toBe("pre-tool-call");
    // A trigger naming another event is not this event's spelling.
    expect(eventType("before_tool", "post-tool-call")).toBe("pre-tool-call");
  });
});

describe("payloads inside a subagent", () => {
  const inside: AgentEvent = {
    type: "tool_call_start",
    turn: 1,
    step: 1,
    toolCallId: "c9",
    toolName: "Bash",
    input: { command: "ls" },
    agentId: "agent-7",
    agentType: "reviewer",
  };

  it("every event raised inside one carries agent_id and agent_type, in both dialects", () => {
    for (const dialect of ["acai", "agenthooks"] as const) {
      const payload = buildPayload({
        event: "before_tool",
        agentEvent: inside,
        session,
        dialect,
        now,
      });
      expect(payload).toMatchObject({
        agent_id: "agent-7",
        agent_type: "reviewer",
        tool_name: "Bash",
      });
      // The session's own identity stays.
      expect(payload.session_id).toBe("s1");
    }
  });

  it("the session's own events have neither", () => {
    const { agentId: _id, agentType: _type, ...own } = inside;
    const payload = buildPayload({
      event: "before_tool",
      agentEvent: own,
      session,
      dialect: "acai",
      now,
    });
    expect(payload).not.toHaveProperty("agent_id");
    expect(payload).not.toHaveProperty("agent_type");
  });

  it("subagent_start and subagent_stop send Claude Code's and the Agent Hooks spec's fields", () => {
    const start = buildPayload({
      event: "subagent_start",
      agentEvent: {
        type: "subagent_start",
        agentId: "agent-7",
        agentType: "reviewer",
        description: "review auth",
        prompt: "Review the auth module",
        toolCallId: "t1",
        depth: 1,
      },
      session,
      dialect: "agenthooks",
      now,
    });
    expect(start).toMatchObject({
      event_type: "subagent_start",
      agent_id: "agent-7",
      agent_type: "reviewer",
      subagent_name: "reviewer",
      subagent_type: "reviewer",
      task_description: "review auth",
    });
    const stop = buildPayload({
      event: "subagent_stop",
      agentEvent: {
        type: "subagent_stop",
        agentId: "agent-7",
        agentType: "reviewer",
        turn: 1,
        step: 3,
        lastAssistantMessage: "done",
        stopHookActive: true,
        consecutiveBlocks: 1,
        agentTranscriptPath: "/t/s1/subagents/agent-agent-7.jsonl",
      },
      session,
      dialect: "acai",
      now,
    });
    expect(stop).toMatchObject({
      hook_event_name: "SubagentStop",
      stop_hook_active: true,
      last_assistant_message: "done",
      agent_transcript_path: "/t/s1/subagents/agent-agent-7.jsonl",
    });
  });
});

describe("the acai dialect's key order", () => {
  it("is Claude Code's: its common fields, hook_event_name, the event's fields, then acai's own", () => {
    const payload = buildPayload({
      event: "before_tool",
      agentEvent: {
        type: "tool_call_start",
        toolCallId: "c1",
        toolName: "Bash",
        input: { command: "ls" },
      } as AgentEvent,
      session: { ...session, permissionMode: "default", agentName: "bob" },
      dialect: "acai",
      now,
    });
    expect(Object.keys(payload)).toEqual([
      "session_id",
      "transcript_path",
      "cwd",
      "permission_mode",
      "hook_event_name",
      "tool_name",
      "tool_input",
      "tool_use_id",
      "event",
      "timestamp",
      "agent_name",
      "session_started_at",
    ]);
  });
});
