/**
 * Which hooks run for an agent event, and in what order (hooks.md §5):
 * priority high→low, then user before project, then name, then id — a total
 * order, so the same set of hooks always gives the same decision.
 */
import type { AgentEvent, AgentEventType } from "../agent/events.js";
import type { HookDefinition, HookEventName } from "./definition.js";
import type { MatchSubject } from "./match.js";
import type { GateState } from "./payload.js";

/** Agent events that reach hooks; every other agent event passes through with no hook work. */
export const HOOK_EVENT_OF: Readonly<Partial<Record<AgentEventType, HookEventName>>> = {
  session_start: "session_start",
  user_prompt: "user_prompt",
  model_request: "before_model",
  model_response: "after_model",
  tool_call_start: "before_tool",
  tool_call_end: "after_tool",
  tool_call_error: "after_tool_failure",
  stop_request: "before_stop",
  turn_end: "after_agent",
  notification: "notification",
  session_end: "session_end",
};

/** Their hooks run concurrently; they cannot block or modify, only observe and add context. */
export const OBSERVE_ONLY: ReadonlySet<HookEventName> = new Set([
  "after_tool_failure",
  "after_agent",
  "notification",
  "session_end",
]);

const SCOPE_RANK = { user: 0, project: 1 } as const;

export function compareHooks(a: HookDefinition, b: HookDefinition): number {
  if (a.priority !== b.priority) return b.priority - a.priority;
  if (a.scope !== b.scope) return SCOPE_RANK[a.scope] - SCOPE_RANK[b.scope];
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  if (a.id !== b.id) return a.id < b.id ? -1 : 1;
  return 0;
}

/** Hooks per event, each list in run order. Built once per interceptor. */
export function indexHooks(
  hooks: readonly HookDefinition[],
): ReadonlyMap<HookEventName, readonly HookDefinition[]> {
  const index = new Map<HookEventName, HookDefinition[]>();
  for (const hook of hooks) {
    for (const event of new Set(hook.events)) {
      const list = index.get(event);
      if (list) list.push(hook);
      else index.set(event, [hook]);
    }
  }
  for (const list of index.values()) list.sort(compareHooks);
  return index;
}

/** What matchers see for this event, with the input as modified by earlier hooks. */
export function matchSubject(
  event: HookEventName,
  agentEvent: AgentEvent,
  state: GateState = {},
): MatchSubject {
  switch (agentEvent.type) {
    case "tool_call_start":
      return {
        event,
        toolName: agentEvent.toolName,
        toolInput: "toolInput" in state ? state.toolInput : agentEvent.input,
      };
    case "tool_call_end":
    case "tool_call_error":
      return { event, toolName: agentEvent.toolName, toolInput: agentEvent.input };
    case "session_start":
      return { event, source: agentEvent.source };
    case "notification":
      return { event, source: agentEvent.notificationType };
    default:
      return { event };
  }
}
