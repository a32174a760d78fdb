import { randomUUID } from "node:crypto";
import path from "node:path";
import { Agent } from "../agent/agent.js";
import type { RunInput } from "../agent/types.js";
import { resolveAcaiPaths } from "../config/paths.js";
import { type LoadedSettings, loadSettings, SettingsError } from "../config/settings.js";
import type { InterceptedEvent } from "../hooks/activity.js";
import type { BrokenHook } from "../hooks/definition.js";
import { createHookInterceptor, type HookInterceptor } from "../hooks/interceptor.js";
import {
  describeUntrusted,
  loadHookRegistry,
  scanHookSources,
  type UntrustedHook,
} from "../hooks/registry.js";
import { settingsHooksTypeError } from "../hooks/sources/settings.js";
import { isProjectTrusted, trustProject } from "../hooks/trust.js";
import { trackTurnSignals } from "../hooks/turn-signal.js";
import { resolveModel } from "../models/resolve.js";
import { runProcess } from "../process/runner.js";
import { withSignal } from "../process/with-signal.js";
import { loadTools } from "../tools/registry.js";
import { UntrustedProjectHooksError } from "./session-errors.js";
import type {
  PreparedSession,
  PrepareSessionOptions,
  ProjectTrustState,
  UntrustedHookInfo,
} from "./session-types.js";

/**
 * Loads the settings files; a `hooks` field that is not an object is a bad
 * settings file (SettingsError: exit 2, naming the file and the field), as the
 * loader does for other fields, rather than a broken (and untrusted) hook.
 */
async function loadCheckedSettings(acaiHome: string, projectDir: string): Promise<LoadedSettings> {
  const loaded = await loadSettings({ acaiHome, projectDir });
  for (const file of loaded.settingsFiles) {
    const problem = settingsHooksTypeError(file);
    if (problem !== undefined) throw new SettingsError(file.path, problem);
  }
  return loaded;
}

export interface CheckProjectTrustOptions {
  cwd: string;
  env: Readonly<Record<string, string>>;
  homeDir: string;
}

/** `<ACAI_HOME>/transcripts/<YYYY-MM-DD>-<sessionId>.jsonl` */
export function transcriptPathFor(transcriptsDir: string, sessionId: string, now: Date): string {
  return path.join(transcriptsDir, `${now.toISOString().slice(0, 10)}-${sessionId}.jsonl`);
}

/**
 * Everything a session needs, in order: settings → model → tools → hook scan →
 * trust → hook registry → Agent + interceptor. The REPL and `acai -p` both
 * drive the returned `run()`: there is one loop.
 */
export async function prepareSession(options: PrepareSessionOptions): Promise<PreparedSession> {
  const { cwd, env, homeDir, flags } = options;
  const paths = resolveAcaiPaths({ env, homeDir, cwd });
  const loaded = await loadCheckedSettings(paths.home, cwd);
  const settings = loaded.settings;
  const runner = runProcess;
  // The describe steps (hooks, dynamic tools) stop at once when the run is interrupted.
  const describeRunner = withSignal(runner, options.signal);

  // The model and the hook scan first (nothing of the project runs): a refusal for
  // untrusted hooks must come before any project code — dynamic tools included — is run.
  const resolved = resolveModel({
    spec: flags.model ?? settings.model,
    baseUrl: flags.baseUrl ?? settings.baseUrl,
    env,
    cwd,
  });
  const scan = await scanHookSources({
    projectDir: cwd,
    acaiHome: paths.home,
    homeDir,
    settingsFiles: loaded.settingsFiles,
  });

  let includeProject = false;
  if (scan.projectFingerprint !== null) {
    switch (flags.projectHooks) {
      case "off":
        includeProject = false;
        break;
      case "trust-once":
        includeProject = true;
        break;
      case "require-trust":
        includeProject = await isProjectTrusted({
          acaiHome: paths.home,
          projectDir: cwd,
          fingerprint: scan.projectFingerprint,
        });
        if (!includeProject) {
          throw new UntrustedProjectHooksError(cwd, describeUntrusted(scan).map(toUntrustedInfo));
        }
        break;
      default:
        return flags.projectHooks satisfies never;
    }
  }

  // Independent steps run together: start-up time matters for `acai -p`.
  const [tools, registry] = await Promise.all([
    loadTools({
      projectDir: cwd,
      includeProject,
      acaiHome: paths.home,
      runner: describeRunner,
      env,
    }),
    loadHookRegistry(scan, {
      includeProject,
      runner: describeRunner,
      env,
      acaiHome: paths.home,
      projectDir: cwd,
      ...(settings.hookDefaults?.timeoutMs !== undefined
        ? { defaultTimeoutMs: settings.hookDefaults.timeoutMs }
        : {}),
    }),
  ]);

  // Interrupted while describing: the aborted steps were not cached, go no further.
  options.signal?.throwIfAborted();
  const sessionId = randomUUID();
  const transcriptPath = transcriptPathFor(paths.transcriptsDir, sessionId, new Date());
  const agent = new Agent({
    model: resolved.model,
    modelId: resolved.modelId,
    tools: tools.tools,
    cwd,
    env,
    runner,
    sessionId,
    transcriptPath,
    ...((flags.maxSteps ?? settings.maxSteps)
      ? { maxSteps: flags.maxSteps ?? settings.maxSteps }
      : {}),
    ...(settings.hookDefaults?.maxStopBlocks
      ? { maxStopBlocks: settings.hookDefaults.maxStopBlocks }
      : {}),
  });
  const hookDefaults = settings.hookDefaults ?? {};
  const toolsByName = new Map(tools.tools.map((tool) => [tool.name, tool]));
  const brokenWarnings = registry.broken.map(brokenHookWarning);
  /** The interceptor of the latest run, for `notify` (its notifier is idle once that run ends). */
  let running: HookInterceptor | undefined;

  return {
    sessionId,
    modelId: resolved.modelId,
    cwd,
    acaiHome: paths.home,
    transcriptPath,
    ...(hookDefaults.sessionEndBudgetMs !== undefined
      ? { sessionEndBudgetMs: hookDefaults.sessionEndBudgetMs }
      : {}),
    hooks: { loaded: registry.hooks, broken: registry.broken, projectHooksEnabled: includeProject },
    warnings: [...loaded.warnings, ...tools.warnings, ...registry.warnings, ...brokenWarnings],
    notify: (message, notificationType) =>
      running ? running.notify(message, notificationType) : Promise.resolve([]),
    run(input: RunInput): AsyncGenerator<InterceptedEvent, void, undefined> {
      // The agent knows nothing of hooks: the interceptor learns the running turn from its prompts.
      const turns = trackTurnSignals(input.prompts);
      const intercept = createHookInterceptor({
        hooks: registry.hooks,
        runner,
        env,
        projectDir: cwd,
        acaiHome: paths.home,
        signal: input.signal,
        turnSignal: turns.current,
        ...(options.askUser ? { askUser: options.askUser } : {}),
        assumeYes: flags.assumeYes ?? false,
        ...(hookDefaults.contextCapChars ? { contextCapChars: hookDefaults.contextCapChars } : {}),
        ...(hookDefaults.sessionEndBudgetMs !== undefined
          ? { sessionEndBudgetMs: hookDefaults.sessionEndBudgetMs }
          : {}),
        onNotification: (event) => agent.record(event),
        validateToolInput: (toolName: string, toolInput: unknown) => {
          const tool = toolsByName.get(toolName);
          return tool ? tool.validate(toolInput) : { ok: true, value: toolInput };
        },
      });
      running = intercept;
      return intercept(agent.run({ ...input, prompts: turns.prompts }));
    },
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

/** Whether this project's hooks may run, without running anything. */
export async function checkProjectTrust(
  options: CheckProjectTrustOptions,
): Promise<ProjectTrustState> {
  const paths = resolveAcaiPaths({ env: options.env, homeDir: options.homeDir, cwd: options.cwd });
  const loaded = await loadCheckedSettings(paths.home, options.cwd);
  const scan = await scanHookSources({
    projectDir: options.cwd,
    acaiHome: paths.home,
    homeDir: options.homeDir,
    settingsFiles: loaded.settingsFiles,
  });
  const fingerprint = scan.projectFingerprint;
  const where = { acaiHome: paths.home, projectDir: options.cwd };
  if (fingerprint === null) {
    return { status: "no-project-hooks", untrusted: [], trust: async () => {} };
  }
  const untrusted = describeUntrusted(scan).map(toUntrustedInfo);
  const trusted = await isProjectTrusted({ ...where, fingerprint });
  return {
    status: trusted ? "trusted" : "untrusted",
    untrusted,
    trust: async () => {
      await trustProject({ ...where, fingerprint });
    },
  };
}

function toUntrustedInfo(hook: UntrustedHook): UntrustedHookInfo {
  return {
    ...(hook.sourceKind === "tool" ? { kind: "tool" as const } : {}),
    name: hook.name,
    file: hook.file,
    events: hook.events,
    command: hook.command,
    ...(hook.matcher !== undefined ? { matcher: hook.matcher } : {}),
    ...(hook.note !== undefined ? { note: hook.note } : {}),
    ...(hook.problem !== undefined ? { problem: hook.problem } : {}),
  };
}
