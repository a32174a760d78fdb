/**
 * The one child-process runner (Bash, dynamic tools, hooks).
 *
 * Built on `node:child_process` spawn rather than execa on purpose: execa's
 * promise settles only when every stdio pipe has closed, so an orphaned
 * grandchild that inherited stdout keeps it pending forever; and its
 * timeout/kill signals only the direct child, not the process group. Here each
 * child gets its own process group (`detached: true`), and every kill targets
 * the whole group.
 *
 * Life of a run:
 * - timeout: TERM to the group, KILL after `killGraceMs` (default 1000 ms);
 * - abort: the same at once, with a short grace (`abortGraceMs`, default 200 ms);
 * - output cap per stream: "truncate" keeps draining and drops the rest,
 *   "kill" stops the group like an abort (short grace);
 * - when the direct child exits, remaining output is awaited for at most
 *   `drainMs` (default 100 ms), then the group is SIGKILLed (background children
 *   never outlive the run) and the pipes are destroyed;
 * - containment (when given): every child carries acai's marker with this
 *   run's id (containment.ts); a run stopped by timeout, abort or output limit
 *   (or any run with `sweepOnExit`) also has its setsid/double-fork escapees
 *   swept by that id.
 */
import type { Readable } from "node:stream";
import { type Containment, processContainment } from "./containment.js";
import type { Spawned } from "./handle.js";
import { launchMarked } from "./launch.js";
import { quietRunResult } from "./result.js";
import { processSandboxLauncher, type SandboxLauncher } from "./sandbox-launch.js";
import { describeSpawnError } from "./spawn.js";
import type { ProcessRunner, RunOptions, RunResult } from "./types.js";

export interface ProcessRunnerOptions {
  /** Grace between TERM and KILL on timeout when the call does not set `killGraceMs` (default 1000). */
  defaultKillGraceMs?: number;
  /** Grace between TERM and KILL on abort or output-limit kill (default 200). */
  abortGraceMs?: number;
  /** How long to wait for pipes to close after the direct child exited (default 100). */
  drainMs?: number;
  /** Marks every child and sweeps a stopped run's escapees (default: none). */
  containment?: Containment;
  /** Starts runs that name a sandbox (default: none — such a run fails with a spawn error). */
  sandbox?: SandboxLauncher;
}

const DEFAULT_MAX_OUTPUT = 1024 * 1024;

export function createProcessRunner(options: ProcessRunnerOptions = {}): ProcessRunner {
  const defaultKillGraceMs = options.defaultKillGraceMs ?? 1000;
  const abortGraceMs = options.abortGraceMs ?? 200;
  const drainMs = options.drainMs ?? 100;
  const { containment, sandbox } = options;
  return (run) =>
    runOne(run, {
      killGraceMs: run.killGraceMs ?? defaultKillGraceMs,
      abortGraceMs,
      drainMs,
      ...(containment ? { containment } : {}),
      ...(sandbox ? { sandbox } : {}),
    });
}

/**
 * The runner acai uses: every child carries this acai process's marker
 * (containment.ts); a run with `sandbox` starts in the OS sandbox (sandbox-launch.ts).
 */
export const runProcess: ProcessRunner = createProcessRunner({
  containment: processContainment(),
  sandbox: processSandboxLauncher(),
});

interface Timing {
  killGraceMs: number;
  abortGraceMs: number;
  drainMs: number;
  containment?: Containment;
  sandbox?: SandboxLauncher;
}

class Collector {
  private readonly chunks: Buffer[] = [];
  private bytes = 0;
  private readonly cap: number;
  private readonly onLimit: () => void;
  truncated = false;

  constructor(cap: number, onLimit: () => void) {
    this.cap = cap;
    this.onLimit = onLimit;
  }

  /** Every byte that arrived, kept or not: lets the drain see whether output is still coming. */
  received = 0;

  push(chunk: Buffer): void {
    this.received += chunk.length;
    if (this.truncated) return;
    const room = this.cap - this.bytes;
    if (chunk.length <= room) {
      this.chunks.push(chunk);
      this.bytes += chunk.length;
      return;
    }
    if (room > 0) this.chunks.push(chunk.subarray(0, room));
    this.bytes = this.cap;
    this.truncated = true;
    this.onLimit();
  }

  text(): string {
    const buf = Buffer.concat(this.chunks, this.bytes);
    return (this.truncated ? buf.subarray(0, completeUtf8Length(buf)) : buf).toString("utf8");
  }
}

/** Length of `buf` without a multi-byte character cut off at its end. */
function completeUtf8Length(buf: Buffer): number {
  const end = buf.length;
  for (let i = end - 1; i >= 0 && i >= end - 4; i--) {
    const byte = buf[i]!;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return end - i < needed ? i : end;
  }
  return end;
}

function emptyResult(started: number, extra: Partial<RunResult>): RunResult {
  return quietRunResult({ durationMs: performance.now() - started, ...extra });
}

function runOne(run: RunOptions, timing: Timing): Promise<RunResult> {
  const started = performance.now();
  if (run.signal?.aborted) return Promise.resolve(emptyResult(started, { aborted: true }));

  const stdin = run.stdin === undefined ? "ignore" : "pipe";
  const launched = launchMarked(run, timing.containment, stdin, timing.sandbox, run.stdin);
  if (!(launched instanceof Promise)) return follow(run, timing, started, launched);
  return launched.then((spawned) => follow(run, timing, started, spawned));
}

function follow(
  run: RunOptions,
  timing: Timing,
  started: number,
  spawned: Spawned | { spawnError: string },
): Promise<RunResult> {
  if ("spawnError" in spawned) {
    return Promise.resolve(emptyResult(started, { spawnError: spawned.spawnError }));
  }
  const containment = timing.containment;
  const { child, runId, kill } = spawned;

  return new Promise<RunResult>((resolve) => {
    const cap = run.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
    const killOnLimit = run.onOutputLimit === "kill";
    let timedOut = false;
    let aborted = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let spawnError: string | undefined;
    let done = false;
    let openStreams = 2;
    const timers = new Set<NodeJS.Timeout>();

    const later = (ms: number, fn: () => void): void => {
      const t = setTimeout(() => {
        timers.delete(t);
        fn();
      }, ms);
      timers.add(t);
    };

    let terminating = false;
    const terminate = (graceMs: number): void => {
      if (terminating || exit) return;
      terminating = true;
      kill("SIGTERM");
      later(graceMs, () => kill("SIGKILL"));
    };

    const onLimit = (): void => {
      if (killOnLimit) terminate(timing.abortGraceMs);
    };
    const out = new Collector(cap, onLimit);
    const err = new Collector(cap, onLimit);

    const onAbort = (): void => {
      if (exit) return;
      aborted = true;
      terminate(timing.abortGraceMs);
    };

    const finish = (): void => {
      if (done) return;
      done = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      run.signal?.removeEventListener("abort", onAbort);
      // Background children of a finished run are not allowed to linger.
      kill("SIGKILL");
      // A stopped run's children that left the group (setsid, double fork) go too.
      if (terminating || run.sweepOnExit) {
        if (runId !== undefined) containment?.sweepRun(runId);
        spawned.sweep?.(); // in a sandbox: also those that dropped the marker
      }
      child.stdin?.destroy();
      child.stdout?.destroy();
      child.stderr?.destroy();
      spawnError ??= spawned.lost?.();
      resolve({
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        stdout: out.text(),
        stderr: err.text(),
        timedOut,
        aborted,
        truncated: { stdout: out.truncated, stderr: err.truncated },
        durationMs: performance.now() - started,
        ...(spawnError === undefined ? {} : { spawnError }),
      });
    };

    const maybeFinish = (): void => {
      if (exit && openStreams === 0) finish();
    };

    const watch = (stream: Readable | null, collector: Collector): void => {
      if (!stream) {
        openStreams--;
        return;
      }
      stream.on("data", (chunk: Buffer) => collector.push(chunk));
      stream.on("error", () => {});
      stream.once("close", () => {
        openStreams--;
        maybeFinish();
      });
      stream.resume(); // a sandboxed child's socket arrives paused
    };
    watch(child.stdout, out);
    watch(child.stderr, err);

    child.on("error", (error: NodeJS.ErrnoException) => {
      if (child.pid !== undefined) return; // e.g. a failed kill; the exit still comes
      spawnError = describeSpawnError(error, run);
      exit = { code: null, signal: null };
      finish();
    });

    child.on("exit", (code, signal) => {
      exit = { code, signal };
      for (const t of timers) clearTimeout(t);
      timers.clear();
      if (openStreams === 0) return finish();
      // A grandchild may hold the pipes open: take what comes soon, then stop waiting.
      later(timing.drainMs, finishAfterPendingReads);
    });

    // Timers run before I/O polling in each loop turn, so after a busy event loop the
    // drain timer can fire while the child's last output still sits unread in the pipe.
    // Let the loop poll until a turn brings no new bytes (bounded), then finish.
    const finishAfterPendingReads = (): void => {
      let lastSeen = -1;
      let turns = 0;
      const turn = (): void => {
        if (done) return;
        const seen = out.received + err.received;
        if (seen === lastSeen || turns++ >= 20) {
          finish();
          return;
        }
        lastSeen = seen;
        setImmediate(turn);
      };
      setImmediate(turn);
    };

    if (child.stdin) {
      child.stdin.on("error", () => {}); // EPIPE / ERR_STREAM_DESTROYED: the child stopped reading
      child.stdin.end(run.stdin);
    }

    if (run.timeoutMs !== undefined && run.timeoutMs > 0 && Number.isFinite(run.timeoutMs)) {
      later(run.timeoutMs, () => {
        if (exit) return;
        timedOut = true;
        terminate(timing.killGraceMs);
      });
    }
    run.signal?.addEventListener("abort", onAbort, { once: true });
    if (run.signal?.aborted) onAbort(); // aborted while a sandboxed start was under way
  });
}
