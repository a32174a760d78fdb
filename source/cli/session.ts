import { randomUUID } from "node:crypto";
import path from "node:path";
import { Agent } from "../agent/agent.js";
import type { RunInput } from "../agent/types.js";
import { resolveAcaiPaths } from "../config/paths.js";
import { loadSettings } from "../config/settings.js";
import type { InterceptedEvent } from "../hooks/activity.js";
import { createHookInterceptor } from "../hooks/interceptor.js";
import { describeUntrusted, loadHookRegistry, scanHookSources } from "../hooks/registry.js";
import { isProjectTrusted, trustProject } from "../hooks/trust.js";
import { resolveModel } from "../models/resolve.js";
import { runProcess } from "../process/runner.js";
import { loadTools } from "../tools/registry.js";
import { UntrustedProjectHooksError } from "./session-errors.js";
import type { PreparedSession, PrepareSessionOptions, ProjectTrustState } from "./session-types.js";

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
  const loaded = await loadSettings({ acaiHome: paths.home, projectDir: cwd });
  const settings = loaded.settings;
  const runner = runProcess;

  // Independent steps run together: start-up time matters for `acai -p`.
  const [resolved, tools, scan] = await Promise.all([
    resolveModel({
      spec: flags.model ?? settings.model,
      baseUrl: flags.baseUrl ?? settings.baseUrl,
      env,
      cwd,
    }),
    loadTools({ projectDir: cwd, acaiHome: paths.home, runner, env }),
    scanHookSources({
      projectDir: cwd,
      acaiHome: paths.home,
      homeDir,
      settingsFiles: loaded.settingsFiles,
    }),
  ]);

  const untrusted = describeUntrusted(scan);
  let includeProject = false;
  if (untrusted.length > 0) {
    switch (flags.projectHooks) {
      case "off":
        includeProject = false;
        break;
      case "trust-once":
        includeProject = true;
        break;
      case "require-trust":
        includeProject = await isProjectTrusted(scan, { acaiHome: paths.home });
        if (!includeProject) throw new UntrustedProjectHooksError(cwd, untrusted);
        break;
      default:
        return flags.projectHooks satisfies never;
    }
  }

  const registry = await loadHookRegistry(scan, {
    includeProject,
    runner,
    env,
    acaiHome: paths.home,
    projectDir: cwd,
  });

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
  const toolsByName = new Map(tools.tools.map((tool) => [tool.name, tool]));
  const brokenWarnings = registry.broken.map(
    (broken) =>
      `hook ${broken.name ?? path.basename(broken.file)} (${broken.file}) is not loaded: ${broken.reason}`,
  );

  return {
    sessionId,
    modelId: resolved.modelId,
    cwd,
    acaiHome: paths.home,
    transcriptPath,
    hooks: { loaded: registry.hooks, broken: registry.broken, projectHooksEnabled: includeProject },
    warnings: [...loaded.warnings, ...tools.warnings, ...brokenWarnings],
    run(input: RunInput): AsyncGenerator<InterceptedEvent, void, undefined> {
      const intercept = createHookInterceptor({
        hooks: registry.hooks,
        runner,
        env,
        projectDir: cwd,
        acaiHome: paths.home,
        signal: input.signal,
        askUser: options.askUser,
        assumeYes: flags.assumeYes ?? false,
        validateToolInput: (toolName: string, toolInput: unknown) => {
          const tool = toolsByName.get(toolName);
          return tool ? tool.validate(toolInput) : { ok: true, value: toolInput };
        },
      });
      return intercept(agent.run(input));
    },
  };
}

/** Whether this project's hooks may run, without running anything. */
export async function checkProjectTrust(
  options: CheckProjectTrustOptions,
): Promise<ProjectTrustState> {
  const paths = resolveAcaiPaths({ env: options.env, homeDir: options.homeDir, cwd: options.cwd });
  const loaded = await loadSettings({ acaiHome: paths.home, projectDir: options.cwd });
  const scan = await scanHookSources({
    projectDir: options.cwd,
    acaiHome: paths.home,
    homeDir: options.homeDir,
    settingsFiles: loaded.settingsFiles,
  });
  const untrusted = describeUntrusted(scan);
  const trust = () => trustProject(scan, { acaiHome: paths.home });
  if (untrusted.length === 0) return { status: "no-project-hooks", untrusted: [], trust };
  const trusted = await isProjectTrusted(scan, { acaiHome: paths.home });
  return { status: trusted ? "trusted" : "untrusted", untrusted, trust };
}
