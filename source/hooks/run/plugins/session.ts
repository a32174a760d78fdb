/**
 * A session's plugin host, made only when there is a plugin to load: the
 * workers get the environment a hook gets (secrets removed, acai's project
 * variables) plus the containment marker, so a process a plugin starts is
 * found and stopped with everything else acai started — and, where bwrap can
 * make one, starts in a PID namespace of its own (worker.ts), under the
 * session's sandbox policy when there is one.
 */
import path from "node:path";
import {
  CONTAINMENT_ARGS,
  CONTAINMENT_ONLY_ARGS,
  containmentInForce,
} from "../../../process/bwrap.js";
import { processContainment } from "../../../process/containment.js";
import { withoutSecrets } from "../../../process/secrets.js";
import type { SandboxLaunch } from "../../../process/types.js";
import type { HookScope } from "../../contract/definition.js";
import type { PluginCandidate } from "../../discover/plugins.js";
import { PluginHost } from "./host.js";
import type { OpenClawSession } from "./openclaw.js";
import type { PluginChildren, PluginRelay } from "./thread.js";

export interface SessionPluginsOptions {
  plugins: readonly PluginCandidate[];
  included: (scope: HookScope) => boolean;
  env: Readonly<Record<string, string>>;
  projectDir: string;
  /** The sandbox policy the plugins' children run under (default: containment only). */
  sandbox?: SandboxLaunch;
  /** What relay-shaped handlers' `ctx` reaches of the session. */
  relay?: PluginRelay;
  /** OpenClaw handlers' `agentDir` and `config.model`. */
  openclaw?: OpenClawSession;
  /** The user's own settings' `plugins` (never a project's): which user plugins run in acai's thread. */
  userPluginSettings?: Readonly<Record<string, { isolation: "worker" | "none" }>>;
}

/**
 * The user plugins set to `isolation: "none"` in the user's settings: files of
 * the user's plugin folder only — a project's plugin never runs in acai's thread.
 */
export function inProcessPlugins(
  plugins: readonly PluginCandidate[],
  settings: SessionPluginsOptions["userPluginSettings"],
): Set<string> {
  const files = new Set<string>();
  for (const plugin of plugins) {
    if (plugin.scope !== "user" || (plugin.kind ?? "plugin") !== "plugin") continue;
    if (settings?.[path.basename(plugin.file)]?.isolation === "none") files.add(plugin.file);
  }
  return files;
}

/** How plugins' children start: bwrap with the policy (or none) and containment, when bwrap works here. */
export function pluginChildren(sandbox?: SandboxLaunch): PluginChildren | undefined {
  const containment = containmentInForce();
  if (containment.kind !== "namespace") return undefined;
  const policy = sandbox?.bwrapArgs ?? CONTAINMENT_ONLY_ARGS;
  return { bwrap: containment.bwrap, prefix: [...policy, ...CONTAINMENT_ARGS] };
}

export function createSessionPlugins(options: SessionPluginsOptions): PluginHost | undefined {
  if (!options.plugins.some((p) => options.included(p.scope))) return undefined;
  const containment = processContainment();
  containment.beforeSpawn();
  const env = withoutSecrets(options.env);
  env.ACAI_PROJECT_DIR = options.projectDir;
  env.CLAUDE_PROJECT_DIR = options.projectDir;
  const children = pluginChildren(options.sandbox);
  return new PluginHost({
    inProcess: inProcessPlugins(options.plugins, options.userPluginSettings),
    env: containment.envFor(env, containment.nextRunId()),
    ...(children === undefined ? {} : { children }),
    ...(options.relay === undefined ? {} : { relay: options.relay }),
    ...(options.openclaw === undefined ? {} : { openclaw: options.openclaw }),
  });
}
