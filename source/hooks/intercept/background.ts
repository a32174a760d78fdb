/**
 * Work beside the loop (async hooks, notification hooks): nobody waits for it
 * but session end (within its budget) and the interceptor's close. Each piece
 * has its own controller, fired by the run's abort.
 */
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
