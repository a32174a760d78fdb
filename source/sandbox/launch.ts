/**
 * A session's sandbox at run time: one `SandboxLaunch` per policy (cached by
 * its key), and the runner / starter wrappers that put every process acai
 * starts for the model or for hooks inside it.
 *
 * Two layers, because the policy is chosen where the process is known (a
 * hook's own needs) and the launch happens last (after TypeScript hooks are
 * rewritten to acai's Node, hooks/run/typescript-launch.ts):
 * - `sandboxed(runner, policy)` at the call site: `sandbox` in the run's
 *   options and `ACAI_SANDBOX=1` / `ACAI_SANDBOX_POLICY` in its environment
 *   (both removed when unsandboxed, so a parent's value is never inherited);
 * - `launching(runner)` just above the process runner: the command in
 *   bubblewrap (`bwrap ARGS --chdir CWD -- command args`), the network
 *   bridge in front of it for a policy with allowed hosts.
 *
 * Nothing ever runs a refused command again outside the sandbox.
 */
import { launchKey } from "../process/launch-key.js";
import type { LongLivedOptions, ProcessStarter } from "../process/long-lived.js";
import { quietRunResult } from "../process/result.js";
import { describeSpawnError } from "../process/spawn.js";
import type { ProcessRunner, RunOptions, SandboxLaunch, SpawnerKind } from "../process/types.js";
import { defined } from "../shared/defined.js";
import { type BridgeFolder, type BwrapContext, bwrapArguments } from "./bwrap-args.js";
import type { SandboxPolicy } from "./policy.js";

const SANDBOX_ENV = "ACAI_SANDBOX";
const SANDBOX_POLICY_ENV = "ACAI_SANDBOX_POLICY";

/** What a launch needs beyond the seam's three fields: the bridge in front of the command. */
export interface LaunchExtras {
  /** Runs before the command inside the sandbox: `[node, bridge.js, spec, "--"]`. */
  prefix?: readonly string[];
  /** Added to the process's environment (HTTP(S)_PROXY for the bridge). */
  env?: Readonly<Record<string, string>>;
}

export interface LaunchTable {
  /** The launch of a policy (the same object for the same policy). */
  launchFor(policy: SandboxPolicy): SandboxLaunch;
  extrasOf(key: string): LaunchExtras | undefined;
  /**
   * `plain`'s launch, its runs keeping their CLAUDE_ENV_FILE in its spawner and going to
   * `writing`'s launch where that spawner can no longer keep one (process/kept-env-files.ts,
   * decision 0069); none when either has a network bridge (a run is marked for one launch's).
   */
  keepingEnvFile(plain: SandboxPolicy, writing: SandboxPolicy): SandboxLaunch | undefined;
  /**
   * Whether the command and working directory exist: one that cannot start is
   * left to fail to start on its own (nothing runs), with the runner's usual
   * words for it, rather than as a bwrap error.
   */
  canStart(target: {
    command: string;
    cwd: string;
    env: Readonly<Record<string, string>>;
  }): boolean;
}

export interface LaunchTableOptions {
  context: BwrapContext;
  /** The network bridge of a policy with allowed hosts (network.ts); none: its network stays off. */
  bridgeFor?: (policy: SandboxPolicy) => LaunchExtras & BridgeFolder;
  canStart: LaunchTable["canStart"];
  /** Which spawner a launch asks for (process/spawner-kind.ts: Python where the sandbox shows it). */
  spawnerKind: (bwrapArgs: readonly string[]) => SpawnerKind;
}

export function createLaunchTable(options: LaunchTableOptions): LaunchTable {
  const byPolicy = new Map<string, SandboxLaunch>();
  // Every run of a hook or tool asks with the same (deeply readonly) policy object: its
  // launch is found without serializing the policy's path lists again.
  const byObject = new WeakMap<SandboxPolicy, SandboxLaunch>();
  const extras = new Map<string, LaunchExtras>();
  const keeping = new Map<string, SandboxLaunch>();
  const table: LaunchTable = {
    launchFor(policy) {
      const seen = byObject.get(policy);
      if (seen !== undefined) return seen;
      const id = JSON.stringify(policy);
      const known = byPolicy.get(id);
      if (known !== undefined) {
        byObject.set(policy, known);
        return known;
      }
      const bridge = policy.network.kind === "hosts" ? options.bridgeFor?.(policy) : undefined;
      const context = bridge
        ? { ...options.context, socketDir: bridge.socketDir, socketParent: bridge.socketParent }
        : options.context;
      const bwrapArgs = bwrapArguments(policy, context);
      const helper = options.spawnerKind(bwrapArgs);
      const key = launchKey(bwrapArgs, helper);
      const launch: SandboxLaunch = { key, bwrapArgs, name: policy.name, helper };
      byPolicy.set(id, launch);
      byObject.set(policy, launch);
      if (bridge)
        extras.set(launch.key, {
          ...defined("prefix", bridge.prefix),
          ...defined("env", bridge.env),
        });
      return launch;
    },
    extrasOf: (key) => extras.get(key),
    keepingEnvFile(plain, writing) {
      const launch = table.launchFor(plain);
      const otherwise = table.launchFor(writing);
      if (extras.has(launch.key) || extras.has(otherwise.key)) return undefined;
      if (launch.key === otherwise.key) return launch;
      const id = `${launch.key}\u0000${otherwise.key}`;
      let made = keeping.get(id);
      if (made === undefined) {
        made = { ...launch, keepsEnvFile: { otherwise } };
        keeping.set(id, made);
      }
      return made;
    },
    canStart: options.canStart,
  };
  return table;
}

/** The environment a process gets: acai's sandbox variables set (sandboxed) or removed (not). */
export function sandboxEnvironment(
  env: Readonly<Record<string, string>>,
  launch: SandboxLaunch | undefined,
  extras: LaunchExtras | undefined,
): Record<string, string> {
  const out: Record<string, string> = { ...env };
  delete out[SANDBOX_ENV];
  delete out[SANDBOX_POLICY_ENV];
  if (launch === undefined) return out;
  Object.assign(out, extras?.env);
  out[SANDBOX_ENV] = "1";
  out[SANDBOX_POLICY_ENV] = launch.name;
  return out;
}

type Target = Pick<RunOptions, "command" | "args" | "cwd" | "env" | "sandbox">;

/** Call-site layer: this process runs under `launch` (or, undefined, unsandboxed). */
function marked<T extends Target>(
  options: T,
  table: LaunchTable,
  launch: SandboxLaunch | undefined,
): T {
  const { sandbox: _ignored, ...rest } = options;
  const env = sandboxEnvironment(
    options.env,
    launch,
    launch ? table.extrasOf(launch.key) : undefined,
  );
  return { ...rest, env, ...(launch ? { sandbox: launch } : {}) } as T;
}

export function sandboxedRunner(
  runner: ProcessRunner,
  table: LaunchTable,
  policy: SandboxPolicy | undefined,
): ProcessRunner {
  return (options) => runner(marked(options, table, policy && table.launchFor(policy)));
}

/** The same, for a launch made already (LaunchTable `keepingEnvFile`). */
export function sandboxedRunnerAt(
  runner: ProcessRunner,
  table: LaunchTable,
  launch: SandboxLaunch,
): ProcessRunner {
  return (options) => runner(marked(options, table, launch));
}

export function sandboxedStarter(
  starter: ProcessStarter,
  table: LaunchTable,
  policy: SandboxPolicy | undefined,
): ProcessStarter {
  return (options) => starter(marked(options, table, policy && table.launchFor(policy)));
}

/**
 * Launch layer: a run with `sandbox` becomes `bwrap ARGS --chdir CWD -- [bridge --] command args`.
 * `plainBwrap: false` leaves the bwrap start to a process runner that honours `sandbox` itself
 * (then only the bridge prefix is added here).
 */
export function launchCommand<T extends Target>(
  options: T,
  table: LaunchTable,
  bwrap: string,
  plainBwrap: boolean,
): T {
  const launch = options.sandbox;
  if (launch === undefined) return options;
  const prefix = table.extrasOf(launch.key)?.prefix ?? [];
  const inner = [...prefix, options.command, ...(options.args ?? [])];
  if (!plainBwrap) {
    const [command, ...args] = inner as [string, ...string[]];
    return { ...options, command, args };
  }
  const { sandbox: _launched, ...rest } = options;
  return {
    ...rest,
    command: bwrap,
    args: [...launch.bwrapArgs, "--chdir", options.cwd, "--", ...inner],
  } as unknown as T;
}

export function launchingRunner(
  runner: ProcessRunner,
  table: LaunchTable,
  bwrap: string,
  plainBwrap = true,
): ProcessRunner {
  return async (options) => {
    // Not started at all, with the runner's usual words (no run outside the sandbox instead).
    if (options.sandbox !== undefined && !table.canStart(options)) {
      const error = Object.assign(new Error("not found"), { code: "ENOENT" });
      return quietRunResult({ spawnError: describeSpawnError(error, options) });
    }
    return runner(launchCommand(options, table, bwrap, plainBwrap));
  };
}

export function launchingStarter(
  starter: ProcessStarter,
  table: LaunchTable,
  bwrap: string,
  plainBwrap = true,
): ProcessStarter {
  return (options: LongLivedOptions) => starter(launchCommand(options, table, bwrap, plainBwrap));
}
