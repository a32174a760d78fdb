/**
 * A child that stays up (persistent hooks, hooks.md §6.4), the sibling of the
 * one-shot runner (runner.ts) and sharing its start and kill code (spawn.ts):
 * its own process group, acai's containment marker with a run id of its own,
 * the complete environment given by the caller.
 *
 * Its stdin stays open for requests; stdout is read line by line, each line
 * capped (a longer one is reported and nothing more is read); stderr is
 * drained, its last few KiB kept for messages. However it ends — it exits,
 * `stop` (stdin closed, then TERM and KILL past the grace) or `kill` — its
 * whole group is SIGKILLed and its escapees (setsid, double fork) are swept
 * by its run id: nothing it started outlives it.
 */
import type { Containment } from "./containment.js";
import { processContainment } from "./containment.js";
import type { ChildHandle, SpawnOutcome } from "./handle.js";
import { launchMarked } from "./launch.js";
import { LineSplitter, Tail } from "./lines.js";
import { processSandboxLauncher, type SandboxLauncher } from "./sandbox-launch.js";
import { describeSpawnError, type SpawnTarget } from "./spawn.js";

export interface LongLivedOptions extends SpawnTarget {
  /** A stdout line longer than this (bytes) is reported by `onLineTooLong`; nothing more is read. */
  maxLineBytes: number;
  /** How much of the end of stderr is kept (default 4 KiB). */
  stderrTailBytes?: number;
  onLine: (line: string) => void;
  onLineTooLong: () => void;
  /** Once, when the process is gone (its group killed and swept). */
  onExit: (exit: LongLivedExit) => void;
}

export interface LongLivedExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when it could not be started. */
  spawnError?: string;
}

export interface LongLived {
  readonly pid: number | undefined;
  /** Writes to its stdin (ignored once it is gone or stdin broke). */
  write(text: string): void;
  /** Bytes written and not yet taken by the child. */
  pendingBytes(): number;
  stderrTail(): string;
  /** Closes stdin (its sign to finish), waits up to `graceMs`, then TERM, KILL; resolves once it is gone. */
  stop(graceMs: number): Promise<void>;
  /** SIGKILLs it and its whole tree now. */
  kill(): void;
}

/** Starts a long-lived child; async so that a wrapper may rewrite the command (typescript-launch.ts). */
export type ProcessStarter = (options: LongLivedOptions) => Promise<LongLived>;

/** How long output is still read after the child exited (a grandchild may hold the pipe). */
const DRAIN_MS = 100;
/** Grace between TERM and KILL when stopping. */
const TERM_GRACE_MS = 200;

export function createProcessStarter(
  containment?: Containment,
  sandbox?: SandboxLauncher,
): ProcessStarter {
  return async (options) =>
    startLongLived(
      options,
      await launchMarked(options, { containment, stdin: "pipe", sandbox }),
      containment,
    );
}

/** The starter acai uses: every child carries this acai process's marker; `sandbox` starts it in the OS sandbox. */
export const startProcess: ProcessStarter = (options) =>
  createProcessStarter(processContainment(), processSandboxLauncher())(options);

function startLongLived(
  options: LongLivedOptions,
  spawned: SpawnOutcome,
  containment?: Containment,
): LongLived {
  if ("spawnError" in spawned) {
    const { spawnError } = spawned;
    queueMicrotask(() => options.onExit({ code: null, signal: null, spawnError }));
    return goneProcess();
  }
  const { child, runId } = spawned;
  const pid = child.pid;
  const killGroup = (_pid: number | undefined, signal: NodeJS.Signals): void =>
    spawned.kill(signal);
  const tail = new Tail(options.stderrTailBytes ?? 4096);
  let gone = false;
  const exited = new Promise<void>((resolve) => {
    const end = (exit: LongLivedExit): void => {
      if (gone) return;
      gone = true;
      // Its background children are not allowed to linger, in its group or out of it.
      killGroup(pid, "SIGKILL");
      if (runId !== undefined) containment?.sweepRun(runId);
      spawned.sweep?.();
      child.stdin?.destroy();
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve();
      options.onExit(exit);
    };
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (child.pid !== undefined) return; // e.g. a failed kill; the exit still comes
      end({ code: null, signal: null, spawnError: describeSpawnError(error, options) });
    });
    // Answers it printed just before exiting are still read: stdout's end, or a short drain
    // when a child of its own holds the pipe open.
    let stdoutEnded = child.stdout === null;
    let afterExit: (() => void) | undefined;
    child.stdout?.once("close", () => {
      stdoutEnded = true;
      afterExit?.();
    });
    child.on("exit", (code: number | null, signal: NodeJS.Signals | null) => {
      const lost = spawned.lost?.();
      afterExit = () => end({ code, signal, ...(lost === undefined ? {} : { spawnError: lost }) });
      if (stdoutEnded) return afterExit();
      setTimeout(afterExit, DRAIN_MS);
    });
  });
  readOutput(child, options, tail, () => gone);
  child.stdin?.on("error", () => {}); // EPIPE: it stopped reading; its exit or a timeout says the rest

  const kill = (): void => {
    if (gone) return;
    killGroup(pid, "SIGKILL");
    if (runId !== undefined) containment?.sweepRun(runId);
  };
  return {
    pid,
    write(text) {
      const stdin = child.stdin;
      if (gone || !stdin?.writable) return;
      writeBatched(stdin, text);
    },
    pendingBytes: () => child.stdin?.writableLength ?? 0,
    stderrTail: () => tail.text(),
    kill,
    stop: (graceMs) =>
      stopChild(child, exited, () => gone, graceMs, {
        term: () => killGroup(pid, "SIGTERM"),
        kill,
      }),
  };
}

/**
 * The first request of a tick goes out at once: a chain asking its hooks one
 * after another waits for nothing else. Those after it in the same tick go out
 * together at the end of the tick (one system call, one wake-up).
 */
function writeBatched(stdin: NonNullable<ChildHandle["stdin"]>, text: string): void {
  stdin.write(text);
  if (stdin.writableCorked > 0) return;
  stdin.cork();
  process.nextTick(() => stdin.uncork());
}

/** Reads stdout as capped lines and keeps stderr's tail, until the child is gone. */
function readOutput(
  child: ChildHandle,
  options: LongLivedOptions,
  tail: Tail,
  isGone: () => boolean,
): void {
  const lines = new LineSplitter({
    maxLineBytes: options.maxLineBytes,
    onLine: (line) => {
      if (!isGone()) options.onLine(line);
    },
    onTooLong: () => {
      if (!isGone()) options.onLineTooLong();
    },
  });
  child.stdout?.on("data", (chunk: Buffer) => lines.push(chunk));
  child.stdout?.on("error", () => {});
  child.stderr?.on("data", (chunk: Buffer) => tail.push(chunk));
  child.stderr?.on("error", () => {});
  child.stdout?.resume(); // a sandboxed child's sockets arrive paused
  child.stderr?.resume();
}

async function stopChild(
  child: ChildHandle,
  exited: Promise<void>,
  isGone: () => boolean,
  graceMs: number,
  signal: { term: () => void; kill: () => void },
): Promise<void> {
  if (isGone()) return;
  child.stdin?.end();
  if (await within(exited, graceMs)) return;
  signal.term();
  if (await within(exited, TERM_GRACE_MS)) return;
  signal.kill();
  await exited;
}

/** Whether `promise` settles within `ms`. */
function within(promise: Promise<void>, ms: number): Promise<boolean> {
  if (ms <= 0) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

function goneProcess(): LongLived {
  return {
    pid: undefined,
    write() {},
    pendingBytes: () => 0,
    stderrTail: () => "",
    stop: () => Promise.resolve(),
    kill() {},
  };
}
