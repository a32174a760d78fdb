/**
 * Counting a test's processes by a marker in their command line
 * (`/proc/<pid>/cmdline`), and killing them afterwards whatever happened.
 */
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";

/** Live (not zombie) pids whose command line contains `marker`. */
export function pidsWith(marker: string): number[] {
  return livePids((cmdline) => cmdline.includes(marker));
}

/**
 * Live pids whose argv[0] is `marker`: processes that exec'd under it (`exec -a`), not the
 * shell that is about to (its arguments mention the marker too, until the exec).
 */
export function pidsNamed(marker: string): number[] {
  return livePids((cmdline) => cmdline.split("\0")[0] === marker);
}

/**
 * Waits for exactly one process named `marker` (`pidsNamed`) and returns its pid, taken from the
 * scan that found it; undefined if there is none by `timeoutMs`. (A second scan can miss it: a
 * process caught in the middle of its exec shows no command line.)
 */
export async function onlyNamed(marker: string, timeoutMs = 10_000): Promise<number | undefined> {
  let found: number[] = [];
  const one = () => {
    found = pidsNamed(marker);
    return found.length === 1;
  };
  return (await waitFor(one, timeoutMs)) ? found[0] : undefined;
}

function livePids(matches: (cmdline: string) => boolean): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (!matches(readFileSync(`/proc/${name}/cmdline`, "utf8"))) continue;
      const state = readFileSync(`/proc/${name}/stat`, "utf8").split(") ")[1]?.[0];
      if (state !== "Z") pids.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

export async function waitFor(check: () => boolean, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** Waits (a little: SIGKILL is asynchronous) for no process with `marker` to be left; returns those left. */
export async function survivors(marker: string, timeoutMs = 5000): Promise<number[]> {
  await waitFor(() => pidsWith(marker).length === 0, timeoutMs);
  return pidsWith(marker);
}

/** Markers a test made; `killMarked()` in afterEach removes what a failed test left. */
export class Markers {
  private readonly made: string[] = [];

  next(prefix = "acai-containment"): string {
    const marker = `${prefix}-${randomUUID()}`;
    this.made.push(marker);
    return marker;
  }

  killAll(): void {
    for (const marker of this.made.splice(0)) {
      for (const pid of pidsWith(marker)) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // gone
        }
      }
    }
  }
}

/** A shell command running `sleep 300` with `marker` as its argv[0]. */
export function markedSleep(marker: string, seconds = 300): string {
  return `exec -a ${marker} sleep ${seconds}`;
}

/** CPU time (utime + stime, in clock ticks) process `pid` has used; undefined once it is gone. */
function cpuTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/**
 * Waits until process `pid` has used no CPU for `quietMs`: it finished starting
 * and now waits (for stdin, a child, a timer). A loaded machine may take
 * seconds to start acai; a fixed sleep would send a signal too early.
 */
export async function waitForIdle(
  pid: number,
  quietMs = 300,
  timeoutMs = 15_000,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let last = cpuTicks(pid);
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = cpuTicks(pid);
    if (now === undefined) return false;
    if (now !== last) {
      last = now;
      quietSince = Date.now();
    } else if (Date.now() - quietSince >= quietMs) return true;
  }
  return false;
}

/**
 * Whether `pid` ignores or catches each of `signals` (numbers), read from the SigIgn and SigCgt
 * masks of `/proc/<pid>/status`: a process has set its handlers up (no sleep needed to know).
 */
export function takesSignals(pid: number, signals: readonly number[]): boolean {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const mask = (name: string) =>
    BigInt(`0x${new RegExp(`^${name}:\\s*([0-9a-f]+)$`, "m").exec(status)?.[1] ?? "0"}`);
  const both = mask("SigIgn") | mask("SigCgt");
  return signals.every((number) => (both & (1n << BigInt(number - 1))) !== 0n);
}

/** Live children of `parent`, each with its command line (NULs as spaces). */
export function childrenOf(parent: number): { pid: number; cmdline: string }[] {
  const found: { pid: number; cmdline: string }[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] === "Z" || Number(fields[1]) !== parent) continue;
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8").replaceAll("\0", " ");
      found.push({ pid: Number(name), cmdline });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Whether `pid` is a live process (not gone, not a zombie). */
export function alive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return false;
  }
}
