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
import { Collector } from "./collector.js";
import { type Containment, processContainment } from "./containment.js";
import type { Spawned, SpawnOutcome } from "./handle.js";
import { launchMarked } from "./launch.js";
import { quietRunResult } from "./result.js";
import {
  abortWait,
  type ChildEnd,
  drainWait,
  exitWait,
  limitWait,
  type StopReason,
  streamsWait,
  timeoutWait,
  WaitScope,
  type Wake,
} from "./run-waits.js";
import { processSandboxLauncher, type SandboxLauncher } from "./sandbox-launch.js";
import { processSpawnHelper, type SpawnHelper } from "./spawn-helper.js";
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
  /** Forks the unsandboxed runs for acai (spawn-helper.ts; default: none, acai forks them). */
  helper?: SpawnHelper;
}

const DEFAULT_MAX_OUTPUT = 1024 * 1024;

export function createProcessRunner(options: ProcessRunnerOptions = {}): ProcessRunner {
  const defaultKillGraceMs = options.defaultKillGraceMs ?? 1000;
  const abortGraceMs = options.abortGraceMs ?? 200;
  const drainMs = options.drainMs ?? 100;
  const { containment, sandbox, helper } = options;
  return (run) =>
    runOne(run, {
      killGraceMs: run.killGraceMs ?? defaultKillGraceMs,
      abortGraceMs,
      drainMs,
      ...(containment ? { containment } : {}),
      ...(sandbox ? { sandbox } : {}),
      ...(helper ? { helper } : {}),
    });
}

/**
 * The runner acai uses: every child carries this acai process's marker
 * (containment.ts); a run with `sandbox` starts in the OS sandbox
 * (sandbox-launch.ts), the others through the spawn helper (spawn-helper.ts).
 */
export const runProcess: ProcessRunner = createProcessRunner({
  containment: processContainment(),
  sandbox: processSandboxLauncher(),
  ...processSpawnHelper(),
});

interface Timing {
  killGraceMs: number;
  abortGraceMs: number;
  drainMs: number;
  containment?: Containment;
  sandbox?: SandboxLauncher;
  helper?: SpawnHelper;
}

function emptyResult(started: number, extra: Partial<RunResult>): RunResult {
  return quietRunResult({ durationMs: performance.now() - started, ...extra });
}

function runOne(run: RunOptions, timing: Timing): Promise<RunResult> {
  const started = performance.now();
  if (run.signal?.aborted) return Promise.resolve(emptyResult(started, { aborted: true }));

  const stdin = run.stdin === undefined ? "ignore" : "pipe";
  const launched = launchMarked(run, {
    containment: timing.containment,
    stdin,
    sandbox: timing.sandbox,
    helper: timing.helper,
    stdinText: run.stdin,
  });
  if (!(launched instanceof Promise)) return follow(run, timing, started, launched);
  return launched.then((spawned) => follow(run, timing, started, spawned));
}

/** The child's stop reasons so far; the first one sends TERM to the group and KILL after its grace. */
class GroupStop {
  readonly reasons = new Set<StopReason>();
  constructor(
    private readonly spawned: Spawned,
    private readonly scope: WaitScope,
    private readonly timing: Timing,
  ) {}

  stop(reason: StopReason): void {
    const first = this.reasons.size === 0;
    this.reasons.add(reason);
    if (!first) return;
    this.spawned.kill("SIGTERM");
    const graceMs = reason === "timeout" ? this.timing.killGraceMs : this.timing.abortGraceMs;
    this.scope.later(graceMs, () => this.spawned.kill("SIGKILL"));
  }
}

/**
 * The waits of a started run raced as one promise: a stop (timeout, abort,
 * output limit) that comes before the exit stops the group and the race goes
 * on without it; the exit ends it; then the streams race the drain.
 */
async function follow(
  run: RunOptions,
  timing: Timing,
  started: number,
  outcome: SpawnOutcome,
): Promise<RunResult> {
  if ("spawnError" in outcome) return emptyResult(started, { spawnError: outcome.spawnError });
  const { child } = outcome;
  const scope = new WaitScope();
  const limit = limitWait(run.onOutputLimit === "kill");
  const cap = run.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  const out = new Collector(cap, limit.reached);
  const err = new Collector(cap, limit.reached);
  const streams = streamsWait(child, out, err);
  const exit = exitWait(child, run);
  if (child.stdin) {
    child.stdin.on("error", () => {}); // EPIPE / ERR_STREAM_DESTROYED: the child stopped reading
    child.stdin.end(run.stdin);
  }
  const stops = new Map<StopReason, Promise<Wake>>([
    ["timeout", timeoutWait(run.timeoutMs, scope)],
    ["abort", abortWait(run.signal, scope)],
    ["output-limit", limit.wait],
  ]);
  const group = new GroupStop(outcome, scope, timing);
  const end = await untilExit(exit, stops, group);
  scope.clearTimers(); // the stop's KILL and the timeout: the group is killed below anyway
  if (end.kind === "exit") {
    await Promise.race([
      streams,
      drainWait(timing.drainMs, scope, () => out.received + err.received),
    ]);
  }
  scope.close();
  return settle(run, timing, { spawned: outcome, end, stopped: group.reasons, out, err, started });
}

/** Races the exit against the stops until the exit comes; each stop is applied as it comes. */
async function untilExit(
  exit: Promise<ChildEnd>,
  stops: ReadonlyMap<StopReason, Promise<Wake>>,
  group: GroupStop,
): Promise<ChildEnd> {
  const pending = new Map(stops);
  for (;;) {
    const wake = await Promise.race([exit, ...pending.values()]);
    switch (wake.kind) {
      case "exit":
      case "spawn-error":
        return wake;
      case "stop":
        pending.delete(wake.reason);
        group.stop(wake.reason);
        break;
      default:
        wake satisfies never;
    }
  }
}

interface Followed {
  spawned: Spawned;
  end: ChildEnd;
  stopped: ReadonlySet<StopReason>;
  out: Collector;
  err: Collector;
  started: number;
}

/** The run is over: its group is killed, a stopped run's escapees swept, the pipes closed. */
function settle(run: RunOptions, timing: Timing, followed: Followed): RunResult {
  const { spawned, end, stopped, out, err } = followed;
  // Background children of a finished run are not allowed to linger.
  spawned.kill("SIGKILL");
  // A stopped run's children that left the group (setsid, double fork) go too.
  if (stopped.size > 0 || run.sweepOnExit) {
    if (spawned.runId !== undefined) timing.containment?.sweepRun(spawned.runId);
    spawned.sweep?.(); // in a sandbox: also those that dropped the marker
  }
  spawned.child.stdin?.destroy();
  spawned.child.stdout?.destroy();
  spawned.child.stderr?.destroy();
  const spawnError = end.kind === "spawn-error" ? end.message : spawned.lost?.();
  return {
    exitCode: end.kind === "exit" ? end.code : null,
    signal: end.kind === "exit" ? end.signal : null,
    stdout: out.text(),
    stderr: err.text(),
    timedOut: stopped.has("timeout"),
    aborted: stopped.has("abort"),
    truncated: { stdout: out.truncated, stderr: err.truncated },
    durationMs: performance.now() - followed.started,
    ...(spawnError === undefined ? {} : { spawnError }),
  };
}
