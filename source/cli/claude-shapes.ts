/**
 * Claude Code's `-p --output-format stream-json` messages, for the acai
 * events that are the same thing: the session's start (`system`/`init`), a
 * model answer (`assistant`, its text and `tool_use` blocks) and a tool's
 * result (`user`, one `tool_result` block). `stream-json` prints them beside
 * acai's own event lines, so a script written for `claude -p` finds the
 * shapes it reads; the result line carries Claude Code's fields too
 * (print.ts). Pure: the printer keeps the state between events.
 */
import { fromSubagent } from "../agent/subagent-events.js";
import type { InterceptedEvent } from "../hooks/run/activity.js";

/** What the printer remembers between events: the session id, and each subagent's Task call. */
export interface ClaudeShapeState {
  sessionId: string;
  /** A subagent's `agentId` → the parent's Task call id (Claude Code's `parent_tool_use_id`). */
  taskCalls: Map<string, string>;
}

export function claudeShapeState(): ClaudeShapeState {
  return { sessionId: "", taskCalls: new Map() };
}

type ClaudeMessage = Record<string, unknown> & { type: "system" | "assistant" | "user" };

/** The Claude Code messages an event stands for (none for most), updating `state`. */
export function claudeMessagesOf(
  event: InterceptedEvent,
  state: ClaudeShapeState,
): ClaudeMessage[] {
  switch (event.type) {
    case "session_start":
      if (fromSubagent(event)) return [];
      state.sessionId = event.sessionId;
      return [
        {
          type: "system",
          subtype: "init",
          session_id: event.sessionId,
          cwd: event.cwd,
          model: event.model,
        },
      ];
    case "subagent_start":
      state.taskCalls.set(event.agentId, event.toolCallId);
      return [];
    case "model_response":
      return [assistantMessage(event, state)];
    case "tool_call_end":
      return [toolResult(event, state, { content: event.output, isError: false })];
    case "tool_call_error":
      return [toolResult(event, state, { content: event.error, isError: true })];
    default:
      return [];
  }
}

function assistantMessage(
  event: Extract<InterceptedEvent, { type: "model_response" }>,
  state: ClaudeShapeState,
): ClaudeMessage {
  const content = [
    ...(event.text === "" ? [] : [{ type: "text", text: event.text }]),
    ...event.toolCalls.map((call) => ({
      type: "tool_use",
      id: call.toolCallId,
      name: call.toolName,
      input: call.input,
    })),
  ];
  return {
    type: "assistant",
    message: {
      type: "message",
      role: "assistant",
      model: event.model,
      content,
      stop_reason: claudeStopReason(event.finishReason),
      usage: { input_tokens: event.usage.inputTokens, output_tokens: event.usage.outputTokens },
    },
    parent_tool_use_id: parentOf(event, state),
    session_id: state.sessionId,
  };
}

function toolResult(
  event: Extract<InterceptedEvent, { type: "tool_call_end" | "tool_call_error" }>,
  state: ClaudeShapeState,
  result: { content: string; isError: boolean },
): ClaudeMessage {
  return {
    type: "user",
    message: {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: event.toolCallId,
          content: result.content,
          ...(result.isError ? { is_error: true } : {}),
        },
      ],
    },
    parent_tool_use_id: parentOf(event, state),
    session_id: state.sessionId,
  };
}

function parentOf(event: InterceptedEvent, state: ClaudeShapeState): string | null {
  return fromSubagent(event) ? (state.taskCalls.get(event.agentId) ?? null) : null;
}

/** The AI SDK's finish reason in the Messages API's words. */
function claudeStopReason(finishReason: string): string {
  switch (finishReason) {
    case "stop":
      return "end_turn";
    case "tool-calls":
      return "tool_use";
    case "length":
      return "max_tokens";
    default:
      return finishReason;
  }
}
