/**
 * Starting one child for the runner and the long-lived starter: marked with
 * acai's containment marker and a fresh run id (containment.ts), then either
 * in its own process group — through the spawn helper when there is one and
 * it is ready (spawn-helper.ts), else directly (spawn.ts) — or, when the run
 * names a sandbox, inside it in a PID namespace of its own
 * (sandbox-launch.ts). The marker is kept inside the sandbox too: the host
 * sees the sandbox's processes, so a stopped run's escapees are still swept
 * by their run id.
 */
import type { Containment } from "./containment.js";
import type { SpawnOutcome } from "./handle.js";
import type { SandboxLauncher } from "./sandbox-launch.js";
import { type SpawnTarget, spawnGroup } from "./spawn.js";
import type { SpawnHelper } from "./spawn-helper.js";

export interface LaunchOptions {
  containment?: Containment | undefined;
  stdin: "pipe" | "ignore";
  sandbox?: SandboxLauncher | undefined;
  /** Forks unsandboxed children for acai (default: none, acai forks them itself). */
  helper?: SpawnHelper | undefined;
  /** A one-shot run's stdin: a spawner writes it itself (the handle then has no stdin). */
  stdinText?: string | undefined;
}

export function launchMarked(
  target: SpawnTarget,
  options: LaunchOptions,
): SpawnOutcome | Promise<SpawnOutcome> {
  const { containment } = options;
  const runId = containment?.nextRunId();
  // A sandboxed child starts in bwrap's PID namespace, which dies with acai: no watchdog needed for it.
  containment?.beforeSpawn(target.sandbox === undefined ? "host" : "namespace");
  const env =
    containment && runId !== undefined ? containment.envFor(target.env, runId) : target.env;
  const started = startMarked({ ...target, env }, options);
  const withRunId = (outcome: SpawnOutcome): SpawnOutcome =>
    "spawnError" in outcome ? outcome : { ...outcome, runId };
  if (!(started instanceof Promise)) return withRunId(started);
  return started.then((outcome) => {
    // A helper or spawner that died after forking but before saying the pid: acai never
    // learned the child's group, so what carries this run's marker is killed instead.
    if ("spawnError" in outcome && runId !== undefined) containment?.sweepRun(runId);
    return withRunId(outcome);
  });
}

function startMarked(
  target: SpawnTarget,
  options: LaunchOptions,
): SpawnOutcome | Promise<SpawnOutcome> {
  const input = options.stdinText === undefined ? options.stdin : { text: options.stdinText };
  const launch = target.sandbox;
  if (launch === undefined) {
    return options.helper?.start(target, input) ?? spawnGroup(target, options.stdin);
  }
  if (options.sandbox === undefined) {
    return { spawnError: `cannot run "${target.command}" in the sandbox: this runner has none` };
  }
  return options.sandbox.start(target, launch, input);
}
