/**
 * Observe-only events and async hooks (hooks.md §4–§5): every matching hook
 * runs at once; they can add context; blocks, modifications and the like are
 * ignored with a warning (never shown as if they had acted), except what the
 * event's row honours (`stop` on after_agent: the turn is over, ending the
 * session is meaningful). Async hooks honour nothing.
 */

import type { Decision } from "../contract/decision.js";
import type { HookDefinition, HookEventName } from "../contract/definition.js";
import { eventRow } from "../contract/events/table.js";
import {
  type HookActivityEvent,
  type HookRef,
  hookEnd,
  hookRef,
  hookStart,
  hookWarning,
  outcomeOf,
} from "./activity.js";
import type { FoldOptions } from "./chain.js";
import type { HookRunRecord } from "./run.js";
import { contextOf, suppressedBy } from "./step.js";

/** How an observed answer is taken: `canStop` where the event honours stop (after_agent, sync). */
export interface ObservedMode {
  kind: "observe" | "async";
  canStop?: boolean;
}

const IGNORED_WHEN_OBSERVED: ReadonlySet<Decision["action"]> = new Set([
  "block",
  "stop",
  "modify",
  "ask",
  "retry",
]);

function ignoredWhenObserved(decision: Decision, mode: ObservedMode): boolean {
  if (decision.action === "stop" && mode.canStop) return false;
  return IGNORED_WHEN_OBSERVED.has(decision.action);
}

/** What an observed (observe-only or async) run leaves: activity to show and capped context. */
export function settleObserved(
  hook: HookDefinition,
  event: HookEventName,
  record: HookRunRecord,
  cap: number,
  mode: ObservedMode = { kind: "observe" },
): { activity: HookActivityEvent[]; context?: string } {
  const decision = record.decision;
  const notes: HookActivityEvent[] = [];
  const taken = contextOf(hook, decision, cap);
  if (taken.note !== undefined) notes.push(hookWarning(hook, taken.note));
  const ignoredSuppress: string[] = [];
  suppressedBy(event, hook, decision, ignoredSuppress);
  for (const note of ignoredSuppress) notes.push(hookWarning(hook, note));
  if (decision.action === "failed" && !record.aborted) {
    notes.push(hookWarning(hook, `hook "${hook.name}" failed: ${decision.error}`));
  }
  let outcome = outcomeOf(decision.action, record);
  if (ignoredWhenObserved(decision, mode)) {
    outcome = "continue";
    const why =
      mode.kind === "async"
        ? "async hooks cannot block, stop or modify"
        : `${event} is an observe-only event${eventRow(event).honours.includes("stop") ? " (only stop is honoured there)" : ""}`;
    notes.push(
      hookWarning(
        hook,
        `hook "${hook.name}" answered ${decision.action}${decision.reason ? ` (${decision.reason})` : ""}: ${decision.action} is ignored on ${event}; ${why}`,
      ),
    );
  }
  const detail = decision.action === "failed" ? decision.error : decision.reason;
  const activity = [
    hookEnd(hook, event, outcome, record.durationMs, detail, decision.message),
    ...notes,
  ];
  return taken.context === undefined ? { activity } : { activity, context: taken.context };
}

/** The effect of an observed answer: failures, plain continue, and a `stop` where `canStop`. */
export function observedEffect(
  decision: Decision,
  mode: ObservedMode = { kind: "observe" },
): Decision {
  if (decision.action === "failed") return decision;
  if (decision.action === "stop" && mode.canStop) return decision;
  return { action: "continue" };
}

export interface ObserveResult {
  /** In plan order, whatever order the hooks finished in. */
  context: string[];
  /** Only with `canStop`: the first hook (in plan order) that answered stop. */
  stop?: { reason: string; hook: HookRef };
}

export interface ObserveOptions extends FoldOptions {
  /** The event honours `stop` (after_agent; see `ObservedMode`). */
  canStop?: boolean;
}

/** Observe-only events: every matching hook at once; only context, warnings (and a `stop` where `canStop`) come out. */
export async function* runObservers(
  options: ObserveOptions,
): AsyncGenerator<HookActivityEvent, ObserveResult, undefined> {
  const mode: ObservedMode = { kind: "observe", canStop: options.canStop ?? false };
  const hooks = options.hooks.filter((hook) => options.matches(hook, {}));
  const pending = new Map<number, Promise<{ index: number; record: HookRunRecord }>>();
  for (const [index, hook] of hooks.entries()) {
    if (options.signal.aborted) break;
    yield hookStart(hook, options.event, options.now());
    pending.set(
      index,
      options.run(hook, {}, options.signal).then((record) => ({ index, record })),
    );
  }
  const contexts: (string | undefined)[] = [];
  const stops: (ObserveResult["stop"] | undefined)[] = [];
  while (pending.size > 0) {
    const { index, record } = await Promise.race(pending.values());
    pending.delete(index);
    const hook = hooks[index]!;
    const settled = settleObserved(hook, options.event, record, options.contextCapChars, mode);
    contexts[index] = settled.context;
    const effective = observedEffect(record.decision, mode);
    if (effective.action === "stop") {
      stops[index] = {
        reason: effective.reason ?? `hook "${hook.name}" ended the session`,
        hook: hookRef(hook),
      };
    }
    options.onRun?.(hook, record, record.decision, effective);
    yield* settled.activity;
  }
  const stop = stops.find((s) => s !== undefined);
  return {
    context: contexts.filter((c): c is string => c !== undefined),
    ...(stop === undefined ? {} : { stop }),
  };
}
