/**
 * What a session's sandbox is: its settings resolved (policy.ts), whether it
 * can run here (detect.ts), the one-line notice when it cannot, the refusal
 * when `sandbox.required` says it must, the launches (launch.ts), and the
 * report `acai doctor`, `--verbose` and the `session_start` payload show.
 */
import { realpathSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { SandboxSettings } from "../config/sandbox-settings.js";
import { findOnPath } from "../process/find-on-path.js";
import type { ProcessStarter } from "../process/long-lived.js";
import { spawnerKindChooser } from "../process/spawner-kind.js";
import type { ProcessRunner } from "../process/types.js";
import { acaiSocketFolder, SOCKET_FOLDERS } from "../shared/user-folder.js";
import {
  type BwrapContext,
  bwrapArguments,
  type PathKind,
  SandboxPolicyTooLargeError,
} from "./bwrap-args.js";
import { detectSandbox, type ProbeResult } from "./detect.js";
import {
  createLaunchTable,
  type LaunchTable,
  launchCommand,
  launchingRunner,
  launchingStarter,
  sandboxEnvironment,
  sandboxedRunner,
  sandboxedStarter,
} from "./launch.js";
import { createNetworkBridges, type NetworkBridges } from "./network.js";
import {
  type HookNeeds,
  isInside,
  policyWithNeeds,
  resolveSandboxSettings,
  type SandboxPolicy,
} from "./policy.js";
import { type SandboxReport, sandboxNotice } from "./report.js";

interface LaunchTarget {
  command: string;
  args: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string>>;
}

/** The sandbox cannot run as the settings say: `sandbox.required` unmet, or a policy bubblewrap cannot take. */
export class SandboxRequiredError extends Error {
  override readonly name = "SandboxRequiredError";
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}

export interface SessionSandboxOptions {
  user: SandboxSettings | undefined;
  project: SandboxSettings | undefined;
  userFile: string;
  projectFile: string;
  projectDir: string;
  homeDir: string;
  acaiHome: string;
  trustedFiles: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  platform: NodeJS.Platform;
  probe: (bwrap: string, args: readonly string[]) => ProbeResult;
  /** agent-relay's `capabilities.allowNetworkInHooks` (user settings): every hook reaches every host. */
  allowNetworkInHooks?: boolean;
  /** Folders every hook may write besides the session's policy (ACAI_HOME/session-env: CLAUDE_ENV_FILE). */
  hookWrite?: readonly string[];
  /** acai's Node and the bridge script, for policies with allowed hosts. */
  bridge?: { node: string; script: string };
}

export interface SessionSandbox {
  readonly report: SandboxReport;
  /** The policy of Bash, dynamic tools and MCP stdio servers; undefined: unsandboxed. */
  readonly toolsPolicy: SandboxPolicy | undefined;
  readonly autoAllowBash: boolean;
  readonly warnings: readonly string[];
  /** A hook's policy: the session's with what the hook declared it needs. */
  /**
   * A hook's policy: the session's (the same launch as the tools, so one
   * spawner serves both), with what it declared it needs, and the folder of
   * its CLAUDE_ENV_FILE for a session_start hook.
   */
  hookPolicy(
    needs: HookNeeds | undefined,
    scope: "user" | "project",
    writesEnvFile?: boolean,
  ): SandboxPolicy | undefined;
  /** Call-site layer (launch.ts `sandboxedRunner`). */
  runner(base: ProcessRunner, policy: SandboxPolicy | undefined): ProcessRunner;
  starter(base: ProcessStarter, policy: SandboxPolicy | undefined): ProcessStarter;
  /** Launch layer, just above the process runner. */
  launching(base: ProcessRunner): ProcessRunner;
  launchingStarter(base: ProcessStarter): ProcessStarter;
  /** The launch arguments of a policy (MCP stdio servers wrap their own command). */
  table: LaunchTable;
  bwrap: string | undefined;
  /** A process started by someone else (MCP stdio servers, @ai-sdk/mcp): its command in the sandbox of `policy`. */
  wrapTarget<T extends LaunchTarget>(target: T, policy: SandboxPolicy | undefined): T;
  /** Hosts the network proxy refused since the last call (refusal.ts). */
  takeRefusedHosts(): string[];
  close(): void;
}

export function createSessionSandbox(options: SessionSandboxOptions): SessionSandbox {
  const resolved = resolveSandboxSettings({
    user: options.user,
    project: options.project,
    userFile: options.userFile,
    projectFile: options.projectFile,
    projectDir: options.projectDir,
    homeDir: options.homeDir,
    acaiHome: options.acaiHome,
    tempDirs: tempDirs(options.env),
    // Never the project or the temp folder themselves (an $XDG_RUNTIME_DIR of /tmp).
    hiddenSockets: outsideSockets(options.env).filter(
      (p) => !isInside(options.projectDir, p) && !tempDirs(options.env).some((t) => isInside(t, p)),
    ),
    trustedFiles: options.trustedFiles,
  });
  const report = reportOf(resolved, options);
  const on = report.state === "on";
  if (on) expressible(resolved.policy, options.userFile);
  const bridges: NetworkBridges | undefined =
    on && options.bridge ? createNetworkBridges(options.bridge) : undefined;
  const table = createLaunchTable({
    context: fileSystemContext(),
    canStart,
    spawnerKind: spawnerKindChooser(options.env),
    ...(bridges ? { bridgeFor: (policy: SandboxPolicy) => bridges.bridgeFor(policy) } : {}),
  });
  const policy = on ? resolved.policy : undefined;
  const notice = sandboxNotice(report);
  const bwrap = on ? report.bwrap : undefined;
  return {
    report,
    toolsPolicy: policy,
    autoAllowBash: on && resolved.autoAllowBashIfSandboxed,
    warnings: [...resolved.warnings, ...(notice ? [notice] : [])],
    hookPolicy: (needs, scope, writesEnvFile) => {
      if (policy === undefined) return undefined;
      const envWrite = writesEnvFile === true ? (options.hookWrite ?? []) : [];
      const hooks = { ...policy, write: [...policy.write, ...envWrite] };
      if (options.allowNetworkInHooks === true) {
        const deny = policy.network.kind === "none" ? [] : policy.network.deny;
        // Denied hosts stay denied: then through the proxy.
        hooks.network =
          deny.length > 0 ? { kind: "hosts", allow: ["*"], deny } : { kind: "all", deny };
      }
      const allowed = options.user?.network?.allowedDomains ?? [];
      return needs ? policyWithNeeds(hooks, needs, scope, options, allowed) : hooks;
    },
    runner: (base, p) => sandboxedRunner(base, table, p),
    starter: (base, p) => sandboxedStarter(base, table, p),
    // The process layer starts `sandbox` runs itself (a spawner per policy); here only the bridge.
    launching: (base) => (bwrap ? launchingRunner(base, table, bwrap, false) : base),
    launchingStarter: (base) => (bwrap ? launchingStarter(base, table, bwrap, false) : base),
    table,
    bwrap,
    wrapTarget: (target, p) => wrapTarget(target, table, p === undefined ? undefined : bwrap, p),
    takeRefusedHosts: () => bridges?.takeRefused() ?? [],
    close: () => bridges?.close(),
  };
}

/** Whether the sandbox runs; `sandbox.required` that cannot be met throws SandboxRequiredError. */
function reportOf(
  resolved: ReturnType<typeof resolveSandboxSettings>,
  options: SessionSandboxOptions,
): SandboxReport {
  if (!resolved.enabled) {
    const reason = `turned off by sandbox.enabled in ${options.userFile}`;
    return { state: "off", reason, containment: "marker" };
  }
  const availability = detectSandbox({
    platform: options.platform,
    env: options.env,
    ...(resolved.bwrapPath === undefined ? {} : { bwrapPath: resolved.bwrapPath }),
    probe: options.probe,
  });
  if (availability.kind === "available") {
    const bwrap = availability.bwrap;
    return { state: "on", policy: resolved.policy, bwrap, containment: "namespace" };
  }
  if (resolved.required) {
    const file = requiredFile(options);
    throw new SandboxRequiredError(
      file,
      `The OS sandbox is required (sandbox.required in ${file}) but cannot run: ${availability.missing}; ${availability.fix}. Fix that, or set sandbox.required to false to run with marker containment only.`,
    );
  }
  const { missing, fix } = availability;
  return { state: "unavailable", missing, fix, containment: "marker" };
}

/** A process someone else starts (MCP stdio servers): its command in bwrap, its environment marked. */
function wrapTarget<T extends LaunchTarget>(
  target: T,
  table: LaunchTable,
  bwrap: string | undefined,
  policy: SandboxPolicy | undefined,
): T {
  const startable = table.canStart(target);
  const launch =
    policy === undefined || bwrap === undefined || !startable ? undefined : table.launchFor(policy);
  const extras = launch ? table.extrasOf(launch.key) : undefined;
  const env = sandboxEnvironment(target.env, launch, extras);
  const marked = { ...target, env, ...(launch ? { sandbox: launch } : {}) };
  const { sandbox: _done, ...out } = bwrap ? launchCommand(marked, table, bwrap, true) : marked;
  return out as unknown as T;
}

/** A policy bubblewrap cannot take (too many paths) is refused at the start, not at the first call. */
function expressible(policy: SandboxPolicy, userFile: string): void {
  try {
    bwrapArguments(policy, fileSystemContext());
  } catch (error) {
    if (error instanceof SandboxPolicyTooLargeError)
      throw new SandboxRequiredError(userFile, error.message);
    throw error;
  }
}

function requiredFile(options: SessionSandboxOptions): string {
  const byUser = options.user?.required ?? options.user?.failIfUnavailable;
  return byUser ? options.userFile : options.projectFile;
}

/** The temp folder a sandboxed process may write: `$TMPDIR` when it is set, else /tmp. */
function tempDirs(env: Readonly<Record<string, string | undefined>>): string[] {
  return [env.TMPDIR && path.isAbsolute(env.TMPDIR) ? env.TMPDIR : tmpdir()];
}

/**
 * Sockets that reach processes outside the sandbox (a terminal multiplexer that
 * runs commands, the Docker daemon, the SSH agent, the session bus — also where
 * the environment says they are: $XDG_RUNTIME_DIR, $TMUX, the bus address): a
 * unix socket connects even on a read-only mount, so these are hidden like credentials.
 */
function outsideSockets(env: Readonly<Record<string, string | undefined>>): string[] {
  const uid = process.getuid?.() ?? 0;
  return [
    `/tmp/tmux-${uid}`,
    `${env.TMUX_TMPDIR ?? "/tmp"}/tmux-${uid}`,
    "/tmp/.X11-unix",
    "/run/user",
    "/run/docker.sock",
    "/var/run/docker.sock",
    "/run/containerd",
    "/run/dbus",
    "/run/screen",
    ...[env.SSH_AUTH_SOCK, env.XDG_RUNTIME_DIR, env.TMUX?.split(",")[0]].filter(absolute),
    ...busSockets(env.DBUS_SESSION_BUS_ADDRESS),
    ...acaiSocketFolders(env),
  ];
}

/**
 * acai's own folders of sockets (shared/user-folder.ts: this user's, or this acai's own where
 * that is not theirs alone), made now so the policy hides them — the same folders the
 * spawners and bridges of this process use: a sandboxed process that could write there could
 * replace the host helper's socket and take the stdio of the processes acai starts outside
 * the sandbox, or replace another session's network bridge. A sandbox's own spawner and
 * bridge see their folder alone (process/spawner-launch.ts, bwrap-args.ts).
 */
function acaiSocketFolders(env: Readonly<Record<string, string | undefined>>): string[] {
  const temps = new Set([...tempDirs(env), tmpdir()]);
  return [...temps].flatMap((t) =>
    SOCKET_FOLDERS.flatMap((prefix) => acaiSocketFolder(t, prefix) ?? []),
  );
}

const absolute = (p: string | undefined): p is string => p !== undefined && path.isAbsolute(p);

/** The socket files of a D-Bus address (`unix:path=/x,guid=…;unix:path=/y`). */
function busSockets(address: string | undefined): string[] {
  return (address ?? "")
    .split(";")
    .map((entry) => /(?:^|[:,])path=([^,]+)/.exec(entry)?.[1])
    .filter(absolute);
}

/** The command is a file, or a name on the process's PATH, and the working directory exists. */
function canStart(target: {
  command: string;
  cwd: string;
  env: Readonly<Record<string, string>>;
}): boolean {
  const isDir = (p: string) => {
    try {
      return statSync(p).isDirectory();
    } catch {
      return false;
    }
  };
  if (!isDir(target.cwd)) return false;
  const isFile = (p: string) => {
    try {
      return statSync(p).isFile();
    } catch {
      return false;
    }
  };
  if (target.command.includes("/")) return isFile(path.resolve(target.cwd, target.command));
  return findOnPath(target.command, target.env.PATH ?? "", isFile) !== undefined;
}

function fileSystemContext(): BwrapContext {
  return {
    kind(file): PathKind {
      try {
        return statSync(file).isDirectory() ? "dir" : "file";
      } catch {
        return "missing";
      }
    },
    realpath(file) {
      try {
        return realpathSync.native(file);
      } catch {
        return file;
      }
    },
  };
}
