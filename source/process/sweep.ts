/**
 * Finds and SIGKILLs every process whose environment carries a marker entry
 * (see marker.ts), by reading `/proc/<pid>/environ` (Linux). Synchronous on
 * purpose: it also runs in `process.on("exit")`, where nothing async runs.
 *
 * A scan costs about 2 ms per 100 processes; it runs at acai's exit, and for
 * one run only when that run was stopped (timeout, abort, output limit).
 * Rounds repeat until a scan finds nothing, so a child forked while the scan
 * ran is caught by the next one. A process in the middle of an exec has no
 * environment to read for a moment (its new one is not set up yet): such a
 * process — an empty environment and command line, not a kernel thread, not
 * a zombie — keeps the rounds going, a few times at most, until it shows its
 * environment. Without a readable `/proc` it finds nothing.
 */
import { readdirSync, readFileSync } from "node:fs";

export interface SweepOptions {
  /** Default `/proc`. */
  procDir?: string;
  /** Never killed (acai itself, its watchdog). */
  exclude?: readonly number[];
  /** Default `process.kill`; tests record instead. */
  kill?: (pid: number, signal: NodeJS.Signals) => void;
  /** Give up after this long, e.g. on a process stuck in the kernel (default 1000 ms). */
  maxMs?: number;
  /** Default `readFileSync`; tests give the files of `procDir` as a moment would show them. */
  read?: (file: string) => Buffer;
}

/** Whether `environ` (NUL-separated `NAME=value` entries) holds an entry starting with `entry`. */
export function carriesEntry(environ: Buffer, entry: Buffer): boolean {
  if (environ.length < entry.length) return false;
  if (environ.compare(entry, 0, entry.length, 0, entry.length) === 0) return true;
  let at = environ.indexOf(entry, 1);
  while (at > 0) {
    if (environ[at - 1] === 0) return true;
    at = environ.indexOf(entry, at + 1);
  }
  return false;
}

/** What one scan saw: the pids carrying the entry, and those whose environment could not be read yet. */
interface Scan {
  marked: number[];
  inExec: number[];
}

/** Pids whose environment carries `entry` (`NAME=` or `NAME=value\0`). */
export function findMarked(entry: string, options: SweepOptions = {}): number[] {
  return scanMarked(Buffer.from(entry), options).marked;
}

function scanMarked(needle: Buffer, options: SweepOptions): Scan {
  const procDir = options.procDir ?? "/proc";
  const read = options.read ?? readFileSync;
  const scan: Scan = { marked: [], inExec: [] };
  let names: string[];
  try {
    names = readdirSync(procDir);
  } catch {
    return scan; // no /proc (macOS, a sandbox without it): nothing to find
  }
  for (const name of names) {
    const first = name.charCodeAt(0);
    if (first < 48 || first > 57) continue; // not a pid
    let environ: Buffer;
    try {
      environ = read(`${procDir}/${name}/environ`);
    } catch {
      continue; // gone meanwhile, or another user's (EACCES): not ours
    }
    if (carriesEntry(environ, needle)) scan.marked.push(Number(name));
    else if (environ.length === 0 && inExec(`${procDir}/${name}`, read)) {
      scan.inExec.push(Number(name));
    }
  }
  return scan;
}

/**
 * Whether a process whose environment reads empty is in the middle of an
 * exec: its command line is empty too, and it is neither a kernel thread
 * (kthreadd, pid 2, or its child) nor a zombie.
 */
function inExec(pidDir: string, read: (file: string) => Buffer): boolean {
  try {
    const stat = read(`${pidDir}/stat`).toString("latin1");
    const [pid, rest] = [stat.slice(0, stat.indexOf(" ")), stat.slice(stat.lastIndexOf(")") + 2)];
    const [state, ppid] = rest.split(" ");
    if (pid === "2" || ppid === "2" || state === "Z" || state === "X") return false;
    return read(`${pidDir}/cmdline`).length === 0;
  } catch {
    return false;
  }
}

/** Rounds a process that reads as in the middle of an exec may keep the sweep going (2 ms each). */
const EXEC_ROUNDS = 5;

/** SIGKILLs every process carrying `entry`, round after round until none is left. Returns how many pids were signalled. */
export function sweepMarked(entry: string, options: SweepOptions = {}): number {
  const kill = options.kill ?? ((pid, signal) => process.kill(pid, signal));
  const exclude = new Set(options.exclude ?? [process.pid]);
  const deadline = performance.now() + (options.maxMs ?? 1000);
  const needle = Buffer.from(entry);
  const signalled = new Set<number>();
  const waited = new Map<number, number>();
  for (;;) {
    const scan = scanMarked(needle, options);
    const found = scan.marked.filter((pid) => !exclude.has(pid));
    const inExec = scan.inExec.filter((pid) => (waited.get(pid) ?? 0) < EXEC_ROUNDS);
    if (found.length === 0 && inExec.length === 0) return signalled.size;
    let fresh = false;
    for (const pid of found) {
      if (!signalled.has(pid)) fresh = true;
      signalled.add(pid);
      try {
        kill(pid, "SIGKILL");
      } catch {
        // ESRCH: it died meanwhile.
      }
    }
    for (const pid of inExec) waited.set(pid, (waited.get(pid) ?? 0) + 1);
    if (performance.now() > deadline) return signalled.size;
    // Only processes already killed, or ones in an exec, are left: SIGKILL is delivered
    // asynchronously and an exec takes a moment; wait instead of spinning on /proc.
    if (!fresh) sleepSync(2);
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
