/**
 * What the builders of several events share (hooks.md §3, Claude Code's
 * names): usage, the prompt id, a tool call, the subagent mark. Each event's
 * own builder is in its module; payload.ts adds the common fields and the
 * dialect's names.
 */

import type { ToolCallSummary, Usage } from "../../../agent/event-data.js";
import type { AgentEvent, AgentEventType } from "../../../agent/events.js";

export type Payload = Record<string, unknown>;
export type AgentEventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;

/** What the Agent Hooks extras may need beyond the event: the clock and the session's start. */
export interface ExtrasContext {
  now: number;
  startedAt?: number;
}

export function usageFields(usage: Usage) {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    total_tokens: usage.totalTokens,
  };
}

/** `prompt_id`: the user prompt an event belongs to, the same on every event of its turn. */
export function promptIdField(ev: { promptId?: string }): { prompt_id?: string } {
  return ev.promptId === undefined ? {} : { prompt_id: ev.promptId };
}

export function toolCallFields(call: ToolCallSummary) {
  return { tool_use_id: call.toolCallId, tool_name: call.toolName, tool_input: call.input };
}

/**
 * A tool's input as the payload's `tool_input` states it (an object). The
 * agent passes the model's input on as it came; the schema says what hooks may
 * rely on, and acai sends it unchanged.
 */
export function toolInputField(input: unknown): Record<string, unknown> {
  return input as Record<string, unknown>;
}

/** Inside a subagent, every event's payload says whose it is (hooks.md §2): `agent_id`, `agent_type`. */
export function subagentFields(ev: { agentId?: string; agentType?: string }): Payload {
  return ev.agentId === undefined
    ? {}
    : { agent_id: ev.agentId, ...(ev.agentType === undefined ? {} : { agent_type: ev.agentType }) };
}
