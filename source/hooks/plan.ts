/**
 * Which hooks run for an agent event, and in what order (hooks.md §5):
 * priority high→low, then user before project, then name, then id — a total
 * order, so the same set of hooks always gives the same decision.
 */
import type { AgentEvent, AgentEventType } from "../agent/events.js";
import type { HookDefinition, HookEventName } from "./definition.js";
import { looksAtInput, type MatchSubject } from "./match.js";
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

const MAX_KEYS_PER_EVENT = 256;

/** Name-level check (`mayMatchByName`), wrapped by the caller to report a bad matcher. */
export type MatchesByName = (hook: HookDefinition, subject: MatchSubject) => boolean;

/**
 * Candidate hooks for an event, in run order, cached per event and tool name
 * (or source): hooks whose name-level matchers fail are left out once per
 * name; of the rest, those that do not look at the input are decided
 * (`matchedByKey`) and the others are matched against each event's input. An
 * event that no hook can match costs a map lookup or two.
 */
export function createCandidateFinder(
  index: ReadonlyMap<HookEventName, readonly HookDefinition[]>,
  byName: MatchesByName,
): (subject: MatchSubject) => readonly HookDefinition[] {
  const caches = new Map<HookEventName, Map<string, readonly HookDefinition[]>>();
  const none: readonly HookDefinition[] = [];
  return (subject) => {
    const hooks = index.get(subject.event);
    if (hooks === undefined) return none;
    const key = subject.toolName ?? subject.source ?? "";
    let cache = caches.get(subject.event);
    if (cache === undefined) {
      cache = new Map();
      caches.set(subject.event, cache);
    }
    let candidates = cache.get(key);
    if (candidates === undefined) {
      candidates = hooks.filter((hook) => byName(hook, subject));
      if (cache.size >= MAX_KEYS_PER_EVENT) cache.clear();
      cache.set(key, candidates);
    }
    return candidates;
  };
}

/** Whether a candidate's match was already decided by the candidate finder. */
export function matchedByKey(hook: HookDefinition): boolean {
  return !looksAtInput(hook);
}
