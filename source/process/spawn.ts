/**
 * What the runner (runner.ts) and the long-lived processes (long-lived.ts)
 * share: starting a child in its own process group carrying the containment
 * marker, killing its group, and saying plainly why a start failed.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { isDirectory } from "../shared/is-directory.js";
import type { SandboxLaunch } from "./types.js";

export interface SpawnTarget {
  command: string;
  args?: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string>>;
  /** Start it inside the OS sandbox (launch.ts); without it, directly. */
  sandbox?: SandboxLaunch;
}

/** Starts `target` as is (its env complete) in its own process group; `describeAs` names it in errors. */
export function spawnGroup(
  target: SpawnTarget,
  stdin: "pipe" | "ignore",
  describeAs: SpawnTarget = target,
):
  | { child: ChildProcess; runId: undefined; kill: (signal: NodeJS.Signals) => void }
  | { spawnError: string } {
  try {
    const child = spawn(target.command, target.args ?? [], {
      cwd: target.cwd,
      env: target.env,
      detached: true,
      stdio: [stdin, "pipe", "pipe"],
      windowsHide: true,
    });
    return { child, runId: undefined, kill: (signal) => killGroup(child.pid, signal) };
  } catch (error) {
    return { spawnError: describeSpawnError(error as NodeJS.ErrnoException, describeAs) };
  }
}

export function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

export function describeSpawnError(error: NodeJS.ErrnoException, run: SpawnTarget): string {
  const what = `cannot run "${run.command}"`;
  switch (error.code) {
    case "ENOENT": {
      if (!isDirectory(run.cwd)) return `${what}: working directory "${run.cwd}" does not exist`;
      if (run.command.includes("/") && isFile(run.command, run.cwd)) {
        return `${what}: its interpreter (the #! line) was not found`;
      }
      return `${what}: no such file or executable (check the path or PATH)`;
    }
    case "EACCES":
      return `${what}: permission denied (is the file executable? try chmod +x)`;
    default:
      return `${what}: ${error.message}`;
  }
}

function isFile(path: string, cwd: string): boolean {
  try {
    return statSync(resolve(cwd, path)).isFile();
  } catch {
    return false;
  }
}
