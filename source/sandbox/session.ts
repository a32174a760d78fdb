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
import type { ProcessStarter } from "../process/long-lived.js";
import type { ProcessRunner } from "../process/types.js";
import type { BwrapContext, PathKind } from "./bwrap-args.js";
import { detectSandbox, type ProbeResult } from "./detect.js";
import {
  createLaunchTable,
  type LaunchTable,
  launchCommand,
  sandboxEnvironment,
  launchingRunner,
  launchingStarter,
  sandboxedRunner,
  sandboxedStarter,
} from "./launch.js";
import { createNetworkBridges, type NetworkBridges } from "./network.js";
import { type HookNeeds, policyWithNeeds, resolveSandboxSettings, type SandboxPolicy } from "./policy.js";
import { type SandboxReport, sandboxNotice } from "./report.js";

interface LaunchTarget {
  command: string;
  args: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string>>;
}

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
  hookPolicy(needs: HookNeeds | undefined, scope: "user" | "project"): SandboxPolicy | undefined;
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
    hiddenSockets: outsideSockets(options.env),
    trustedFiles: options.trustedFiles,
  });
  const availability = resolved.enabled
    ? detectSandbox({
        platform: options.platform,
        env: options.env,
        ...(resolved.bwrapPath === undefined ? {} : { bwrapPath: resolved.bwrapPath }),
        probe: options.probe,
      })
    : undefined;
  if (resolved.required && availability?.kind !== "available") {
    const why = availability?.kind === "unavailable" ? `${availability.missing}; ${availability.fix}` : "";
    const file = requiredFile(options);
    throw new SandboxRequiredError(
      file,
      `The OS sandbox is required (sandbox.required in ${file}) but cannot run: ${why}. Fix that, or set sandbox.required to false to run with marker containment only.`,
    );
  }
  const on = availability?.kind === "available";
  const bridges: NetworkBridges | undefined =
    on && options.bridge ? createNetworkBridges(options.bridge) : undefined;
  const table = createLaunchTable({
    context: fileSystemContext(),
    ...(bridges ? { bridgeFor: (policy: SandboxPolicy) => bridges.bridgeFor(policy) } : {}),
  });
  const policy = on ? resolved.policy : undefined;
  const report: SandboxReport = on
    ? { state: "on", policy: resolved.policy, bwrap: availability.bwrap, containment: "namespace" }
    : availability === undefined
      ? { state: "off", reason: `turned off by sandbox.enabled in ${options.userFile}`, containment: "marker" }
      : { state: "unavailable", missing: availability.missing, fix: availability.fix, containment: "marker" };
  const notice = sandboxNotice(report);
  const bwrap = on ? availability.bwrap : undefined;
  return {
    report,
    toolsPolicy: policy,
    autoAllowBash: on && resolved.autoAllowBashIfSandboxed,
    warnings: [...resolved.warnings, ...(notice ? [notice] : [])],
    hookPolicy: (needs, scope) => {
      if (policy === undefined) return undefined;
      const hooks = { ...policy, write: [...policy.write, ...(options.hookWrite ?? [])] };
      const allowed = options.user?.network?.allowedDomains ?? [];
      return needs ? policyWithNeeds(hooks, needs, scope, options, allowed) : hooks;
    },
    runner: (base, p) => sandboxedRunner(base, table, p),
    starter: (base, p) => sandboxedStarter(base, table, p),
    launching: (base) => (bwrap ? launchingRunner(base, table, bwrap) : base),
    launchingStarter: (base) => (bwrap ? launchingStarter(base, table, bwrap) : base),
    table,
    bwrap,
    wrapTarget: (target, p) => {
      const launch = p === undefined || bwrap === undefined ? undefined : table.launchFor(p);
      const extras = launch ? table.extrasOf(launch.key) : undefined;
      const env = sandboxEnvironment(target.env, launch, extras);
      const marked = { ...target, env, ...(launch ? { sandbox: launch } : {}) };
      const { sandbox: _done, ...out } = bwrap ? launchCommand(marked, table, bwrap, true) : marked;
      return out as unknown as typeof target;
    },
    takeRefusedHosts: () => bridges?.takeRefused() ?? [],
    close: () => bridges?.close(),
  };
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
 * runs commands, the Docker daemon, the SSH agent, the session bus): a unix
 * socket connects even on a read-only mount, so these are hidden like credentials.
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
    ...(env.SSH_AUTH_SOCK && path.isAbsolute(env.SSH_AUTH_SOCK) ? [env.SSH_AUTH_SOCK] : []),
  ];
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
        return realpathSync(file);
      } catch {
        return file;
      }
    },
  };
}
