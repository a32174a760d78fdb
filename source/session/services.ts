/**
 * The services a session holds, each made once per session: the model, the
 * permission rules, the tools, the hook registry, the MCP servers, the
 * plugins, the subagent types, the shell analyzer, and its place on the relay.
 */

import type { HookRegistry } from "../hooks/discover/registry.js";
import { loadHookRegistry } from "../hooks/discover/registry.js";
import type { PluginHost } from "../hooks/run/plugins/host.js";
import { RelayContextTracker } from "../hooks/run/plugins/relay-context.js";
import { createSessionPlugins } from "../hooks/run/plugins/session.js";
import { type CollectedServers, collectServers, withClientServers } from "../mcp/config.js";
import type { McpSession } from "../mcp/connect.js";
import type { SessionMemory } from "../memory/session.js";
import { type ResolvedModel, resolveModel } from "../models/resolve.js";
import type { ShellAnalyzer } from "../permissions/shell/analyze.js";
import { deferredShellAnalyzer } from "../permissions/shell/deferred.js";
import { type SessionPermissions, sessionPermissions } from "../permissions/sources.js";
import { openSessionRelay } from "../relay/session-open.js";
import type { SessionRelay } from "../relay/session-relay.js";
import type { LoadedAgents } from "../subagents/files.js";
import { loadSubagentTypes } from "../subagents/session.js";
import { type LoadedTools, loadTools } from "../tools/registry.js";
import type { SessionGround } from "./ground.js";
import { hookRegistrySettings } from "./hook-registry-settings.js";
import { pluginRelay } from "./relay-hooks.js";
import { startSpawnersAhead } from "./spawners-ahead.js";
import type { PrepareSessionOptions } from "./types.js";

export interface SessionServices {
  model: ResolvedModel;
  /** A subagent type's own `model`, resolved as a setting's is (relative to the project root). */
  resolveSubagentModel: (spec: string) => ResolvedModel;
  permissions: SessionPermissions;
  mcpServers: CollectedServers;
  /** Plugins run in worker threads of this process (hooks/run/plugins/), the project's only once trusted. */
  plugins: PluginHost | undefined;
  tools: LoadedTools;
  registry: HookRegistry;
  mcp: McpSession | undefined;
  subagentTypes: LoadedAgents;
  shell: ShellAnalyzer;
  /** agent-relay's HookContext state: recent output and messages (relay-shaped hooks read it). */
  relayContext: RelayContextTracker;
}

/** The model first (a bad one stops here), then the rest; what can load concurrently does. */
export async function startServices(
  ground: SessionGround,
  options: PrepareSessionOptions,
  memory: SessionMemory,
): Promise<SessionServices> {
  const [model, resolveSubagentModel] = sessionModel(ground, options);
  const { loaded } = ground.project;
  const permissions = sessionPermissions(
    loaded.settingsFiles.map((file) => ({
      path: file.path,
      scope: file.scope,
      ...(file.values.permissions === undefined ? {} : { permissions: file.values.permissions }),
    })),
    ground.includeProject,
    options.flags.permissions,
  );
  const mcpServers = withClientServers(
    collectServers({
      settingsFiles: loaded.settingsFiles,
      projectDir: ground.projectDir,
      includeProject: ground.includeProject,
    }),
    options.clientMcpServers ?? [],
  );
  const relayContext = new RelayContextTracker();
  const plugins = createSessionPlugins({
    relay: pluginRelay(relayContext, memory.forHooks),
    plugins: ground.project.scan.plugins,
    included: (scope) => scope === "user" || ground.includeProject,
    env: options.env,
    projectDir: ground.projectDir,
    openclaw: { agentDir: ground.project.paths.home, model: model.modelId },
    ...(loaded.user.plugins === undefined ? {} : { userPluginSettings: loaded.user.plugins }),
  });
  const loadedTogether = await loadTogether(ground, options, { mcpServers, plugins });
  // Interrupted while describing: the aborted steps were not cached, go no further.
  if (options.signal?.aborted) await loadedTogether.mcp?.close();
  options.signal?.throwIfAborted();
  return {
    model,
    resolveSubagentModel,
    permissions,
    mcpServers,
    plugins,
    relayContext,
    ...loadedTogether,
  };
}

/**
 * A `replay:FILE` from settings is relative to the project root, where trust pinned it
 * (hooks/discover/scan-pins.ts); one typed as --model is relative to where acai was started.
 */
function sessionModel(
  ground: SessionGround,
  { flags, env, cwd }: PrepareSessionOptions,
): [ResolvedModel, (spec: string) => ResolvedModel] {
  const baseUrl = flags.baseUrl ?? ground.settings.baseUrl;
  const model = resolveModel({
    spec: flags.model ?? ground.settings.model,
    baseUrl,
    env,
    cwd: flags.model !== undefined ? cwd : ground.projectDir,
  });
  return [model, (spec) => resolveModel({ spec, baseUrl, env, cwd: ground.projectDir })];
}

/** The hook registry of a session's ground, with its plugins (a session's, and `acai send`'s gate). */
export function loadGroundHookRegistry(
  ground: SessionGround,
  env: Readonly<Record<string, string>>,
  plugins: PluginHost | undefined,
): ReturnType<typeof loadHookRegistry> {
  const { project, includeProject } = ground;
  return loadHookRegistry(project.scan, {
    includeProject,
    runner: ground.describeRunner,
    env,
    acaiHome: project.paths.home,
    projectDir: ground.projectDir,
    ...hookRegistrySettings(project.loaded, includeProject),
    confirmedEnv: project.confirmedEnv,
    ...(plugins === undefined ? {} : { plugins }),
  });
}

/** Independent steps run together: start-up time matters for `acai -p`. */
async function loadTogether(
  ground: SessionGround,
  options: PrepareSessionOptions,
  made: { mcpServers: CollectedServers; plugins: PluginHost | undefined },
): Promise<Pick<SessionServices, "tools" | "registry" | "mcp" | "subagentTypes" | "shell">> {
  const { env } = options;
  const { projectDir, includeProject, describeRunner, project } = ground;
  const acaiHome = project.paths.home;
  const [tools, registry, mcp, subagentTypes, shell] = await Promise.all([
    loadTools({
      projectDir,
      includeProject,
      acaiHome,
      runner: describeRunner,
      env,
      confirmedEnv: project.confirmedEnv,
    }),
    loadGroundHookRegistry(ground, env, made.plugins).then((registry) => {
      // Their spawners start while the tools, MCP and the agent are still being set up.
      startSpawnersAhead(registry.hooks, ground.sandbox);
      return registry;
    }),
    connectMcp(ground, options, made.mcpServers),
    loadSubagentTypes({ acaiHome, projectDir, includeProject }),
    // Bash lines are judged from a parse: the grammar loads at the first permission check.
    deferredShellAnalyzer(async () =>
      (await import("../permissions/shell/parser.js")).loadShellAnalyzer({
        baselineOnly: options.shellGrammarBaselineOnly === true,
      }),
    ),
  ]);
  // A program's own callbacks (query()) join the hooks found in files.
  if (options.inProcessHooks) registry.hooks.push(...options.inProcessHooks);
  return { tools, registry, mcp, subagentTypes, shell };
}

/** The MCP client library is imported only when a server is configured. */
async function connectMcp(
  ground: SessionGround,
  options: PrepareSessionOptions,
  servers: CollectedServers,
): Promise<McpSession | undefined> {
  if (servers.active.length === 0) return undefined;
  const { connectMcpServers } = await import("../mcp/connect.js");
  const { sandbox } = ground.sandbox;
  return connectMcpServers({
    entries: servers.active,
    env: options.env,
    projectDir: ground.projectDir,
    launch: (target) => sandbox.wrapTarget(target, sandbox.toolsPolicy),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

/** Messages between agents (docs/messaging.md): a name on the relay, unless the settings turn it off. */
export function joinRelay(
  ground: SessionGround,
  options: PrepareSessionOptions,
  sessionId: string,
): Promise<{ relay?: SessionRelay; warnings: string[] }> {
  const { flags } = options;
  return openSessionRelay({
    acaiHome: ground.project.paths.home,
    env: options.env,
    homeDir: options.homeDir,
    loaded: ground.project.loaded,
    includeProject: ground.includeProject,
    projectDir: ground.projectDir,
    cwd: options.cwd,
    sessionId,
    ...(flags.agentName !== undefined ? { name: flags.agentName } : {}),
    listening: flags.listen === true,
  });
}
