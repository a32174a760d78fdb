import { execFileSync } from "node:child_process";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Decision } from "../../source/hooks/contract/decision.js";
import type { HookDefinition } from "../../source/hooks/contract/definition.js";
import type { HookRunRecord } from "../../source/hooks/run/run.js";

export { runProcess as runner } from "../../source/process/runner.js";

let counter = 0;

/** A hook definition with test defaults; `launch` runs `script` directly. */
export function makeHook(overrides: Partial<HookDefinition> = {}): HookDefinition {
  counter++;
  const name = overrides.name ?? `hook-${counter}`;
  return {
    id: overrides.id ?? `user:executable:/hooks/${name}`,
    name,
    events: ["before_tool"],
    matcher: {},
    priority: 100,
    timeoutMs: 10_000,
    async: false,
    failure: "open",
    env: [],
    scope: "user",
    sourceKind: "executable",
    file: `/hooks/${name}`,
    dialect: "acai",
    launch: { command: "/bin/true", args: [], viaShell: false },
    ...overrides,
  };
}

export interface TempDir {
  path: string;
  cleanup(): Promise<void>;
}

export async function tempDir(prefix = "acai-hooks-"): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
}

/** Writes an executable bash script and returns its path. */
export async function writeScript(dir: string, name: string, body: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, `#!/bin/bash\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}

/** Hooks whose launch runs the script at `path`. */
export function scriptHook(path: string, overrides: Partial<HookDefinition> = {}): HookDefinition {
  return makeHook({
    launch: { command: path, args: [], viaShell: false },
    file: path,
    ...overrides,
  });
}

/** Command lines of live processes containing `marker`. */
function processesWith(marker: string): string[] {
  const out = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" });
  return out.split("\n").filter((line) => line.includes(marker) && !line.includes("ps -eo"));
}

/**
 * Processes with `marker` still alive after up to `withinMs` (a SIGKILLed
 * process needs to be scheduled once to die; on a loaded machine that is not
 * instant). Empty when they are all gone.
 */
export async function survivorsOf(marker: string, withinMs = 2000): Promise<string[]> {
  const deadline = performance.now() + withinMs;
  for (;;) {
    const alive = processesWith(marker);
    if (alive.length === 0 || performance.now() > deadline) return alive;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export function uniqueMarker(): string {
  return `acai-marker-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/** A run record around a decision, for fold tests that start no process. */
export function fakeRecord(decision: Decision, extra: Partial<HookRunRecord> = {}): HookRunRecord {
  return {
    hookId: "fake",
    event: "before_tool",
    stdin: "{}",
    command: "/bin/true",
    args: [],
    exitCode: 0,
    signal: null,
    stdout: "",
    stderr: "",
    durationMs: 1,
    timedOut: false,
    aborted: false,
    outputLimit: false,
    decision,
    ...extra,
  };
}
