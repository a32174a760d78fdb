import { randomUUID } from "node:crypto";
import path from "node:path";
import { Agent, DEFAULT_MAX_STOP_BLOCKS } from "../agent/agent.js";
import { contextWindowFor } from "../agent/compaction/context-window.js";
import type { SentMessage } from "../agent/events.js";
import { composeSystemPrompt } from "../agent/system-prompt.js";
import type { RunInput } from "../agent/types.js";
import { effectiveSettings } from "../config/effective-settings.js";
import type { HookDefaults } from "../config/settings.js";
import type { InterceptedEvent } from "../hooks/activity.js";
import type { BrokenHook } from "../hooks/definition.js";
import {
  createHookInterceptor,
  DEFAULT_SESSION_END_BUDGET_MS,
  type HookInterceptor,
} from "../hooks/interceptor.js";
import { createSessionPlugins } from "../hooks/plugins/session.js";
import { loadHookRegistry } from "../hooks/registry.js";
import { DEFAULT_CONTEXT_CAP_CHARS } from "../hooks/step.js";
import { trackTurnSignals } from "../hooks/turn-signal.js";
import {
  withOwnNodeForTypeScript,
  withOwnNodeForTypeScriptStarter,
} from "../hooks/typescript-launch.js";
import { collectServers } from "../mcp/config.js";
import { sessionMemory } from "../memory/session.js";
import { resolveModel } from "../models/resolve.js";
import { builtinNamespaces } from "../patterns/namespaces.js";
import { loadShellAnalyzer } from "../permissions/shell/parser.js";
import { sessionPermissions } from "../permissions/sources.js";
import { startProcess } from "../process/long-lived.js";
import { runProcess } from "../process/runner.js";
import { withSignal } from "../process/with-signal.js";
import { openSessionRelay } from "../relay/session-open.js";
import { sendingRelayLines } from "../relay/session-output.js";
import { defined } from "../shared/defined.js";
import { subagentTaskTool } from "../subagents/run.js";
import { loadSubagentTypes } from "../subagents/session.js";
import { loadTools } from "../tools/registry.js";
import { assessProject } from "./assessment.js";
import { hookRegistrySettings } from "./hook-registry-settings.js";
import { loadInstructions } from "./instructions.js";
import { sessionPermissionPolicy } from "./permission-policy.js";
import { findSessionToResume } from "./resume/find.js";
import { setUpSandbox } from "./sandbox.js";
import { createSessionEnvFiles, createShellEnvReader, sessionEnvDir } from "./shell-env.js";
import { decideProjectInclusion, projectLeftOut } from "./trust.js";
import type { PreparedSession, PrepareSessionOptions } from "./types.js";

/** `<ACAI_HOME>/transcripts/<YYYY-MM-DD>-<sessionId>.jsonl` */
export function transcriptPathFor(transcriptsDir: string, sessionId: string, now: Date): string {
  return path.join(transcriptsDir, `${now.toISOString().slice(0, 10)}-${sessionId}.jsonl`);
}

/**
 * Everything a session needs, in order: project root, settings and hook scan
 * (nothing of the project runs) → trust → effective settings → model → tools ∥
 * hook registry → Agent + interceptor. The REPL and `acai -p` both drive the
 * returned `run()`: there is one loop.
 */
export async function prepareSession(options: PrepareSessionOptions): Promise<PreparedSession> {
  const { cwd, env, homeDir, flags } = options;
  const project = await assessProject({
    cwd,
    env,
    homeDir,
    includeProject: flags.projectHooks !== "off",
  });
  const { paths, loaded, scan } = project;
  const projectDir = project.root.dir;
  const includeProject = decideProjectInclusion(
    project,
    flags.projectHooks,
    options.projectSetTaken,
  );
  // --continue / --resume: found (or refused) before anything starts.
  const resumed =
    flags.resume === undefined
      ? undefined
      : findSessionToResume(flags.resume, { transcriptsDir: paths.transcriptsDir, projectDir });
  const settings = effectiveSettings(loaded, includeProject, {
    contextCapChars: DEFAULT_CONTEXT_CAP_CHARS,
    maxStopBlocks: DEFAULT_MAX_STOP_BLOCKS,
    sessionEndBudgetMs: DEFAULT_SESSION_END_BUDGET_MS,
  });
  // TypeScript hooks and tools run with the Node acai runs on, not PATH's (hooks/typescript-launch.ts),
  // inside the OS sandbox when it runs here (session/sandbox.ts; docs/security.md).
  const ownNode = { execPath: process.execPath, version: process.version };
  const sandbox = setUpSandbox({
    loaded,
    includeProject,
    paths,
    projectDir,
    homeDir,
    env,
    manifest: scan.projectManifest,
    wrap: (launching) => ({
      runner: withOwnNodeForTypeScript(launching.runner(runProcess), ownNode),
      starter: withOwnNodeForTypeScriptStarter(launching.starter(startProcess), ownNode),
    }),
  });
  const runner = sandbox.toolRunner;
  // The describe steps (hooks, dynamic tools) stop at once when the run is interrupted.
  const describeRunner = withSignal(sandbox.describeRunner, options.signal);
  // A `replay:FILE` from settings is relative to the project root, where trust pinned it
  // (hooks/scan-pins.ts); one typed as --model is relative to where acai was started.
  const resolved = resolveModel({
    spec: flags.model ?? settings.model,
    baseUrl: flags.baseUrl ?? settings.baseUrl,
    env,
    cwd: flags.model !== undefined ? cwd : projectDir,
  });

  const permissions = sessionPermissions(
    loaded.settingsFiles.map((file) => ({
      path: file.path,
      scope: file.scope,
      ...(file.values.permissions === undefined ? {} : { permissions: file.values.permissions }),
    })),
    includeProject,
    flags.permissions,
  );
  const mcpServers = collectServers({
    settingsFiles: loaded.settingsFiles,
    projectDir,
    includeProject,
  });
  // Plugins run in worker threads of this process (hooks/plugins/), the project's only once trusted.
  const plugins = createSessionPlugins({
    plugins: scan.plugins,
    included: (scope) => scope === "user" || includeProject,
    env,
    projectDir,
  });
  // Independent steps run together: start-up time matters for `acai -p`.
  // Bash lines are judged from a parse: the grammar loads beside the rest.
  const [tools, registry, mcp, subagentTypes, shell] = await Promise.all([
    loadTools({
      projectDir,
      includeProject,
      acaiHome: paths.home,
      runner: describeRunner,
      env,
      confirmedEnv: project.confirmedEnv,
    }),
    loadHookRegistry(scan, {
      includeProject,
      runner: describeRunner,
      env,
      acaiHome: paths.home,
      projectDir,
      ...hookRegistrySettings(loaded, includeProject),
      confirmedEnv: project.confirmedEnv,
      ...(plugins === undefined ? {} : { plugins }),
    }),
    // The MCP client library is imported only when a server is configured.
    mcpServers.active.length === 0
      ? undefined
      : import("../mcp/connect.js").then(({ connectMcpServers }) =>
          connectMcpServers({
            entries: mcpServers.active,
            env,
            projectDir,
            launch: (target) => sandbox.sandbox.wrapTarget(target, sandbox.sandbox.toolsPolicy),
            ...(options.signal ? { signal: options.signal } : {}),
          }),
        ),
    loadSubagentTypes({ acaiHome: paths.home, projectDir, includeProject }),
    loadShellAnalyzer(),
  ]);

  // Interrupted while describing: the aborted steps were not cached, go no further.
  if (options.signal?.aborted) await mcp?.close();
  options.signal?.throwIfAborted();
  const sessionId = resumed?.sessionId ?? randomUUID();
  const transcriptPath =
    resumed?.file ?? transcriptPathFor(paths.transcriptsDir, sessionId, new Date());
  // session_start hooks' CLAUDE_ENV_FILE: what they export there, the Bash tool gets.
  const envFiles = await createSessionEnvFiles(
    sessionEnvDir(paths.home, sessionId),
    registry.hooks,
  );
  const agentTools = mcp ? [...tools.tools, ...mcp.tools] : tools.tools;
  const agentOptions = {
    model: resolved.model,
    modelId: resolved.modelId,
    sandbox: sandbox.info,
    cwd,
    env,
    ...(envFiles.size > 0 ? { shellEnv: createShellEnvReader([...envFiles.values()], env) } : {}),
    runner,
    permissions: sessionPermissionPolicy({
      permissions,
      acaiHome: paths.home,
      homeDir,
      projectDir,
      cwd,
      manifest: scan.projectManifest.entries,
      shell,
      autoAllowSandboxedBash: sandbox.sandbox.autoAllowBash,
    }),
    sessionId,
    transcriptPath,
    ...((flags.maxSteps ?? settings.maxSteps)
      ? { maxSteps: flags.maxSteps ?? settings.maxSteps }
      : {}),
    maxStopBlocks: settings.maxStopBlocks,
  };
  // The Task tool runs subagents with the session's own tools and limits (subagents/run.ts).
  const taskTool = subagentTaskTool({
    ...agentOptions,
    tools: agentTools,
    definitions: subagentTypes.definitions,
    resolveModel: (spec) =>
      resolveModel({ spec, baseUrl: flags.baseUrl ?? settings.baseUrl, env, cwd: projectDir }),
  });
  const sessionTools = [...agentTools, taskTool];
  const instructions = loadInstructions({ acaiHome: paths.home, projectDir, includeProject });
  const systemPrompt = composeSystemPrompt(
    { cwd, tools: sessionTools },
    {
      instructions: instructions.sections,
      ...defined("replace", flags.systemPrompt ?? settings.systemPrompt),
      ...defined("append", flags.appendSystemPrompt ?? settings.appendSystemPrompt),
    },
  );
  const agent = new Agent({
    ...agentOptions,
    tools: sessionTools,
    systemPrompt,
    ...defined("contextWindow", contextWindowFor(resolved.modelId, settings.contextWindow)),
    // The conversation of the session picked up again (not the subagents').
    ...(resumed ? { resume: { messages: resumed.messages, parentUuid: resumed.lastUuid } } : {}),
  });
  // Messages between agents (docs/messaging.md): a name on the relay, unless the settings turn it off.
  const relayJoin = await openSessionRelay({
    acaiHome: paths.home,
    env,
    homeDir,
    loaded,
    includeProject,
    projectDir,
    cwd,
    sessionId,
    ...(flags.agentName !== undefined ? { name: flags.agentName } : {}),
    listening: flags.listen === true,
  });
  const relay = relayJoin.relay;
  const toolsByName = new Map(
    [...tools.tools, ...(mcp?.tools ?? []), taskTool].map((tool) => [tool.name, tool]),
  );
  const brokenWarnings = registry.broken.map(brokenHookWarning);
  // Built-in pattern namespaces (`@memory:`); the store opens on first use.
  const memory = sessionMemory({ acaiHome: paths.home, projectDir, settings: settings.memory });
  /** The interceptor of the latest run, for `notify` (its notifier is idle once that run ends). */
  let running: HookInterceptor | undefined;

  return {
    sessionId,
    modelId: resolved.modelId,
    cwd,
    projectDir,
    settings: {
      ...(settings.baseUrl !== undefined ? { baseUrl: settings.baseUrl } : {}),
      ...(settings.pricing !== undefined ? { pricing: settings.pricing } : {}),
    },
    acaiHome: paths.home,
    transcriptPath,
    permissionMode: permissions.mode,
    sessionEndBudgetMs: settings.sessionEndBudgetMs,
    hooks: {
      loaded: registry.hooks,
      broken: registry.broken,
      projectHooksEnabled: includeProject,
      projectSet: scan.projectFingerprint,
    },
    sandboxLine: sandbox.startLine,
    warnings: [
      ...loaded.warnings,
      ...sandbox.sandbox.warnings,
      ...projectLeftOut(project, includeProject),
      ...permissions.warnings,
      ...tools.warnings,
      ...subagentTypes.warnings,
      ...mcpServers.warnings,
      ...(mcp?.warnings ?? []),
      ...registry.warnings,
      ...brokenWarnings,
      ...instructions.warnings,
      ...(resumed?.warnings ?? []),
      ...relayJoin.warnings,
    ],
    ...(relay ? { relay } : {}),
    notify: (message, notificationType) =>
      running ? running.notify(message, notificationType) : Promise.resolve([]),
    run(input: RunInput): AsyncGenerator<InterceptedEvent, void, undefined> {
      // The agent knows nothing of hooks: the interceptor learns the running turn from its prompts.
      const turns = trackTurnSignals(input.prompts);
      const intercept = createHookInterceptor({
        hooks: registry.hooks,
        fingerprints: registry.fingerprints,
        runner,
        launchFor: (hook) => sandbox.launchFor(hook),
        env,
        projectDir,
        envFiles,
        acaiHome: paths.home,
        signal: input.signal,
        turnSignal: turns.current,
        ...(options.askUser ? { askUser: options.askUser } : {}),
        assumeYes: flags.assumeYes ?? false,
        permissionMode: permissions.mode,
        contextCapChars: settings.contextCapChars,
        unlimitedInjection: settings.capabilities.unlimitedInjection === true,
        ...(settings.idleMs === undefined ? {} : { idleMs: settings.idleMs }),
        patternNamespaces: builtinNamespaces(memory.namespace ? [memory.namespace] : []),
        ...(memory.startContext ? { startContext: memory.startContext } : {}),
        // agent-relay's sendMessage answers go out through this session's relay.
        ...(relay
          ? {
              onSendMessage: async ({ to, content }) => {
                announceSent(await relay.send(to, content));
              },
            }
          : {}),
        sessionEndBudgetMs: settings.sessionEndBudgetMs,
        // acai's own resource limits: the user's settings only (a project's could starve the user's hooks).
        ...asyncHookLimits(loaded.user.hookDefaults),
        ...(plugins === undefined ? {} : { plugins }),
        onNotification: (event) => agent.record(event),
        validateToolInput: (toolName: string, toolInput: unknown) => {
          const tool = toolsByName.get(toolName);
          return tool ? tool.validate(toolInput) : { ok: true, value: toolInput };
        },
      });
      running = intercept;
      const source = input.source ?? (resumed ? "resume" : "startup");
      /** message_sent: in the transcript, and its hooks beside the loop. */
      function announceSent(message: SentMessage): void {
        const event = { type: "message_sent", message } as const;
        agent.record(event);
        void intercept.raise(event);
      }
      const inbox = input.inbox ?? relay?.inbox;
      const intercepted = intercept(
        agent.run({ ...input, source, prompts: turns.prompts, ...(inbox ? { inbox } : {}) }),
      );
      const events = relay
        ? sendingRelayLines(intercepted, { relay, sent: announceSent })
        : intercepted;
      return closingAfter(events, async () => {
        memory.close();
        await Promise.all([mcp?.close(), relay?.close()]);
        sandbox.sandbox.close();
      });
    },
  };
}

/** The session's events, then `close` (the MCP clients) once they end, however they end. */
async function* closingAfter<T>(
  events: AsyncGenerator<T, void, undefined>,
  close: () => Promise<void>,
): AsyncGenerator<T, void, undefined> {
  try {
    yield* events;
  } finally {
    await close();
  }
}

/** `maxAsyncHooks` / `asyncQueueLimit` of a hookDefaults section, those that are set. */
function asyncHookLimits(defaults: HookDefaults | undefined): {
  maxAsyncHooks?: number;
  asyncQueueLimit?: number;
} {
  return {
    ...(defaults?.maxAsyncHooks === undefined ? {} : { maxAsyncHooks: defaults.maxAsyncHooks }),
    ...(defaults?.asyncQueueLimit === undefined
      ? {}
      : { asyncQueueLimit: defaults.asyncQueueLimit }),
  };
}

/** "hook NAME (FILE) is not loaded: REASON", without repeating the name the reason may start with. */
export function brokenHookWarning(broken: BrokenHook): string {
  const name = broken.name ?? path.basename(broken.file);
  const reason = broken.reason.startsWith(`${name}: `)
    ? broken.reason.slice(name.length + 2)
    : broken.reason;
  return `hook ${name} (${broken.file}) is not loaded: ${reason}`;
}
