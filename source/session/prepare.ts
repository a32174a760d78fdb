import { sessionMemory } from "../memory/session.js";
import { defined } from "../shared/defined.js";
import { buildSessionAgent } from "./agent.js";
import { layGround } from "./ground.js";
import { permissionControls, projectRulesOff } from "./permission-controls.js";
import { sessionRuns } from "./run.js";
import { joinRelay, startServices } from "./services.js";
import { sessionEnv } from "./settings-env.js";
import { startSessionTelemetry } from "./telemetry.js";
import type { PreparedSession, PrepareSessionOptions } from "./types.js";
import { sessionWarnings } from "./warnings.js";

/**
 * Everything a session needs, in order: project root, settings and hook scan
 * (nothing of the project runs) → trust → effective settings → model → tools ∥
 * hook registry ∥ MCP ∥ subagent types → Agent → relay; then a per-run factory
 * (session/run.ts: the interceptor around `agent.run()`). The REPL and
 * `acai -p` both drive the returned `run()`: there is one loop.
 */
export async function prepareSession(given: PrepareSessionOptions): Promise<PreparedSession> {
  const ground = await layGround(given);
  // The settings' `env` (acai's and Claude Code's files) joins the environment from here on.
  const withEnv = sessionEnv(given.env, ground.project.loaded, ground.includeProject);
  const options: PrepareSessionOptions = { ...given, env: withEnv.env };
  const { settings, project } = ground;
  // Built-in pattern namespaces (`@memory:`) and relay hooks' ctx.memory; the store opens on first use.
  const memory = sessionMemory({
    acaiHome: project.paths.home,
    projectDir: ground.projectDir,
    settings: settings.memory,
  });
  const services = await startServices(ground, options, memory);
  const built = await buildSessionAgent(ground, services, options);
  const { relay, warnings: relayWarnings } = await joinRelay(ground, options, built.sessionId);
  // ACAI_ENABLE_TELEMETRY: spans, metrics and the audit lines as log records.
  const telemetry = await startSessionTelemetry({
    env: options.env,
    modelId: services.model.modelId,
    baseUrlFlag: options.flags.baseUrl,
    settings,
  });
  return {
    sessionId: built.sessionId,
    modelId: services.model.modelId,
    cwd: options.cwd,
    projectDir: ground.projectDir,
    settings: {
      ...(settings.baseUrl !== undefined ? { baseUrl: settings.baseUrl } : {}),
      ...(settings.pricing !== undefined ? { pricing: settings.pricing } : {}),
    },
    acaiHome: project.paths.home,
    transcriptPath: built.transcriptPath,
    permissionMode: services.permissions.mode,
    permissions: permissionControls(built.policy, {
      cwd: options.cwd,
      env: options.env,
      homeDir: options.homeDir,
      startedWith: project.scan.projectFingerprint,
      ...defined("projectRulesOff", projectRulesOff(options.flags.projectHooks, project.status)),
    }),
    sessionEndBudgetMs: settings.sessionEndBudgetMs,
    hooks: {
      loaded: services.registry.hooks,
      broken: services.registry.broken,
      projectHooksEnabled: ground.includeProject,
      projectSet: project.scan.projectFingerprint,
    },
    sandboxLine: ground.sandbox.startLine,
    deferredCalls: ground.resumed?.pending.length ?? 0,
    warnings: [
      ...withEnv.warnings,
      ...telemetry.warnings,
      ...sessionWarnings(ground, services, built, relayWarnings),
    ],
    ...(relay ? { relay } : {}),
    ...sessionRuns({
      ground,
      services,
      built,
      relay,
      memory,
      options,
      telemetry: telemetry.telemetry,
    }),
  };
}
