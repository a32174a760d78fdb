/**
 * The named waits of one run, each a promise of what happened: the child's
 * exit (or its failure to start), its output streams closing, the timeout,
 * the abort signal, the output cap, and the drain after the exit. runner.ts
 * races them, as execa's `waitForSubprocessResult` races its exit, streams,
 * timeout and cancel. A wait that cannot happen (no timeout, no signal)
 * never settles. The timers and the listener they hold go with the run's
 * `WaitScope`.
 */
import type { Readable } from "node:stream";
import type { Collector } from "./collector.js";
import type { ChildHandle } from "./handle.js";
import { describeSpawnError } from "./spawn.js";
import type { RunOptions } from "./types.js";

/** Why a run's group is stopped before its child exits. */
export type StopReason = "timeout" | "abort" | "output-limit";

export type ChildEnd =
  | { kind: "exit"; code: number | null; signal: NodeJS.Signals | null }
  | { kind: "spawn-error"; message: string };

export type Wake = ChildEnd | { kind: "stop"; reason: StopReason };

type StopWake = Extract<Wake, { kind: "stop" }>;

const NEVER: Promise<never> = new Promise(() => {});

/** The timers and the abort listener of one run: `close()` clears them all. */
export class WaitScope {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly cleanups: Array<() => void> = [];
  closed = false;

  later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  clearTimers(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  onClose(cleanup: () => void): void {
    this.cleanups.push(cleanup);
  }

  close(): void {
    this.closed = true;
    this.clearTimers();
    for (const cleanup of this.cleanups.splice(0)) cleanup();
  }
}

/** The child exited, or never started (an `error` without a pid). */
export function exitWait(child: ChildHandle, run: RunOptions): Promise<ChildEnd> {
  return new Promise((resolve) => {
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (child.pid !== undefined) return; // e.g. a failed kill; the exit still comes
      resolve({ kind: "spawn-error", message: describeSpawnError(error, run) });
    });
    child.on("exit", (code: number | null, signal: NodeJS.Signals | null) => {
      resolve({ kind: "exit", code, signal });
    });
  });
}

/** Both output streams closed (a missing one is closed); what they carry goes to the collectors. */
export async function streamsWait(
  child: ChildHandle,
  out: Collector,
  err: Collector,
): Promise<void> {
  await Promise.all([streamWait(child.stdout, out), streamWait(child.stderr, err)]);
}

/**
 * Until the stream closes. A spawner's stream may have closed before it was handed over (an
 * empty one whose child exited first: its end is read while it waits paused, spawner.ts), and
 * then no "close" comes again — without this check the run waited the whole drain.
 */
function streamWait(stream: Readable | null, collector: Collector): Promise<void> {
  if (!stream || stream.closed) return Promise.resolve();
  return new Promise((resolve) => {
    stream.on("data", (chunk: Buffer) => collector.push(chunk));
    stream.on("error", () => {});
    stream.once("close", () => resolve());
    stream.resume(); // a sandboxed child's socket arrives paused
  });
}

export function timeoutWait(timeoutMs: number | undefined, scope: WaitScope): Promise<StopWake> {
  if (timeoutMs === undefined || !(timeoutMs > 0) || !Number.isFinite(timeoutMs)) return NEVER;
  return new Promise((resolve) => {
    scope.later(timeoutMs, () => resolve({ kind: "stop", reason: "timeout" }));
  });
}

export function abortWait(signal: AbortSignal | undefined, scope: WaitScope): Promise<StopWake> {
  if (!signal) return NEVER;
  return new Promise((resolve) => {
    const onAbort = (): void => resolve({ kind: "stop", reason: "abort" });
    signal.addEventListener("abort", onAbort, { once: true });
    scope.onClose(() => signal.removeEventListener("abort", onAbort));
    if (signal.aborted) onAbort(); // aborted while a sandboxed start was under way
  });
}

/** An output cap reached with `onOutputLimit: "kill"`: the collectors call `reached`. */
export function limitWait(kill: boolean): { reached: () => void; wait: Promise<StopWake> } {
  if (!kill) return { reached: () => {}, wait: NEVER };
  let reached = (): void => {};
  const wait = new Promise<StopWake>((resolve) => {
    reached = () => resolve({ kind: "stop", reason: "output-limit" });
  });
  return { reached: () => reached(), wait };
}

/**
 * After the exit a grandchild may hold the pipes open: take what comes within
 * `drainMs`, then stop waiting. Timers run before I/O polling in each loop
 * turn, so after a busy event loop the drain timer can fire while the child's
 * last output still sits unread in the pipe: the loop polls until a turn
 * brings no new bytes (at most 20 turns).
 */
export function drainWait(
  drainMs: number,
  scope: WaitScope,
  received: () => number,
): Promise<void> {
  return new Promise((resolve) => {
    scope.later(drainMs, () => {
      let lastSeen = -1;
      let turns = 0;
      const turn = (): void => {
        if (scope.closed) return;
        const seen = received();
        if (seen === lastSeen || turns++ >= 20) {
          resolve();
          return;
        }
        lastSeen = seen;
        setImmediate(turn);
      };
      setImmediate(turn);
    });
  });
}
