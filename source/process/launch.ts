/**
 * Starting one child for the runner and the long-lived starter: marked with
 * acai's containment marker and a fresh run id (containment.ts), then either
 * directly in its own process group (spawn.ts) or, when the run names a
 * sandbox, inside it in a PID namespace of its own (sandbox-launch.ts). The
 * marker is kept inside the sandbox too: the host sees the sandbox's
 * processes, so a stopped run's escapees are still swept by their run id.
 */
import type { Containment } from "./containment.js";
import type { SpawnOutcome } from "./handle.js";
import type { SandboxLauncher } from "./sandbox-launch.js";
import { type SpawnTarget, spawnMarked } from "./spawn.js";

export function launchMarked(
  target: SpawnTarget,
  containment: Containment | undefined,
  stdin: "pipe" | "ignore",
  sandbox: SandboxLauncher | undefined,
  /** A one-shot run's stdin: a sandbox spawner writes it itself (the handle then has no stdin). */
  stdinText?: string,
): SpawnOutcome | Promise<SpawnOutcome> {
  const launch = target.sandbox;
  if (launch === undefined) return spawnMarked(target, containment, stdin);
  if (sandbox === undefined) {
    return { spawnError: `cannot run "${target.command}" in the sandbox: this runner has none` };
  }
  const runId = containment?.nextRunId();
  containment?.beforeSpawn();
  const env =
    containment && runId !== undefined ? containment.envFor(target.env, runId) : target.env;
  const input = stdinText === undefined ? stdin : { text: stdinText };
  const started = sandbox.start({ ...target, env }, launch, input);
  return started.then((outcome) => ("spawnError" in outcome ? outcome : { ...outcome, runId }));
}
