/**
 * The process runner of the toolkit's commands: the real one, starting
 * TypeScript hooks with the Node acai runs on (hooks/typescript-launch.ts),
 * as a session does.
 */
import type { NodeRuntime } from "../../hooks/typescript-launch.js";
import type { ProcessRunner } from "../../process/types.js";

/** The Node running acai: TypeScript hooks run with it. */
export function acaiNode(): NodeRuntime {
  return { execPath: process.execPath, version: process.version };
}

export async function hookProcessRunner(node: NodeRuntime = acaiNode()): Promise<ProcessRunner> {
  const [{ runProcess }, { withOwnNodeForTypeScript }] = await Promise.all([
    import("../../process/runner.js"),
    import("../../hooks/typescript-launch.js"),
  ]);
  return withOwnNodeForTypeScript(runProcess, node);
}
