/**
 * The process runner of the toolkit's commands: the real one, starting
 * TypeScript hooks with the Node acai runs on (hooks/run/typescript-launch.ts),
 * as a session does.
 */
import type { PersistentHooks } from "../../hooks/run/persistent/types.js";
import type { NodeRuntime } from "../../hooks/run/typescript-launch.js";
import type { ProcessRunner } from "../../process/types.js";

/** The Node running acai: TypeScript hooks run with it. */
export function acaiNode(): NodeRuntime {
  return { execPath: process.execPath, version: process.version };
}

export async function hookProcessRunner(node: NodeRuntime = acaiNode()): Promise<ProcessRunner> {
  const [{ runProcess }, { withOwnNodeForTypeScript }] = await Promise.all([
    import("../../process/runner.js"),
    import("../../hooks/run/typescript-launch.js"),
  ]);
  return withOwnNodeForTypeScript(runProcess, node);
}

/**
 * Persistent hooks for a toolkit command: a process started for one request
 * and stopped after it (`acai hooks test` on a persistent hook).
 */
export async function oneRequestPersistentHooks(options: {
  env: Readonly<Record<string, string>>;
  projectDir: string;
  sessionId: string;
  node?: NodeRuntime;
}): Promise<PersistentHooks> {
  const [{ startProcess }, { withOwnNodeForTypeScriptStarter }, { createPersistentHost }] =
    await Promise.all([
      import("../../process/long-lived.js"),
      import("../../hooks/run/typescript-launch.js"),
      import("../../hooks/run/persistent/host.js"),
    ]);
  const starter = withOwnNodeForTypeScriptStarter(startProcess, options.node ?? acaiNode());
  return {
    async request(request) {
      const host = createPersistentHost({
        starter,
        env: options.env,
        projectDir: options.projectDir,
        sessionId: () => options.sessionId,
      });
      try {
        return await host.request(request);
      } finally {
        await host.stop(STOP_GRACE_MS);
      }
    },
  };
}

/** How long `acai hooks test` lets a persistent hook finish after its answer. */
const STOP_GRACE_MS = 1000;
