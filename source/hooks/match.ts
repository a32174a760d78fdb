import type { HookDefinition, HookEventName } from "./definition.js";

/** What a matcher is tested against. */
export interface MatchSubject {
  event: HookEventName;
  toolName?: string;
  toolInput?: unknown;
  /** session_start source or notification type. */
  source?: string;
}

/**
 * True when every matcher the hook gives matches the subject (and the hook
 * listens to the event). Compiled patterns are cached; this is on the hot path.
 * TODO(hooks-sources helper): implement.
 */
export function hookMatches(hook: HookDefinition, subject: MatchSubject): boolean {
  return hook.events.includes(subject.event);
}
