/**
 * Finds and SIGKILLs every process whose environment carries a marker entry
 * (see marker.ts), by reading `/proc/<pid>/environ` (Linux). Synchronous on
 * purpose: it also runs in `process.on("exit")`, where nothing async runs.
 *
 * A scan costs about 2 ms per 100 processes; it runs at acai's exit, and for
 * one run only when that run was stopped (timeout, abort, output limit).
 * Rounds repeat until a scan finds nothing, so a child forked while the scan
 * ran is caught by the next one. Without a readable `/proc` it finds nothing.
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

/** Pids whose environment carries `entry` (`NAME=` or `NAME=value\0`). */
export function findMarked(entry: string, options: SweepOptions = {}): number[] {
  const procDir = options.procDir ?? "/proc";
  const needle = Buffer.from(entry);
  let names: string[];
  try {
    names = readdirSync(procDir);
  } catch {
    return []; // no /proc (macOS, a sandbox without it): nothing to find
  }
  const pids: number[] = [];
  for (const name of names) {
    const first = name.charCodeAt(0);
    if (first < 48 || first > 57) continue; // not a pid
    let environ: Buffer;
    try {
      environ = readFileSync(`${procDir}/${name}/environ`);
    } catch {
      continue; // gone meanwhile, or another user's (EACCES): not ours
    }
    if (carriesEntry(environ, needle)) pids.push(Number(name));
  }
  return pids;
}

/** SIGKILLs every process carrying `entry`, round after round until none is left. Returns how many pids were signalled. */
export function sweepMarked(entry: string, options: SweepOptions = {}): number {
  const kill = options.kill ?? ((pid, signal) => process.kill(pid, signal));
  const exclude = new Set(options.exclude ?? [process.pid]);
  const deadline = performance.now() + (options.maxMs ?? 1000);
  const signalled = new Set<number>();
  for (;;) {
    const found = findMarked(entry, options).filter((pid) => !exclude.has(pid));
    if (found.length === 0) return signalled.size;
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
    if (performance.now() > deadline) return signalled.size;
    // Only processes already killed are left: SIGKILL is delivered asynchronously,
    // give them a moment to die instead of spinning on /proc.
    if (!fresh) sleepSync(2);
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
