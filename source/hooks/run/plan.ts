/**
 * Selection as a value: which hooks an agent event starts, and how
 * (gemini-cli's hookPlanner `createExecutionPlan` was the model).
 *
 * Order (hooks.md §5): priority high→low, then user before project, then the
 * configured order (`compareHooks`), then id — a total order, so the same set of hooks always gives the same
 * decision. `plan` is deterministic; the index only memoizes name-level
 * matching (`createCandidateFinder`) and reports a matcher that cannot be
 * evaluated once (`onBadMatcher`); such a matcher matches nothing.
 */
import type { AgentEvent } from "../../agent/events.js";
import type { HookDefinition, HookEventName } from "../contract/definition.js";
import { eventRow } from "../contract/events/table.js";
import type { GateState } from "../contract/gate-state.js";
import {
  hookMatches,
  looksAtInput,
  type MatchSubject,
  mayMatchByName,
  type RuleCatches,
} from "../contract/match.js";

/** One ordering for everyone: the registry's and the interceptor's are the same function. */
export { compareHooks, indexHooksByEvent as indexHooks } from "../contract/hook-order.js";

/** What matchers see for this event, with the input as modified by earlier hooks. */
export function matchSubject(
  event: HookEventName,
  agentEvent: AgentEvent,
  state: GateState = {},
  projectDir?: string,
  sessionId?: string,
  ruleCatches?: RuleCatches,
): MatchSubject {
  // matchOn returns a fresh object: completing it in place spares an allocation per event.
  const subject = eventRow(event).matchOn(agentEvent, state) as MatchSubject;
  subject.event = event;
  if (projectDir !== undefined) subject.projectDir = projectDir;
  if (sessionId !== undefined) subject.sessionId = sessionId;
  if (ruleCatches !== undefined) subject.ruleCatches = ruleCatches;
  return subject;
}

/** The subject of an event as the index sees it (its project, session and `if` judge). */
export function subjectFor(
  index: HookIndex,
  event: HookEventName,
  agentEvent: AgentEvent,
  state: GateState = {},
): MatchSubject {
  return matchSubject(
    event,
    agentEvent,
    state,
    index.projectDir,
    index.sessionId?.(),
    index.ruleCatches,
  );
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
  // Per event: the list the cache was made from (a hook added later, late.ts, replaces it) and the cache.
  const caches = new Map<
    HookEventName,
    [readonly HookDefinition[], Map<string, readonly HookDefinition[]>]
  >();
  const none: readonly HookDefinition[] = [];
  return (subject) => {
    const hooks = index.get(subject.event);
    if (hooks === undefined) return none;
    const key = subject.toolName ?? subject.source ?? subject.namespace ?? "";
    let made = caches.get(subject.event);
    if (made === undefined || made[0] !== hooks) {
      made = [hooks, new Map()];
      caches.set(subject.event, made);
    }
    const cache = made[1];
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

/** The hooks of one run, indexed for selection (built once per interceptor). */
export interface HookIndex {
  /** Per event, in run order. */
  byEvent: ReadonlyMap<HookEventName, readonly HookDefinition[]>;
  /** Name-level candidates (memoized). */
  candidates: (subject: MatchSubject) => readonly HookDefinition[];
  /** Full match; a matcher that cannot be evaluated matches nothing. */
  matches: (hook: HookDefinition, subject: MatchSubject) => boolean;
  projectDir?: string;
  /** The running session's id, for `session_id` matchers (constant once the session started). */
  sessionId?: () => string;
  ruleCatches?: RuleCatches;
  spent?: ReadonlySet<string>;
}

export interface HookIndexOptions {
  /** Base of `path` globs and `projectDir` of every subject. */
  projectDir?: string;
  /** Told of a matcher that cannot be evaluated (once per hook is the caller's to ensure). */
  onBadMatcher?: (hook: HookDefinition, error: Error) => void;
  /** The running session's id (`session_id` matchers). */
  sessionId?: () => string;
  /** Judges a hook's `if` against a tool call (the session's permission matcher). */
  ruleCatches?: RuleCatches;
  /** Ids of `once` hooks that already ran this session: not planned again. */
  spent?: ReadonlySet<string>;
}

/** Selection over hooks already indexed by event (`indexHooks`, once per interceptor). */
export function createHookIndex(
  byEvent: ReadonlyMap<HookEventName, readonly HookDefinition[]>,
  options: HookIndexOptions = {},
): HookIndex {
  const guarded =
    (test: (hook: HookDefinition, subject: MatchSubject) => boolean) =>
    (hook: HookDefinition, subject: MatchSubject): boolean => {
      try {
        return test(hook, subject);
      } catch (error) {
        options.onBadMatcher?.(hook, error as Error);
        return false;
      }
    };
  return {
    byEvent,
    candidates: createCandidateFinder(byEvent, guarded(mayMatchByName)),
    matches: guarded(hookMatches),
    ...(options.projectDir === undefined ? {} : { projectDir: options.projectDir }),
    ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
    ...(options.ruleCatches === undefined ? {} : { ruleCatches: options.ruleCatches }),
    ...(options.spent === undefined ? {} : { spent: options.spent }),
  };
}

/** What one agent event starts. */
export interface Plan {
  event: HookEventName;
  /**
   * A gate's sync hooks, in order, from the first that matches: each is
   * matched again against the values replaced before its turn
   * (`matcherNow`), so a rewritten command cannot slip past a guard further
   * down, and a hook the rewrite now concerns runs. Empty on observe events.
   */
  chain: readonly HookDefinition[];
  /** An observe-only event's sync hooks that match, in order (they run at once). */
  observers: readonly HookDefinition[];
  /** Async hooks that match, in order (started with the event, never waited for). */
  async: readonly HookDefinition[];
}

const NOTHING: readonly HookDefinition[] = Object.freeze([]);

/** Which hooks this event starts; undefined when none (the hot path: nothing allocated past the subject). */
export function plan(
  index: HookIndex,
  event: HookEventName,
  agentEvent: AgentEvent,
  state: GateState = {},
): Plan | undefined {
  if (!index.byEvent.has(event)) return undefined;
  const subject = subjectFor(index, event, agentEvent, state);
  const candidates = index.candidates(subject);
  if (candidates.length === 0) return undefined;
  const row = eventRow(event);
  const gate = row.kind === "gate";
  const inline = row.asyncHooks === "inline";
  const matched = (hook: HookDefinition): boolean =>
    matchedByKey(hook) || index.matches(hook, subject);
  let sync: HookDefinition[] | undefined;
  let asyncHooks: HookDefinition[] | undefined;
  for (const hook of candidates) {
    if (hook.once === true && index.spent?.has(hook.id) === true) continue;
    if (hook.async && !inline) {
      if (!matched(hook)) continue;
      if (asyncHooks === undefined) asyncHooks = [hook];
      else asyncHooks.push(hook);
    } else if (gate && sync !== undefined) sync.push(hook);
    else if (matched(hook)) {
      if (sync === undefined) sync = [hook];
      else sync.push(hook);
    }
  }
  if (sync === undefined && asyncHooks === undefined) return undefined;
  return {
    event,
    chain: gate ? (sync ?? NOTHING) : NOTHING,
    observers: gate ? NOTHING : (sync ?? NOTHING),
    async: asyncHooks ?? NOTHING,
  };
}

/**
 * Whether a hook of a chain matches the event with the values replaced so
 * far. The subject is made once per values (a chain's hooks asked with the
 * same values share it; a hook that replaced a value makes new ones).
 */
export function matcherNow(
  index: HookIndex,
  event: HookEventName,
  agentEvent: AgentEvent,
): (hook: HookDefinition, state: GateState) => boolean {
  let madeFor: GateState | undefined;
  let subject: MatchSubject | undefined;
  return (hook, state) => {
    if (subject === undefined || madeFor !== state) {
      subject = subjectFor(index, event, agentEvent, state);
      madeFor = state;
    }
    return index.matches(hook, subject);
  };
}
