/**
 * The per-event fields of a hook's stdin (hooks.md §3), Claude Code's names,
 * one builder per agent event; the table (table.ts) names the builder of each
 * hook event. The common fields and the dialect's names are added by
 * payload.ts.
 */
import type { AgentEvent, AgentEventType, ToolCallSummary, Usage } from "../../agent/events.js";
import type { GateState } from "../contract/gate-state.js";

export type Payload = Record<string, unknown>;
export type AgentEventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;

/** What the Agent Hooks extras may need beyond the event: the clock and the session's start. */
export interface ExtrasContext {
  now: number;
  startedAt?: number;
}

function usageFields(usage: Usage): Payload {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    total_tokens: usage.totalTokens,
  };
}

/** `prompt_id`: the user prompt an event belongs to, the same on every event of its turn. */
function promptIdField(ev: { promptId?: string }): Payload {
  return ev.promptId === undefined ? {} : { prompt_id: ev.promptId };
}

function toolCallFields(call: ToolCallSummary): Payload {
  return { tool_use_id: call.toolCallId, tool_name: call.toolName, tool_input: call.input };
}

export const sessionStartFields = (ev: AgentEventOf<"session_start">): Payload => ({
  source: ev.source,
  model: ev.model,
  ...(ev.modelProvider === undefined ? {} : { model_provider: ev.modelProvider }),
  ...(ev.sandbox === undefined ? {} : { sandbox: ev.sandbox }),
});

export const userPromptFields = (ev: AgentEventOf<"user_prompt">, state: GateState): Payload => ({
  prompt: state.prompt ?? ev.prompt,
  turn: ev.turn,
  ...promptIdField(ev),
});

export const modelRequestFields = (ev: AgentEventOf<"model_request">): Payload => ({
  model: ev.model,
  step: ev.step,
  turn: ev.turn,
  ...(ev.systemPrompt === undefined ? {} : { system_prompt: ev.systemPrompt }),
  ...(ev.availableTools === undefined ? {} : { available_tools: ev.availableTools }),
  ...(ev.messageCount === undefined ? {} : { message_count: ev.messageCount }),
  ...promptIdField(ev),
});

export const modelResponseFields = (ev: AgentEventOf<"model_response">): Payload => ({
  model: ev.model,
  step: ev.step,
  turn: ev.turn,
  text: ev.text,
  tool_calls: ev.toolCalls.map(toolCallFields),
  usage: usageFields(ev.usage),
  finish_reason: ev.finishReason,
  duration_ms: ev.durationMs,
  ...promptIdField(ev),
});

export const toolStartFields = (
  ev: AgentEventOf<"tool_call_start">,
  state: GateState,
): Payload => ({
  tool_name: ev.toolName,
  tool_input: "toolInput" in state ? state.toolInput : ev.input,
  tool_use_id: ev.toolCallId,
  ...promptIdField(ev),
});

/**
 * permission_request (Claude Code's PermissionRequest): the call, why the user
 * would be asked, and a rule that would allow it (`permission_suggestions`, in
 * Claude Code's shape).
 */
export const permissionRequestFields = (
  ev: AgentEventOf<"permission_request">,
  state: GateState,
): Payload => ({
  tool_name: ev.toolName,
  tool_input: "toolInput" in state ? state.toolInput : ev.input,
  tool_use_id: ev.toolCallId,
  reason: ev.reason,
  permission_suggestions: [
    {
      type: "addRules",
      rules: [ruleValue(ev.suggestion)],
      behavior: "allow",
      destination: "localSettings",
    },
  ],
  ...promptIdField(ev),
});

/** `Bash(npm test:*)` as Claude Code's `{toolName, ruleContent}`. */
function ruleValue(rule: string): Payload {
  const open = rule.indexOf("(");
  if (open === -1 || !rule.endsWith(")")) return { toolName: rule };
  return { toolName: rule.slice(0, open), ruleContent: rule.slice(open + 1, -1) };
}

export const toolEndFields = (ev: AgentEventOf<"tool_call_end">, state: GateState): Payload => ({
  tool_name: ev.toolName,
  tool_input: ev.input,
  tool_use_id: ev.toolCallId,
  tool_response: ev.response ?? ev.output,
  /** The text the model will see (as replaced by earlier hooks). */
  tool_output: state.output ?? ev.output,
  duration_ms: ev.durationMs,
  ...promptIdField(ev),
});

export const toolErrorFields = (ev: AgentEventOf<"tool_call_error">): Payload => ({
  tool_name: ev.toolName,
  tool_input: ev.input,
  tool_use_id: ev.toolCallId,
  error: ev.error,
  is_interrupt: ev.interrupted,
  is_blocked: ev.blocked,
  duration_ms: ev.durationMs,
  ...promptIdField(ev),
});

export const stopRequestFields = (ev: AgentEventOf<"stop_request">): Payload => ({
  stop_hook_active: ev.stopHookActive,
  last_assistant_message: ev.lastAssistantMessage,
  stop_reason: ev.stopReason ?? "end_turn",
  step: ev.step,
  turn: ev.turn,
  ...promptIdField(ev),
});

/** Agent Hooks' own fields for before_stop. */
export const stopRequestExtras = (ev: AgentEventOf<"stop_request">): Payload => ({
  // The spec's spelling of end_turn.
  stop_reason: (ev.stopReason ?? "end_turn") === "end_turn" ? "no_tool_calls" : ev.stopReason,
  step_count: ev.step,
  final_message: { role: "assistant", content: ev.lastAssistantMessage },
});

export const turnEndFields = (ev: AgentEventOf<"turn_end">): Payload => ({
  turn: ev.turn,
  stop_reason: ev.stopReason,
  last_assistant_message: ev.text,
  usage: usageFields(ev.usage),
  ...(ev.message === undefined ? {} : { message: ev.message }),
  ...promptIdField(ev),
});

/** Agent Hooks' own fields for after_agent. */
export const turnEndExtras = (ev: AgentEventOf<"turn_end">): Payload => ({
  ...(ev.steps === undefined ? {} : { step_count: ev.steps }),
  final_message: { role: "assistant", content: ev.text },
});

export const notificationFields = (ev: AgentEventOf<"notification">): Payload => ({
  message: ev.message,
  notification_type: ev.notificationType,
});

/** message_received: the message, and the text the model gets (as replaced by earlier hooks). */
export const messageReceivedFields = (
  ev: AgentEventOf<"message_received">,
  state: GateState,
): Payload => ({
  message_id: ev.message.id,
  from: ev.message.from,
  to: ev.message.to,
  content: ev.message.content,
  broadcast: ev.message.broadcast,
  sent_at: new Date(ev.message.sentAt).toISOString(),
  text: state.prompt ?? ev.message.text,
  agent_name: ev.message.to,
  turn: ev.turn,
});

export const messageSentFields = (ev: AgentEventOf<"message_sent">): Payload => ({
  from: ev.message.from,
  to: ev.message.to,
  content: ev.message.content,
  broadcast: ev.message.to === "*",
  delivered_to: ev.message.delivered,
  kept_for: ev.message.kept,
  agent_name: ev.message.from,
});

export const sessionEndFields = (ev: AgentEventOf<"session_end">): Payload => ({
  reason: ev.reason,
  ...(ev.totals === undefined
    ? {}
    : {
        total_steps: ev.totals.steps,
        total_tool_calls: ev.totals.toolCalls,
        usage: usageFields(ev.totals.usage),
        duration_ms: ev.totals.durationMs,
      }),
});

/** Agent Hooks' own fields for session_end. */
export const sessionEndExtras = (ev: AgentEventOf<"session_end">, at: ExtrasContext): Payload => ({
  exit_reason: ev.reason,
  ...(at.startedAt === undefined
    ? {}
    : { duration_seconds: Math.round((at.now - at.startedAt) / 1000) }),
});

/** Inside a subagent, every event's payload says whose it is (hooks.md §2): `agent_id`, `agent_type`. */
export function subagentFields(ev: { agentId?: string; agentType?: string }): Payload {
  return ev.agentId === undefined
    ? {}
    : { agent_id: ev.agentId, ...(ev.agentType === undefined ? {} : { agent_type: ev.agentType }) };
}

export const subagentStartFields = (ev: AgentEventOf<"subagent_start">): Payload => ({
  agent_id: ev.agentId,
  agent_type: ev.agentType,
  // The Agent Hooks spec's names for the same facts.
  subagent_name: ev.agentType,
  subagent_type: ev.agentType,
  task_description: ev.description,
  prompt: ev.prompt,
  tool_use_id: ev.toolCallId,
  depth: ev.depth,
});

export const subagentStopFields = (ev: AgentEventOf<"subagent_stop">): Payload => ({
  agent_id: ev.agentId,
  agent_type: ev.agentType,
  subagent_name: ev.agentType,
  subagent_type: ev.agentType,
  stop_hook_active: ev.stopHookActive,
  last_assistant_message: ev.lastAssistantMessage,
  agent_transcript_path: ev.agentTranscriptPath,
  step: ev.step,
  turn: ev.turn,
});

export const outputFields = (ev: AgentEventOf<"output">): Payload => ({
  text: ev.text,
  step: ev.step,
  turn: ev.turn,
  ...promptIdField(ev),
});

export const patternFields = (ev: AgentEventOf<"pattern">): Payload => ({
  namespace: ev.namespace,
  target: ev.target,
  message: ev.message,
  line: ev.line,
  step: ev.step,
  turn: ev.turn,
  ...promptIdField(ev),
});

export const idleFields = (ev: AgentEventOf<"idle">): Payload => ({
  idle_seconds: ev.idleSeconds,
});

export const compactStartFields = (ev: AgentEventOf<"compact_start">): Payload => ({
  trigger: ev.trigger,
  custom_instructions: ev.customInstructions,
  tokens_before: ev.tokensBefore,
  message_count: ev.messages,
});

export const compactEndFields = (ev: AgentEventOf<"compact_end">): Payload => ({
  trigger: ev.trigger,
  summary: ev.summary,
  tokens_before: ev.tokensBefore,
  tokens_after: ev.tokensAfter,
  messages_before: ev.messagesBefore,
  messages_after: ev.messagesAfter,
  usage: usageFields(ev.usage),
  duration_ms: ev.durationMs,
});
