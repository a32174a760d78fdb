/**
 * session_end (hooks.md §5): its hooks run even after an abort, within the
 * session-end budget, during which running background work (async and
 * notification hooks) may also finish; then the rest is killed.
 */
import type { AgentEvent } from "../../../agent/events.js";
import type { InterceptedEvent } from "../activity.js";
import { runObservers } from "../observe.js";
import { plan } from "../plan.js";
import { SESSION_END } from "./async-hooks.js";
import { noteConsidered } from "./note-considered.js";
import type { RunContext } from "./run-context.js";

export async function* sessionEnd(
  ctx: RunContext,
  agentEvent: AgentEvent,
): AsyncGenerator<InterceptedEvent, undefined, undefined> {
  const budget = new AbortController();
  const deadline = ctx.now() + ctx.budgetMs;
  const timer = setTimeout(() => budget.abort(SESSION_END), ctx.budgetMs);
  try {
    const signal = AbortSignal.any([ctx.closing.signal, budget.signal]);
    const planned = plan(ctx.index, "session_end", agentEvent);
    noteConsidered(ctx, "session_end", agentEvent, planned);
    if (planned !== undefined) {
      yield* runObservers({
        event: "session_end",
        agentEvent,
        hooks: planned.observers,
        matches: () => true,
        run: ctx.runnerFor("session_end", agentEvent),
        signal,
        contextCapChars: ctx.cap,
        now: ctx.now,
        onRun: (hook, rec, answered, effective) => ctx.audit.record(hook, rec, answered, effective),
      });
    }
    await backgroundWithin(ctx, signal);
    // Persistent hooks' processes are asked to finish within what is left of the budget.
    await ctx.persistent.stop(signal.aborted ? 0 : Math.max(0, deadline - ctx.now()));
    yield* ctx.pendingActivity.splice(0);
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/** Lets background work finish until `signal` (the budget, or the close); then kills the rest. */
async function backgroundWithin(ctx: RunContext, signal: AbortSignal): Promise<void> {
  if (ctx.background.size > 0 && !signal.aborted) {
    const aborted = new Promise<void>((resolve) =>
      signal.addEventListener("abort", () => resolve(), { once: true }),
    );
    await Promise.race([Promise.all([...ctx.background].map((b) => b.done)), aborted]);
  }
  const left = [...ctx.background];
  for (const b of left) b.controller.abort(SESSION_END);
  await Promise.all(left.map((b) => b.done));
}
