/**
 * Which hooks run for an agent event, and in what order (hooks.md §5):
 * priority high→low, then user before project, then name, then id — a total
 * order, so the same set of hooks always gives the same decision.
 */
import type { AgentEvent, AgentEventType } from "../agent/events.js";
import type { HookEventName } from "./definition.js";
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

/** One ordering for everyone: the registry's and the interceptor's are the same function. */
export { compareHooks, indexHooksByEvent as indexHooks } from "./match.js";

/** What matchers see for this event, with the input as modified by earlier hooks. */
export function matchSubject(
  event: HookEventName,
  agentEvent: AgentEvent,
  state: GateState = {},
  projectDir?: string,
): MatchSubject {
  const subject = subjectOf(event, agentEvent, state);
  if (projectDir !== undefined) subject.projectDir = projectDir;
  return subject;
}

function subjectOf(event: HookEventName, agentEvent: AgentEvent, state: GateState): MatchSubject {
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
