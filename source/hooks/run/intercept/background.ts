/**
 * Work beside the loop (async hooks, notification hooks): nobody waits for it
 * but session end (within its budget) and the interceptor's close. Each piece
 * has its own controller, fired by the run's abort. Here too: the async hooks
 * (`createAsyncHooks`) and session end (`sessionEnd`), which waits for the
 * background within its budget.
 */
import type { AgentEvent } from "../../../agent/events.js";
import type { Verdict } from "../../../agent/verdicts.js";
import type { HookDefinition, HookEventName } from "../../contract/definition.js";
import {
  type HookActivityEvent,
  hookRef,
  hookStart,
  hookWarning,
  type InterceptedEvent,
} from "../activity.js";
import {
  createAsyncPool,
  DEFAULT_ASYNC_QUEUE_LIMIT,
  DEFAULT_MAX_ASYNC_HOOKS,
  droppedMessage,
  droppedWarning,
  notStartedMessage,
} from "../async-pool.js";
import { observedEffect, runObservers, settleObserved } from "../observe.js";
import { plan } from "../plan.js";
import { notRunRecord } from "../run.js";
import { MAX_REWAKES_IN_A_ROW } from "../turn-signal.js";
import { noteConsidered } from "./audit-recorder.js";
import type { Background, RunContext } from "./run-context.js";

export interface Tracked {
  entry: Background;
  /** Stops listening to the run's abort (when the work is over, or was never started). */
  release(): void;
}

/** A controller killed by the run's abort; `track` adds its work to the run's background. */
export function backgroundEntry(ctx: RunContext): Tracked {
  const controller = new AbortController();
  const kill = (): void => controller.abort();
  ctx.stopAll.signal.addEventListener("abort", kill, { once: true });
  const entry: Background = { controller, done: Promise.resolve() };
  return { entry, release: () => ctx.stopAll.signal.removeEventListener("abort", kill) };
}

/** Counts `done` as the entry's work; the entry leaves the background when it settles. */
export function track(ctx: RunContext, tracked: Tracked, done: Promise<void>): Promise<void> {
  tracked.entry.done = done.finally(() => {
    tracked.release();
    ctx.background.delete(tracked.entry);
  });
  ctx.background.add(tracked.entry);
  return tracked.entry.done;
}

/** Waits for everything running beside the loop (the interceptor's close: after the kill). */
export async function settleBackground(ctx: RunContext): Promise<void> {
  await Promise.all([...ctx.background].map((b) => b.done));
}

export interface BesideRun {
  event: HookEventName;
  agentEvent: AgentEvent;
  /** In the order they run (`compareHooks`). */
  hooks: HookDefinition[];
  /** Each hook's activity as it happens, and a warning if they could not run. */
  into(activity: HookActivityEvent): void;
  /** Their context once all have answered (it also waits for the next model request). */
  /** Returns true when it took the context (a turn starts with it): then it does not also wait. */
  done?(context: string[]): boolean | undefined;
}

/**
 * Runs hooks beside the loop (notification, idle, message_sent hooks): every
 * hook is an observer here, whatever its kind; session end waits for them
 * within its budget, and the run's abort kills them.
 */
export function runBeside(ctx: RunContext, run: BesideRun): Promise<void> {
  const tracked = backgroundEntry(ctx);
  const work = (async () => {
    const observers = runObservers({
      event: run.event,
      agentEvent: run.agentEvent,
      hooks: run.hooks,
      matches: () => true,
      run: ctx.runnerFor(run.event, run.agentEvent),
      signal: tracked.entry.controller.signal,
      contextCapChars: ctx.cap,
      now: ctx.now,
      onRun: (hook, rec, answered, effective) => ctx.audit.record(hook, rec, answered, effective),
    });
    for (;;) {
      const step = await observers.next();
      if (step.done) {
        const taken = run.done?.(step.value.context) === true;
        if (!taken) ctx.pendingContext.push(...step.value.context);
        return;
      }
      run.into(step.value);
    }
  })().catch((error: unknown) => {
    run.into({
      type: "hook_warning",
      message: `${run.event} hooks could not run (${(error as Error).message})`,
    });
  });
  return track(ctx, tracked, work);
}

/**
 * Async hooks (hooks.md §5): started with their event (seeing its original
 * input), never waited for; at most `maxAsyncHooks` run at once, the rest wait
 * in a bounded queue, and one that finds it full is dropped with a warning
 * (async-pool.ts). Their context goes into the next before_model verdict.
 */
/** The abort reason that ends background work when the session-end budget is spent. */
const SESSION_END = "session-end budget";

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
  const woke = hook.asyncRewake === true && rec.exitCode === 2 && rec.decision.action === "block";
  // A wake-up is what an exit 2 means here: not a block to be warned about as ignored.
  const settled = settleObserved(
    hook,
    event,
    woke ? { ...rec, decision: CONTINUE } : rec,
    ctx.cap,
    {
      kind: "async",
    },
  );
  if (woke) ctx.pendingActivity.push(...rewake(ctx, hook, rec.decision.reason ?? rec.stderr));
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

const CONTINUE = { action: "continue" } as const;

/** An `asyncRewake` hook's exit 2: a turn of its own with its text, or a warning why not. */
function rewake(ctx: RunContext, hook: HookDefinition, text: string): HookActivityEvent[] {
  const outcome = ctx.options.rewake?.(hook.name, text) ?? "ended";
  const notice = (why: string): HookActivityEvent[] => [
    hookWarning(hook, `async hook "${hook.name}" exited 2 to wake the agent, ${why}`),
  ];
  switch (outcome) {
    case "queued":
      return [];
    case "ended":
      return notice(
        "but the run's last turn was over: not delivered (acai -p ends with its prompt)",
      );
    case "capped":
      return notice(
        `but ${MAX_REWAKES_IN_A_ROW} wake-ups came in a row with no prompt between them: not delivered`,
      );
    default:
      return outcome satisfies never;
  }
}

/**
 * session_end (hooks.md §5): its hooks run even after an abort, within the
 * session-end budget, during which running background work (async and
 * notification hooks) may also finish; then the rest is killed. What its
 * hooks inject (agent-relay's `onSessionEnd` `inject`, any context) is the
 * prompt of one last turn, answered within a budget of its own before the
 * session really ends (not after an abort): the verdict asks the agent for
 * it, and the rest of session end waits for the run to end (`finishSessionEnd`).
 */
export async function* sessionEnd(
  ctx: RunContext,
  agentEvent: AgentEvent,
): AsyncGenerator<InterceptedEvent, Verdict | undefined, undefined> {
  const budget = sessionEndBudget(ctx);
  try {
    const planned = plan(ctx.index, "session_end", agentEvent);
    noteConsidered(ctx, "session_end", agentEvent, planned);
    if (planned !== undefined) {
      const { context } = yield* runObservers({
        event: "session_end",
        agentEvent,
        hooks: planned.observers,
        matches: () => true,
        run: ctx.runnerFor("session_end", agentEvent),
        signal: budget.signal,
        contextCapChars: ctx.cap,
        now: ctx.now,
        onRun: (hook, rec, answered, effective) => ctx.audit.record(hook, rec, answered, effective),
      });
      const prompt = context.join("\n\n");
      if (prompt.trim() !== "" && !ctx.stopAll.signal.aborted && ctx.budgetMs > 0) {
        ctx.sessionEndDeferred = true;
        return { action: "continue", lastTurn: { prompt, withinMs: ctx.budgetMs } };
      }
    }
    yield* wrapUp(ctx, budget);
    return undefined;
  } finally {
    budget.clear();
  }
}

/** The rest of a session end deferred for its last turn: once the agent's run is over. */
export async function* finishSessionEnd(
  ctx: RunContext,
): AsyncGenerator<InterceptedEvent, void, undefined> {
  if (!ctx.sessionEndDeferred) return;
  ctx.sessionEndDeferred = false;
  const budget = sessionEndBudget(ctx);
  try {
    yield* wrapUp(ctx, budget);
  } finally {
    budget.clear();
  }
}

interface Budget {
  signal: AbortSignal;
  deadline: number;
  clear(): void;
}

/** The session-end budget from now: its signal also fires when the interceptor closes. */
function sessionEndBudget(ctx: RunContext): Budget {
  const budget = new AbortController();
  const timer = setTimeout(() => budget.abort(SESSION_END), ctx.budgetMs);
  return {
    signal: AbortSignal.any([ctx.closing.signal, budget.signal]),
    deadline: ctx.now() + ctx.budgetMs,
    clear: () => clearTimeout(timer),
  };
}

/** Background work within the budget, persistent hooks asked to finish, what is pending yielded. */
async function* wrapUp(
  ctx: RunContext,
  budget: Budget,
): AsyncGenerator<InterceptedEvent, void, undefined> {
  const { signal, deadline } = budget;
  await backgroundWithin(ctx, signal);
  // Persistent hooks' processes are asked to finish within what is left of the budget.
  await ctx.persistent.stop(signal.aborted ? 0 : Math.max(0, deadline - ctx.now()));
  yield* ctx.pendingActivity.splice(0);
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
