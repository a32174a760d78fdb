/**
 * The JSON a hook receives on stdin (hooks.md §3).
 *
 * Dialect "acai" (executables, settings hooks): Claude Code's field names, so
 * its hooks run unchanged, plus acai's `event`.
 *
 * Dialect "agenthooks" (HOOK.md hooks): the Agent Hooks spec's base fields —
 * `event_type` (in the spelling of the hook's `trigger`: the spec renamed its
 * events, `before_tool` → `pre-tool-call`, and hooks exist in both; without
 * one, the spec's current name, or acai's where the spec has none), `timestamp`, `session_id`, `work_dir`, `context: {}` —
 * plus the same per-event fields as "acai" (`tool_name`, `tool_input`,
 * `tool_use_id`, `prompt`, …), and the spec's own where it has them:
 * before_stop/after_agent `stop_reason`, `step_count`, `final_message`;
 * session_end `exit_reason`, `duration_seconds`. `event` (acai's name) is sent too.
 *
 * Inside a subagent (the Task tool) both dialects also get `agent_id` and
 * `agent_type` (Claude Code's names).
 */
import type { AgentEvent } from "../../agent/events.js";
import type { HookDialect } from "./definition.js";
import { type Payload, subagentFields } from "./events/fields.js";
import {
  agentHooksEventName,
  CLAUDE_EVENT_NAMES,
  HOOK_EVENT_OF,
  normalizeAgentHooksEventName,
} from "./events/names.js";
import { eventRow, type HookEventName } from "./events/table.js";
import type { GateState } from "./gate-state.js";
import { geminiPayload, geminiTrigger } from "./gemini-payload.js";

export type { Payload } from "./events/fields.js";
export type { GateState } from "./gate-state.js";

export interface SessionInfo {
  sessionId: string;
  transcriptPath: string;
  /** The agent's working directory (the project root). */
  cwd: string;
  /** When session_start was seen (epoch ms), for `duration_seconds` and `session_started_at`. */
  startedAt?: number;
  /** The session's permission mode (`permission_mode`); none: not sent. */
  permissionMode?: string;
  /** This agent's name (`--name`), sent as `agent_name`. */
  agentName?: string;
  /** The project root's folder name, sent as `project_name`. */
  projectName?: string;
}

/** agent-relay's context (issue 11): `agent_name`, `project_name`, `session_started_at`, those known. */
function relayContext(session: SessionInfo): Payload {
  return {
    ...(session.agentName === undefined ? {} : { agent_name: session.agentName }),
    ...(session.projectName === undefined ? {} : { project_name: session.projectName }),
    ...(session.startedAt === undefined
      ? {}
      : { session_started_at: new Date(session.startedAt).toISOString() }),
  };
}

export interface PayloadArgs {
  event: HookEventName;
  agentEvent: AgentEvent;
  state?: GateState;
  session: SessionInfo;
  dialect: HookDialect;
  /**
   * The event's name as the hook's definition spelled it (`HookDefinition.trigger`): a HOOK.md
   * hook's `event_type`; a settings hook's Gemini CLI name (gemini-payload.ts).
   */
  trigger?: string | undefined;
  /** Epoch ms. */
  now: number;
}

/** `event_type` for an Agent Hooks hook: its trigger's spelling when that names this event. */
function agentHooksEventType(event: HookEventName, trigger: string | undefined): string {
  if (trigger !== undefined && normalizeAgentHooksEventName(trigger) === event) return trigger;
  return agentHooksEventName(event);
}

export function buildPayload(args: PayloadArgs): Payload {
  // The fields are those of the agent event given (its row's builders).
  const from = HOOK_EVENT_OF[args.agentEvent.type];
  const row = from === undefined ? undefined : eventRow(from);
  const fields = {
    ...subagentFields(args.agentEvent),
    ...row?.fields(args.agentEvent, args.state ?? {}),
  };
  const timestamp = new Date(args.now).toISOString();
  if (args.dialect === "agenthooks") {
    const at = {
      now: args.now,
      ...(args.session.startedAt === undefined ? {} : { startedAt: args.session.startedAt }),
    };
    return {
      event: args.event,
      event_type: agentHooksEventType(args.event, args.trigger),
      timestamp,
      session_id: args.session.sessionId,
      work_dir: args.session.cwd,
      transcript_path: args.session.transcriptPath,
      context: {},
      ...relayContext(args.session),
      ...fields,
      ...row?.agentHooksExtras?.(args.agentEvent, at),
    };
  }
  // Claude Code's order (its common fields, then the event's), acai's own after.
  const payload: Payload = {
    session_id: args.session.sessionId,
    transcript_path: args.session.transcriptPath,
    cwd: args.session.cwd,
    ...(args.session.permissionMode === undefined
      ? {}
      : { permission_mode: args.session.permissionMode }),
    hook_event_name: CLAUDE_EVENT_NAMES[args.event],
    ...fields,
    // file_changed's own `event` is Claude Code's (add | change | unlink); its name stays in hook_event_name.
    ...("event" in fields ? {} : { event: args.event }),
    timestamp,
  };
  for (const [key, value] of Object.entries(relayContext(args.session))) {
    if (!(key in payload)) payload[key] = value;
  }
  // A settings hook under one of Gemini CLI's own names gets Gemini's spelling (gemini-payload.ts).
  const gemini = geminiTrigger(args.event, args.trigger);
  return gemini === undefined ? payload : geminiPayload(gemini, payload);
}
