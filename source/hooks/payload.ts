/**
 * The JSON a hook receives on stdin (hooks.md §3).
 *
 * Dialect "acai" (executables, settings hooks): Claude Code's field names, so
 * its hooks run unchanged, plus acai's `event`.
 *
 * Dialect "agenthooks" (HOOK.md hooks): the Agent Hooks spec's base fields —
 * `event_type` (the spec's name: pre-tool-call, post-tool-call, …; acai's name
 * where the spec has none), `timestamp`, `session_id`, `work_dir`, `context: {}` —
 * plus the same per-event fields as "acai" (`tool_name`, `tool_input`,
 * `tool_use_id`, `prompt`, …), and the spec's own where it has them:
 * before_stop/after_agent `stop_reason`, `step_count`, `final_message`;
 * session_end `exit_reason`, `duration_seconds`. `event` (acai's name) is sent too.
 */
import type { AgentEvent, ToolCallSummary, Usage } from "../agent/events.js";
import { CLAUDE_EVENT_NAMES, type HookDialect, type HookEventName } from "./definition.js";

export interface SessionInfo {
  sessionId: string;
  transcriptPath: string;
  /** The agent's working directory (the project root). */
  cwd: string;
  /** When session_start was seen (epoch ms), for `duration_seconds`. */
  startedAt?: number;
}

/** The values earlier hooks of the same chain may have replaced. */
export interface GateState {
  toolInput?: unknown;
  prompt?: string;
  output?: string;
}

export interface PayloadArgs {
  event: HookEventName;
  agentEvent: AgentEvent;
  state?: GateState;
  session: SessionInfo;
  dialect: HookDialect;
  /** Epoch ms. */
  now: number;
}

export type Payload = Record<string, unknown>;

/** Agent Hooks spec event names; events the spec lacks keep acai's name. */
export const AGENT_HOOKS_EVENT_NAMES: Record<HookEventName, string> = {
  session_start: "pre-session",
  user_prompt: "pre-agent-turn",
  before_model: "before_model",
  after_model: "after_model",
  before_tool: "pre-tool-call",
  after_tool: "post-tool-call",
  after_tool_failure: "post-tool-call-failure",
  before_stop: "pre-agent-turn-stop",
  after_agent: "post-agent-turn",
  notification: "notification",
  session_end: "post-session",
};

export function buildPayload(args: PayloadArgs): Payload {
  const fields = eventFields(args.agentEvent, args.state ?? {});
  const timestamp = new Date(args.now).toISOString();
  if (args.dialect === "agenthooks") {
    return {
      event: args.event,
      event_type: AGENT_HOOKS_EVENT_NAMES[args.event],
      timestamp,
      session_id: args.session.sessionId,
      work_dir: args.session.cwd,
      transcript_path: args.session.transcriptPath,
      context: {},
      ...fields,
      ...agentHooksExtras(args),
    };
  }
  return {
    event: args.event,
    hook_event_name: CLAUDE_EVENT_NAMES[args.event],
    session_id: args.session.sessionId,
    transcript_path: args.session.transcriptPath,
    cwd: args.session.cwd,
    timestamp,
    ...fields,
  };
}

function usageFields(usage: Usage): Payload {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    total_tokens: usage.totalTokens,
  };
}

function toolCallFields(call: ToolCallSummary): Payload {
  return { tool_use_id: call.toolCallId, tool_name: call.toolName, tool_input: call.input };
}

/** Per-event fields, Claude Code's names. */
function eventFields(ev: AgentEvent, state: GateState): Payload {
  switch (ev.type) {
    case "session_start":
      return { source: ev.source, model: ev.model };
    case "user_prompt":
      return { prompt: state.prompt ?? ev.prompt, turn: ev.turn };
    case "model_request":
      return { model: ev.model, step: ev.step, turn: ev.turn };
    case "model_response":
      return {
        model: ev.model,
        step: ev.step,
        turn: ev.turn,
        text: ev.text,
        tool_calls: ev.toolCalls.map(toolCallFields),
        usage: usageFields(ev.usage),
        finish_reason: ev.finishReason,
        duration_ms: ev.durationMs,
      };
    case "tool_call_start":
      return {
        tool_name: ev.toolName,
        tool_input: "toolInput" in state ? state.toolInput : ev.input,
        tool_use_id: ev.toolCallId,
      };
    case "tool_call_end":
      return {
        tool_name: ev.toolName,
        tool_input: ev.input,
        tool_use_id: ev.toolCallId,
        tool_response: ev.response ?? ev.output,
        /** The text the model will see (as replaced by earlier hooks). */
        tool_output: state.output ?? ev.output,
        duration_ms: ev.durationMs,
      };
    case "tool_call_error":
      return {
        tool_name: ev.toolName,
        tool_input: ev.input,
        tool_use_id: ev.toolCallId,
        error: ev.error,
        is_interrupt: ev.interrupted,
        is_blocked: ev.blocked,
        duration_ms: ev.durationMs,
      };
    case "stop_request":
      return {
        stop_hook_active: ev.stopHookActive,
        last_assistant_message: ev.lastAssistantMessage,
        step: ev.step,
        turn: ev.turn,
      };
    case "turn_end":
      return {
        turn: ev.turn,
        stop_reason: ev.stopReason,
        last_assistant_message: ev.text,
        usage: usageFields(ev.usage),
        ...(ev.message === undefined ? {} : { message: ev.message }),
      };
    case "notification":
      return { message: ev.message, notification_type: ev.notificationType };
    case "session_end":
      return { reason: ev.reason };
    case "turn_start":
    case "step_start":
    case "text_delta":
    case "step_end":
    case "warning":
    case "error":
      return {};
    default:
      return ev satisfies never;
  }
}

function agentHooksExtras(args: PayloadArgs): Payload {
  const ev = args.agentEvent;
  switch (ev.type) {
    case "stop_request":
      return {
        stop_reason: "no_tool_calls",
        step_count: ev.step,
        final_message: { role: "assistant", content: ev.lastAssistantMessage },
      };
    case "turn_end":
      return {
        ...(ev.steps === undefined ? {} : { step_count: ev.steps }),
        final_message: { role: "assistant", content: ev.text },
      };
    case "session_end":
      return {
        exit_reason: ev.reason,
        ...(args.session.startedAt === undefined
          ? {}
          : { duration_seconds: Math.round((args.now - args.session.startedAt) / 1000) }),
      };
    default:
      return {};
  }
}
