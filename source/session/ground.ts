/**
 * What a session stands on before anything of the project runs: the project
 * assessed (root, settings, hook scan), whether it is included (trust), the
 * session picked up again, the effective settings, and the OS sandbox with
 * the runners every call site gets.
 */
import { DEFAULT_MAX_STOP_BLOCKS } from "../agent/agent.js";
import { type EffectiveSettings, effectiveSettings } from "../config/effective-settings.js";
import { DEFAULT_SESSION_END_BUDGET_MS } from "../hooks/run/interceptor.js";
import { DEFAULT_CONTEXT_CAP_CHARS } from "../hooks/run/step.js";
import {
  withOwnNodeForTypeScript,
  withOwnNodeForTypeScriptStarter,
} from "../hooks/run/typescript-launch.js";
import { startProcess } from "../process/long-lived.js";
import { runProcess } from "../process/runner.js";
import { processSandboxLauncher } from "../process/sandbox-launch.js";
import type { ProcessRunner } from "../process/types.js";
import { withSignal } from "../process/with-signal.js";
import { assessProject, type ProjectAssessment } from "./assessment.js";
import { findSessionToResume } from "./resume/find.js";
import type { SessionRecord } from "./resume/load.js";
import { type SessionSandboxSetup, setUpSandbox } from "./sandbox.js";
import { decideProjectInclusion } from "./trust.js";
import type { PrepareSessionOptions } from "./types.js";

export interface SessionGround {
  project: ProjectAssessment;
  /** The project root hooks run in (cwd or a folder above it). */
  projectDir: string;
  /** The project's hooks, tools and settings are taken (trusted, or `--trust-project`). */
  includeProject: boolean;
  /** `--continue` / `--resume`: the session picked up again. */
  resumed: SessionRecord | undefined;
  settings: EffectiveSettings;
  sandbox: SessionSandboxSetup;
  /** The describe steps' runner (hooks, dynamic tools): stops at once when preparing is interrupted. */
  describeRunner: ProcessRunner;
}

/** Assessment → trust → the session to resume → effective settings → sandbox; nothing of the project has run. */
export async function layGround(options: PrepareSessionOptions): Promise<SessionGround> {
  const { cwd, env, homeDir, flags } = options;
  const project = await assessProject({
    cwd,
    env,
    homeDir,
    includeProject: flags.projectHooks !== "off",
  });
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
      : findSessionToResume(flags.resume, {
          transcriptsDir: project.paths.transcriptsDir,
          projectDir,
        });
  const settings = effectiveSettings(project.loaded, includeProject, {
    contextCapChars: DEFAULT_CONTEXT_CAP_CHARS,
    maxStopBlocks: DEFAULT_MAX_STOP_BLOCKS,
    sessionEndBudgetMs: DEFAULT_SESSION_END_BUDGET_MS,
  });
  const sandbox = sessionSandbox(project, includeProject, options);
  // The describe steps (hooks, dynamic tools) stop at once when the run is interrupted.
  const describeRunner = withSignal(sandbox.describeRunner, options.signal);
  return { project, projectDir, includeProject, resumed, settings, sandbox, describeRunner };
}

/**
 * TypeScript hooks and tools run with the Node acai runs on, not PATH's (hooks/run/typescript-launch.ts),
 * inside the OS sandbox when it runs here (session/sandbox.ts; docs/security.md).
 */
function sessionSandbox(
  project: ProjectAssessment,
  includeProject: boolean,
  options: PrepareSessionOptions,
): SessionSandboxSetup {
  const ownNode = { execPath: process.execPath, version: process.version };
  return setUpSandbox({
    loaded: project.loaded,
    includeProject,
    paths: project.paths,
    projectDir: project.root.dir,
    homeDir: options.homeDir,
    env: options.env,
    manifest: project.scan.projectManifest,
    // The same launcher runProcess and startProcess start sandboxed children through.
    prepareLaunch: (launch) => processSandboxLauncher().prepare(launch),
    wrap: (launching) => ({
      runner: withOwnNodeForTypeScript(launching.runner(runProcess), ownNode),
      starter: withOwnNodeForTypeScriptStarter(launching.starter(startProcess), ownNode),
    }),
  });
}
