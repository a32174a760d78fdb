/**
 * What the runner (runner.ts) and the long-lived processes (long-lived.ts)
 * share: starting a child in its own process group carrying the containment
 * marker, killing its group, and saying plainly why a start failed.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { Containment } from "./containment.js";

export interface SpawnTarget {
  command: string;
  args?: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string>>;
}

export type Spawned = { child: ChildProcess; runId: string | undefined } | { spawnError: string };

/** Starts `target` in its own process group, stdout/stderr piped, marked with a fresh run id. */
export function spawnMarked(
  target: SpawnTarget,
  containment: Containment | undefined,
  stdin: "pipe" | "ignore",
): Spawned {
  const runId = containment?.nextRunId();
  try {
    containment?.beforeSpawn();
    const child = spawn(target.command, target.args ?? [], {
      cwd: target.cwd,
      env: containment && runId !== undefined ? containment.envFor(target.env, runId) : target.env,
      detached: true,
      stdio: [stdin, "pipe", "pipe"],
      windowsHide: true,
    });
    return { child, runId };
  } catch (error) {
    return { spawnError: describeSpawnError(error as NodeJS.ErrnoException, target) };
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

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
