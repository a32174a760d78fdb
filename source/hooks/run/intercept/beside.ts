/**
 * What wakes the loop between the agent's events. The pump steps the agent's
 * generator for the interceptor, and lets what is raised beside the loop wake
 * it while the agent works or waits for a prompt (what was raised is yielded
 * then, not after the agent's next event): notifications (`notify`, a hook's
 * `ask`), the `idle` event, and events the session raises (`message_sent`).
 */
import type { AgentEvent } from "../../../agent/events.js";
import { RAISES } from "../../../agent/raises.js";
import type { Verdict } from "../../../agent/verdicts.js";
import { HOOK_EVENT_OF } from "../../contract/events/names.js";
import type { AskRequest, HookActivityEvent } from "../activity.js";
import type { NotificationEvent } from "../chain.js";
import { createIdleTimer, DEFAULT_IDLE_MS, type IdleTimer } from "../idle-timer.js";
import { compareHooks, plan } from "../plan.js";
import { runBeside } from "./background.js";
import type { AgentRun, RunContext } from "./run-context.js";

export interface Pump {
  /** Resumes the agent with the verdict; settles with its step, or undefined when woken first. */
  next(verdict: Verdict | undefined): Promise<IteratorResult<AgentEvent, void> | undefined>;
  /** After a wake: waits again for the same step. */
  again(): Promise<IteratorResult<AgentEvent, void> | undefined>;
  /** Wakes the loop if it is waiting for the agent. */
  wake(): void;
  /** Closes the agent's generator; if the consumer left while the agent was busy, once it settles. */
  close(): Promise<void>;
}

export function createPump(run: AgentRun): Pump {
  /** The agent's `next()` while it has not settled (the consumer may leave meanwhile). */
  let inFlight: Promise<IteratorResult<AgentEvent, void>> | undefined;
  /**
   * The latest step, once the agent gave it. A wake may have answered the wait
   * first; `again()` then gets the step from here (it is never lost, and a
   * wake before the step settles cannot turn `again()` into an endless "woken").
   */
  let settled: Promise<IteratorResult<AgentEvent, void>> | undefined;
  let wake: (() => void) | undefined;
  /** A wake that came before the loop waited (it is not lost: the next wait ends at once). */
  let early = false;
  const stepOrWake = (
    next: Promise<IteratorResult<AgentEvent, void>>,
  ): Promise<IteratorResult<AgentEvent, void> | undefined> =>
    new Promise((resolve, reject) => {
      wake = () => {
        wake = undefined;
        resolve(undefined);
      };
      if (early) {
        early = false;
        wake();
      }
      next.then((step) => {
        wake = undefined;
        if (inFlight === next) {
          inFlight = undefined;
          settled = next;
        }
        resolve(step);
      }, reject);
    });
  return {
    next(verdict) {
      const next = run.next(verdict);
      inFlight = next;
      settled = undefined;
      return stepOrWake(next);
    },
    again() {
      const step = inFlight ?? settled;
      return step === undefined ? Promise.resolve(undefined) : stepOrWake(step);
    },
    wake: () => {
      if (wake) wake();
      else early = true;
    },
    async close() {
      const pending = inFlight;
      if (pending === undefined) await run.return(undefined);
      else {
        // return() would wait for that next(): the agent is closed once it settles.
        void pending.then(() => run.return(undefined)).catch(() => {});
      }
    },
  };
}

/**
 * The notification side channel: `notification` hooks run when a hook answers
 * `ask` (before it is answered, in every mode) and when the consumer calls
 * `notify` (the REPL's idle prompt). They run beside the loop, as async hooks
 * do: nobody waits for them (an ask is not held up), session end waits for
 * them within its budget. The `notification` event itself is yielded to the
 * consumer and passed to `onNotification` (the session's transcript).
 */
export interface Notifications {
  /** For an `ask`: raises the notification (to be yielded at once) and starts its hooks. */
  onAsk(request: AskRequest): NotificationEvent | undefined;
  /**
   * For the consumer's `notify`: raises the notification into the pending
   * activity, calls `wake`, and resolves with the hooks' activity once they are done.
   */
  notify(message: string, notificationType: string, wake: () => void): Promise<HookActivityEvent[]>;
}

export function createNotifications(ctx: RunContext): Notifications {
  return {
    onAsk(request) {
      const message =
        request.hook === undefined
          ? `acai needs your permission to use ${request.toolName ?? request.event} (${request.reason})`
          : `Hook ${request.hook.name} asks: ${request.reason}`;
      const event = raise(ctx, message, "permission_prompt");
      if (event)
        void runNotificationHooks(ctx, event, (activity) => ctx.pendingActivity.push(activity));
      return event;
    },
    async notify(message, notificationType, wake) {
      const event = raise(ctx, message, notificationType);
      if (event === undefined) return [];
      ctx.pendingActivity.push(event);
      wake();
      const activity: HookActivityEvent[] = [];
      await runNotificationHooks(ctx, event, (a) => activity.push(a));
      return activity;
    },
  };
}

/** A notification event, told to `onNotification`; none once the session is aborted. */
function raise(
  ctx: RunContext,
  message: string,
  notificationType: string,
): NotificationEvent | undefined {
  if (ctx.stopAll.signal.aborted) return undefined;
  const event: NotificationEvent = { type: RAISES.notification, message, notificationType };
  ctx.options.onNotification?.(event);
  return event;
}

/** Runs the matching notification hooks beside the loop; their activity goes to `into` as it happens. */
function runNotificationHooks(
  ctx: RunContext,
  agentEvent: NotificationEvent,
  into: (activity: HookActivityEvent) => void,
): Promise<void> {
  if (ctx.stopAll.signal.aborted) return Promise.resolve();
  const planned = plan(ctx.index, "notification", agentEvent);
  if (planned === undefined) return Promise.resolve();
  // Here every hook runs beside the loop, async or not: all of them, in plan order.
  const hooks = [...planned.observers, ...planned.async].sort(compareHooks);
  return runBeside(ctx, { event: "notification", agentEvent, hooks, into });
}

/**
 * The `idle` event (hooks.md): after `idleMs` (setting `idleMs`, default
 * 30 s) without an agent event — while a turn runs (a long tool, a slow
 * model) or while the session waits for a prompt — and once more per further
 * `idleMs` of silence, with `idle_seconds`. Its hooks run beside the loop (as
 * notification hooks do): nobody waits for them, session end waits for them
 * within its budget. Their context reaches the agent with its next model
 * request, or — when the `onIdle` consumer takes it (a listening agent) —
 * starts a turn of its own.
 * No timer runs when no hook listens to `idle`.
 */
type IdleEvent = Extract<AgentEvent, { type: "idle" }>;

/** The session's idle timer, or undefined when nothing listens. `wake` wakes the loop to yield. */
export function createIdle(ctx: RunContext, wake: () => void): IdleTimer | undefined {
  const { options } = ctx;
  // With no idle hook, nothing could be injected: no timer (a late idle hook starts one).
  if (!ctx.index.byEvent.has("idle")) return undefined;
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
    // A consumer that starts a turn with the context takes it; else it waits for the next
    // request, each text once: while the agent stays busy a reminder does not stack up.
    done: (context) => {
      if (context.length === 0) return true;
      if (ctx.options.onIdle?.({ idleSeconds: agentEvent.idleSeconds, context }) === true)
        return true;
      for (const text of context)
        if (!ctx.pendingContext.includes(text)) ctx.pendingContext.push(text);
      return true;
    },
  }).finally(wake);
}

/**
 * Observe-only events raised beside the loop by the session rather than
 * emitted by the agent (`message_sent`: the relay sent a message). Like the
 * notification side channel: the event is yielded to the consumer with the
 * next activity, its hooks (observers and async ones alike) run beside the
 * loop, session end waits for them within its budget, and their context
 * reaches the model with the next request.
 */
/**
 * The agent events a session may raise beside the loop (file_changed: its
 * file watcher; warning: what its watchers have to say, no hooks).
 */
export type BesideEvent = Extract<
  AgentEvent,
  { type: "message_sent" | "file_changed" | "warning" }
>;

/** Raises `event` (yielded to the consumer after `wake`) and starts its hooks; resolves when they are done. */
export function raiseBeside(ctx: RunContext, event: BesideEvent, wake: () => void): Promise<void> {
  if (ctx.stopAll.signal.aborted) return Promise.resolve();
  ctx.pendingActivity.push(event);
  wake();
  const hookEvent = HOOK_EVENT_OF[event.type];
  const planned = hookEvent === undefined ? undefined : plan(ctx.index, hookEvent, event);
  if (hookEvent === undefined || planned === undefined) return Promise.resolve();
  const hooks = [...planned.observers, ...planned.async].sort(compareHooks);
  return runBeside(ctx, {
    event: hookEvent,
    agentEvent: event,
    hooks,
    into: (activity) => {
      ctx.pendingActivity.push(activity);
      wake();
    },
  });
}
