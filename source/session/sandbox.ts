/**
 * The session's OS sandbox (source/sandbox/) from its settings and project,
 * and the runners every call site gets: the tools' (Bash, dynamic tools, with
 * the refusal note), the describe steps', and one per hook (the session's
 * policy with what the hook declared it needs).
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { SessionSandboxInfo } from "../agent/event-data.js";
import type { AcaiPaths } from "../config/paths.js";
import { resolveProjectPaths } from "../config/paths.js";
import { ensurePrivateDirSync } from "../config/private-files.js";
import type { LoadedSettings } from "../config/settings.js";
import { SettingsError } from "../config/settings.js";
import type { HookDefinition } from "../hooks/contract/definition.js";
import { eventRow } from "../hooks/contract/events/table.js";
import type { ProcessStarter } from "../process/long-lived.js";
import type { ProcessRunner, SandboxLaunch } from "../process/types.js";
import type { ProjectManifest } from "../project/manifest.js";
import { sandboxedRunnerAt } from "../sandbox/launch.js";
import type { SandboxPolicy } from "../sandbox/policy.js";
import { cachedProbe } from "../sandbox/probe-cache.js";
import { withRefusalNotes } from "../sandbox/refusal.js";
import { sandboxPayload, sandboxStartLine } from "../sandbox/report.js";
import {
  createSessionSandbox,
  SandboxRequiredError,
  type SessionSandbox,
} from "../sandbox/session.js";
import { sessionEnvRoot } from "./shell-env.js";

export interface SessionSandboxSetup {
  sandbox: SessionSandbox;
  info: SessionSandboxInfo;
  /** `sandbox: on (policy …)`, for `--verbose` and `acai doctor`. */
  startLine: string;
  /** Bash and dynamic tools. */
  toolRunner: ProcessRunner;
  /** Describe steps of hooks and dynamic tools (the session's policy, no hook's needs). */
  describeRunner: ProcessRunner;
  /** `sandboxed`: the hook's processes run in the OS sandbox (its policy is defined). */
  launchFor(hook: HookDefinition): {
    runner: ProcessRunner;
    starter: ProcessStarter;
    sandboxed: boolean;
  };
  /**
   * Starts, in the background, the sandbox's spawner the hook's processes will run through
   * (nothing runs); nothing for a hook that is not sandboxed.
   */
  prepareFor(hook: HookDefinition): void;
}

export interface SetUpSandboxOptions {
  loaded: LoadedSettings;
  includeProject: boolean;
  paths: AcaiPaths;
  projectDir: string;
  homeDir: string;
  env: Readonly<Record<string, string>>;
  manifest: ProjectManifest;
  /** Probe bwrap afresh instead of trusting a cached success (`acai doctor`). */
  freshProbe?: boolean;
  /** Starts a policy's spawner ahead (process/sandbox-launch.ts `prepare`); none: nothing starts ahead. */
  prepareLaunch?: (launch: SandboxLaunch) => void;
  /** The runner and starter below the sandbox (acai's, with TypeScript hooks on acai's Node). */
  wrap: (launching: {
    runner: (base: ProcessRunner) => ProcessRunner;
    starter: (base: ProcessStarter) => ProcessStarter;
  }) => { runner: ProcessRunner; starter: ProcessStarter };
}

export function setUpSandbox(options: SetUpSandboxOptions): SessionSandboxSetup {
  const { paths } = options;
  const sandbox = sessionSandboxOf(options);
  const base = options.wrap({
    runner: (r) => sandbox.launching(r),
    starter: (s) => sandbox.launchingStarter(s),
  });
  const tools = sandbox.toolsPolicy;
  const sandboxedTools = sandbox.runner(base.runner, tools);
  const toolRunner = tools
    ? withRefusalNotes(
        sandboxedTools,
        { policy: tools, homeDir: options.homeDir, settingsFile: paths.settingsFile },
        () => sandbox.takeRefusedHosts(),
      )
    : sandboxedTools;
  const byHook = new Map<string, ReturnType<SessionSandboxSetup["launchFor"]>>();
  const policyOf = (hook: HookDefinition) =>
    sandbox.hookPolicy(hook.sandbox, hook.scope, writesEnvFile(hook));
  // A session_start or file_changed hook's CLAUDE_ENV_FILE is kept in the spawner of the policy
  // without its folder while that can (0069); the policy that may write the folder is the fallback.
  const keepingOf = (hook: HookDefinition, writing: SandboxPolicy | undefined) => {
    if (writing === undefined || !writesEnvFile(hook) || sandbox.bwrap === undefined)
      return undefined;
    const plain = sandbox.hookPolicy(hook.sandbox, hook.scope, false);
    // A launch binds only folders that exist when it is first made, and is kept: the
    // CLAUDE_ENV_FILE folder must exist before, as at the hook's run.
    ensurePrivateDirSync(sessionEnvRoot(paths.home));
    const launch = plain && sandbox.table.keepingEnvFile(plain, writing);
    return plain && launch ? { plain, launch } : undefined;
  };
  return {
    sandbox,
    info: sandboxPayload(sandbox.report),
    startLine: sandboxStartLine(sandbox.report),
    toolRunner,
    describeRunner: sandboxedTools,
    launchFor(hook) {
      let launch = byHook.get(hook.id);
      if (launch === undefined) {
        // A session_start or file_changed hook's policy also writes its CLAUDE_ENV_FILE's folder.
        const policy = policyOf(hook);
        const keeping = keepingOf(hook, policy);
        launch = keeping
          ? {
              runner: sandboxedRunnerAt(base.runner, sandbox.table, keeping.launch),
              // A persistent hook gets no CLAUDE_ENV_FILE (hooks/run/persistent/host.ts).
              starter: sandbox.starter(base.starter, keeping.plain),
              sandboxed: true,
            }
          : {
              runner: sandbox.runner(base.runner, policy),
              starter: sandbox.starter(base.starter, policy),
              sandboxed: policy !== undefined,
            };
        byHook.set(hook.id, launch);
      }
      return launch;
    },
    prepareFor(hook) {
      const policy = policyOf(hook);
      if (policy === undefined || sandbox.bwrap === undefined) return;
      options.prepareLaunch?.(keepingOf(hook, policy)?.launch ?? sandbox.table.launchFor(policy));
    },
  };
}

/** Its hooks get CLAUDE_ENV_FILE (session_start, file_changed: shell-env.ts). */
function writesEnvFile(hook: HookDefinition): boolean {
  return hook.events.some((event) => eventRow(event).claudeEnvFile === true);
}

/**
 * The session's sandbox from its settings and project (also `acai doctor`'s).
 * `sandbox.required` that cannot be met is a SettingsError: exit code 2 and
 * the settings file named, like any setting acai cannot follow.
 */
export function sessionSandboxOf(options: Omit<SetUpSandboxOptions, "wrap">): SessionSandbox {
  const { loaded, paths, projectDir } = options;
  try {
    return createSessionSandbox({
      user: loaded.user.sandbox,
      project: options.includeProject ? loaded.project.sandbox : undefined,
      userFile: paths.settingsFile,
      projectFile: resolveProjectPaths(projectDir).settingsFile,
      projectDir,
      homeDir: options.homeDir,
      acaiHome: paths.home,
      trustedFiles: trustedFiles(options.manifest, projectDir),
      ...(loaded.user.capabilities?.allowNetworkInHooks === true
        ? { allowNetworkInHooks: true }
        : {}),
      // session_start and file_changed hooks write their CLAUDE_ENV_FILE there (shell-env.ts).
      hookWrite: [sessionEnvRoot(paths.home)],
      env: options.env,
      platform: process.platform,
      // A success is remembered under ACAI_HOME/cache: the probe was most of start-up (probe-cache.ts).
      probe: options.freshProbe
        ? probeBwrap
        : cachedProbe({ file: path.join(paths.cacheDir, "sandbox-probe.json"), probe: probeBwrap }),
      bridge: {
        node: process.execPath,
        script: fileURLToPath(new URL("../sandbox/bridge.js", import.meta.url)),
      },
    });
  } catch (error) {
    // A refusal of the user's settings: exit code 2 and the file named, like any bad setting.
    if (error instanceof SandboxRequiredError) throw new SettingsError(error.file, error.message);
    throw error;
  }
}

/** The trusted set's files inside the project (interpreters outside it are the system's). */
function trustedFiles(manifest: ProjectManifest, projectDir: string): string[] {
  return manifest.entries
    .filter((entry) => !entry.key.includes(":"))
    .map((entry) => path.join(projectDir, ...entry.key.split("/")));
}

function probeBwrap(bwrap: string, args: readonly string[]) {
  const result = spawnSync(bwrap, [...args], {
    stdio: ["ignore", "ignore", "pipe"],
    timeout: 5000,
  });
  return {
    status: result.status,
    stderr: result.stderr?.toString("utf8") ?? "",
    ...(result.error ? { error: result.error.message } : {}),
  };
}
