/**
 * A session's plugin host, made only when there is a plugin to load: the
 * workers get the environment a hook gets (secrets removed, acai's project
 * variables) plus the containment marker, so a process a plugin starts is
 * found and stopped with everything else acai started.
 */
import { processContainment } from "../../process/containment.js";
import { withoutSecrets } from "../../process/secrets.js";
import type { HookScope } from "../definition.js";
import { PluginHost } from "./host.js";
import type { PluginCandidate } from "./load.js";

export interface SessionPluginsOptions {
  plugins: readonly PluginCandidate[];
  included: (scope: HookScope) => boolean;
  env: Readonly<Record<string, string>>;
  projectDir: string;
}

export function createSessionPlugins(options: SessionPluginsOptions): PluginHost | undefined {
  if (!options.plugins.some((p) => options.included(p.scope))) return undefined;
  const containment = processContainment();
  containment.beforeSpawn();
  const env = withoutSecrets(options.env);
  env.ACAI_PROJECT_DIR = options.projectDir;
  env.CLAUDE_PROJECT_DIR = options.projectDir;
  return new PluginHost({ env: containment.envFor(env, containment.nextRunId()) });
}
