/**
 * Async hooks (hooks.md §5): started with their event (seeing its original
 * input), never waited for; at most `maxAsyncHooks` run at once, the rest wait
 * in a bounded queue, and one that finds it full is dropped with a warning
 * (async-pool.ts). Their context goes into the next before_model verdict.
 */
import type { AgentEvent } from "../../../agent/events.js";
import type { HookDefinition, HookEventName } from "../../contract/definition.js";
import { type HookActivityEvent, hookRef, hookStart, hookWarning } from "../activity.js";
import {
  createAsyncPool,
  DEFAULT_ASYNC_QUEUE_LIMIT,
  DEFAULT_MAX_ASYNC_HOOKS,
  droppedMessage,
  droppedWarning,
  notStartedMessage,
} from "../async-pool.js";
import { observedEffect, settleObserved } from "../observe.js";
import { notRunRecord } from "../run.js";
import { backgroundEntry, track } from "./background.js";
import type { RunContext } from "./run-context.js";

/** The abort reason that ends background work when the session-end budget is spent. */
export const SESSION_END = "session-end budget";

/** Starts an event's async hooks; yields their hook_start, and one warning naming those dropped. */
export type StartAsyncHooks = (
  hooks: readonly HookDefinition[],
  event: HookEventName,
  agentEvent: AgentEvent,
) => Generator<HookActivityEvent, void, undefined>;

export function createAsyncHooks(ctx: RunContext): StartAsyncHooks {
  const pool = createAsyncPool(
    {
      maxRunning: ctx.options.maxAsyncHooks ?? DEFAULT_MAX_ASYNC_HOOKS,
      queueLimit: ctx.options.asyncQueueLimit ?? DEFAULT_ASYNC_QUEUE_LIMIT,
    },
    (error) =>
      ctx.pendingActivity.push({
        type: "hook_warning",
        message: `an async hook could not be settled (${(error as Error).message})`,
      }),
  );

  /** Starts an async hook, or queues it; a full queue drops it (an audit line says so). */
  const start = (
    hook: HookDefinition,
    event: HookEventName,
    agentEvent: AgentEvent,
  ): HookActivityEvent | undefined => {
    const tracked = backgroundEntry(ctx);
    const submitted = pool.submit(() =>
      runAsync(ctx, hook, event, agentEvent, tracked.entry.controller),
    );
    if (submitted.admission === "dropped") {
      tracked.release();
      const rec = notRunRecord(hook, event, droppedMessage(hook.name, pool.limits));
      ctx.audit.record(hook, rec, rec.decision, rec.decision, true);
      return undefined;
    }
    void track(ctx, tracked, submitted.done);
    return hookStart(hook, event, ctx.now());
  };

  return function* startAll(hooks, event, agentEvent) {
    const dropped: HookDefinition[] = [];
    for (const hook of hooks) {
      const started = start(hook, event, agentEvent);
      if (started === undefined) dropped.push(hook);
      else yield started;
    }
    if (dropped.length === 0) return;
    yield {
      type: "hook_warning",
      ...(dropped.length === 1 ? { hook: hookRef(dropped[0] as HookDefinition) } : {}),
      message: droppedWarning(
        dropped.map((hook) => hook.name),
        event,
        pool.limits,
      ),
    };
  };
}

/** Runs (or, when its slot came after the session ended or an abort, skips) one async hook. */
async function runAsync(
  ctx: RunContext,
  hook: HookDefinition,
  event: HookEventName,
  agentEvent: AgentEvent,
  controller: AbortController,
): Promise<void> {
  const signal = controller.signal;
  const ended = signal.reason === SESSION_END;
  const rec = signal.aborted
    ? notRunRecord(hook, event, notStartedMessage(ended ? "session end" : "abort"), !ended)
    : await ctx.runnerFor(event, agentEvent)(hook, {}, signal);
  const settled = settleObserved(hook, event, rec, ctx.cap, { kind: "async" });
  if (settled.context !== undefined) ctx.pendingContext.push(settled.context);
  if (signal.reason === SESSION_END && !ended) {
    ctx.pendingActivity.push(
      hookWarning(
        hook,
        `async hook "${hook.name}" was still running when the session ended; killed after the ${ctx.budgetMs} ms session-end budget`,
      ),
    );
  }
  ctx.pendingActivity.push(...settled.activity);
  ctx.audit.record(hook, rec, rec.decision, observedEffect(rec.decision), true);
}
