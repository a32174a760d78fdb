/**
 * The `idle` event (hooks.md): after `idleMs` (setting `idleMs`, default
 * 30 s) without an agent event — while a turn runs (a long tool, a slow
 * model) or while the session waits for a prompt — and once more per further
 * `idleMs` of silence, with `idle_seconds`. Its hooks run beside the loop (as
 * notification hooks do): nobody waits for them, session end waits for them
 * within its budget. Their context reaches the agent with its next model
 * request; it does not start a turn (`onIdle` tells a consumer that may).
 * No timer runs when no hook listens to `idle` and nobody asked for `onIdle`.
 */
import type { AgentEvent } from "../../../agent/events.js";
import { RAISES } from "../../../agent/raises.js";
import { createIdleTimer, DEFAULT_IDLE_MS, type IdleTimer } from "../idle-timer.js";
import { compareHooks, plan } from "../plan.js";
import { runBeside } from "./background.js";
import type { RunContext } from "./run-context.js";

type IdleEvent = Extract<AgentEvent, { type: "idle" }>;

/** The session's idle timer, or undefined when nothing listens. `wake` wakes the loop to yield. */
export function createIdle(ctx: RunContext, wake: () => void): IdleTimer | undefined {
  const { options } = ctx;
  if (!ctx.index.byEvent.has("idle") && options.onIdle === undefined) return undefined;
  return createIdleTimer({
    idleMs: options.idleMs ?? DEFAULT_IDLE_MS,
    now: ctx.now,
    ...(options.idleTimers === undefined ? {} : { timers: options.idleTimers }),
    onIdle: (idleSeconds) => {
      if (ctx.stopAll.signal.aborted) return;
      const event: IdleEvent = { type: RAISES.idle, idleSeconds };
      ctx.pendingActivity.push(event);
      wake();
      void runIdleHooks(ctx, event, wake);
    },
  });
}

/** Runs the idle hooks beside the loop; their context waits for the next model request. */
function runIdleHooks(ctx: RunContext, agentEvent: IdleEvent, wake: () => void): Promise<void> {
  const planned = plan(ctx.index, "idle", agentEvent);
  const hooks =
    planned === undefined ? [] : [...planned.observers, ...planned.async, ...planned.chain];
  hooks.sort(compareHooks);
  return runBeside(ctx, {
    event: "idle",
    agentEvent,
    hooks,
    into: (activity) => ctx.pendingActivity.push(activity),
    done: (context) => ctx.options.onIdle?.({ idleSeconds: agentEvent.idleSeconds, context }),
  }).finally(wake);
}
