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
import type { AgentEvent } from "../agent/events.js";
import type { HookDialect } from "./definition.js";
import type { Payload } from "./events/fields.js";
import { agentHooksEventName, CLAUDE_EVENT_NAMES, HOOK_EVENT_OF } from "./events/names.js";
import { eventRow, type HookEventName } from "./events/table.js";
import type { GateState } from "./gate-state.js";

export type { Payload } from "./events/fields.js";
export type { GateState } from "./gate-state.js";

export interface SessionInfo {
  sessionId: string;
  transcriptPath: string;
  /** The agent's working directory (the project root). */
  cwd: string;
  /** When session_start was seen (epoch ms), for `duration_seconds`. */
  startedAt?: number;
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

export function buildPayload(args: PayloadArgs): Payload {
  // The fields are those of the agent event given (its row's builders).
  const from = HOOK_EVENT_OF[args.agentEvent.type];
  const row = from === undefined ? undefined : eventRow(from);
  const fields = row?.fields(args.agentEvent, args.state ?? {}) ?? {};
  const timestamp = new Date(args.now).toISOString();
  if (args.dialect === "agenthooks") {
    const at = {
      now: args.now,
      ...(args.session.startedAt === undefined ? {} : { startedAt: args.session.startedAt }),
    };
    return {
      event: args.event,
      event_type: agentHooksEventName(args.event),
      timestamp,
      session_id: args.session.sessionId,
      work_dir: args.session.cwd,
      transcript_path: args.session.transcriptPath,
      context: {},
      ...fields,
      ...row?.agentHooksExtras?.(args.agentEvent, at),
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
