/**
 * The CPU time a running process and its descendants have used so far, read
 * from Linux's `/proc/<pid>/task/<tid>/schedstat` (nanoseconds on the CPU, per
 * thread): `mainThread` is the process's main thread alone (the start-up's
 * critical path), `tree` every thread of it and of every process below it
 * (sandbox spawners, the watchdog, hooks — what competes with it for the
 * cores). Read while the processes still run (a child's CPU is not in its
 * parent's rusage until it is reaped, and acai's sandbox processes never are
 * by it). Undefined where there is no such /proc.
 */
import { readdirSync, readFileSync } from "node:fs";

export interface TreeCpu {
  mainThread: number;
  tree: number;
}

function parentOf(pid: string): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined; // gone meanwhile
  }
}

function threadsMs(pid: number): Map<number, number> {
  const byThread = new Map<number, number>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const line = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8");
      byThread.set(Number(tid), Number(line.split(" ")[0]) / 1e6);
    }
  } catch {
    // gone meanwhile
  }
  return byThread;
}

/** CPU milliseconds of `root`'s main thread and of its whole process tree, now. */
export function treeCpuMs(root: number): TreeCpu | undefined {
  if (process.platform !== "linux") return undefined;
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const parent = parentOf(name);
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
  }
  let mainThread = 0;
  let tree = 0;
  const stack = [root];
  for (let pid = stack.pop(); pid !== undefined; pid = stack.pop()) {
    for (const [tid, ms] of threadsMs(pid)) {
      tree += ms;
      if (tid === root) mainThread = ms;
    }
    stack.push(...(children.get(pid) ?? []));
  }
  return { mainThread, tree };
}
