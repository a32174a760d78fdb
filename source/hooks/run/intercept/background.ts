/**
 * Work beside the loop (async hooks, notification hooks): nobody waits for it
 * but session end (within its budget) and the interceptor's close. Each piece
 * has its own controller, fired by the run's abort.
 */
import type { AgentEvent } from "../../../agent/events.js";
import type { HookDefinition, HookEventName } from "../../contract/definition.js";
import type { HookActivityEvent } from "../activity.js";
import { runObservers } from "../observe.js";
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
  done?(context: string[]): void;
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
        ctx.pendingContext.push(...step.value.context);
        run.done?.(step.value.context);
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
