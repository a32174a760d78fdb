/**
 * The sandbox policy a session runs with: the user's `sandbox` settings, the
 * (trusted) project's narrowing them, and acai's defaults — what a careful
 * user would choose: writes only in the project and the temp folders; the
 * credential stores and acai's trust records unreadable; `ACAI_HOME`, the
 * project's trusted files, `.git/config` and `.git/hooks` read-only; no
 * network unless hosts are allowed.
 *
 * A project only narrows: it may add `denyRead` / `denyWrite` paths, turn the
 * sandbox on or make it required, and keep fewer of the user's allowed hosts;
 * its `allowWrite`, its hosts the user did not allow, its `enabled: false`,
 * `autoAllowBashIfSandboxed` and `bwrapPath` are ignored with a warning.
 * Pure: every path and value arrives in the options.
 */
import path from "node:path";
import type { SandboxSettings } from "../config/sandbox-settings.js";

type NetworkPolicy =
  | { readonly kind: "none" }
  | { readonly kind: "hosts"; readonly allow: readonly string[]; readonly deny: readonly string[] }
  | { readonly kind: "all"; readonly deny: readonly string[] };

export interface SandboxPolicy {
  /** For ACAI_SANDBOX_POLICY and reports: the settings' `name`, `default` otherwise. */
  readonly name: string;
  /** Writable (absolute): the project, the temp folders, the user's `allowWrite`. */
  readonly write: readonly string[];
  /** Read-only even inside a writable folder (absolute). */
  readonly readOnly: readonly string[];
  /** Unreadable (absolute). */
  readonly denyRead: readonly string[];
  readonly network: NetworkPolicy;
}

export interface SessionSandboxSettings {
  /** On unless the user (or nothing) turned it off; a project may only turn it on. */
  readonly enabled: boolean;
  readonly required: boolean;
  readonly autoAllowBashIfSandboxed: boolean;
  /** An explicit bwrap executable (user settings), else undefined: PATH is searched. */
  readonly bwrapPath?: string;
  readonly policy: SandboxPolicy;
  readonly warnings: readonly string[];
}

export interface PolicyPaths {
  projectDir: string;
  homeDir: string;
  acaiHome: string;
  /** Temp folders processes may write: `/tmp`, `$TMPDIR`, `/dev/shm`, … */
  tempDirs: readonly string[];
  /** The project's trusted files and folders (absolute), read-only inside the sandbox. */
  trustedFiles: readonly string[];
  /** Unix sockets (and their folders) of processes outside the sandbox, hidden like credentials. */
  hiddenSockets?: readonly string[];
}

export interface ResolvePolicyOptions extends PolicyPaths {
  user: SandboxSettings | undefined;
  /** The project's `sandbox` settings; undefined when the project is not trusted or not included. */
  project: SandboxSettings | undefined;
  /** Where each scope's settings live, for the warnings. */
  userFile: string;
  projectFile: string;
}

/** The credential stores and browser profiles no sandboxed process reads (relative to HOME). */
export const CREDENTIAL_STORES: readonly string[] = [
  ".ssh",
  ".aws",
  ".gnupg",
  ".config/gcloud",
  ".azure",
  ".netrc",
  ".git-credentials",
  ".docker/config.json",
  ".kube",
  ".config/gh",
  ".mozilla",
  ".config/google-chrome",
  ".config/chromium",
  ".config/BraveSoftware",
  "snap/firefox",
  "Library/Application Support/Google/Chrome",
  "Library/Application Support/Firefox",
  "Library/Keychains",
];

/** The project files that are trusted configuration or instructions, read-only inside the sandbox. */
const PROJECT_READ_ONLY: readonly string[] = [
  ".acai",
  ".agents",
  ".mcp.json",
  "AGENTS.md",
  "CLAUDE.md",
  ".git/config",
  ".git/hooks",
];

export function resolveSandboxSettings(options: ResolvePolicyOptions): SessionSandboxSettings {
  const user = options.user ?? {};
  const project = options.project ?? {};
  const warnings = projectWideningWarnings(project, user, options.projectFile);
  const required =
    (user.required ?? user.failIfUnavailable ?? false) ||
    (project.required ?? project.failIfUnavailable ?? false);
  const enabled = (user.enabled ?? true) || project.enabled === true || required;
  return {
    enabled,
    required,
    autoAllowBashIfSandboxed: user.autoAllowBashIfSandboxed === true,
    ...(user.bwrapPath === undefined ? {} : { bwrapPath: user.bwrapPath }),
    policy: basePolicy(user, project, options),
    warnings,
  };
}

function basePolicy(
  user: SandboxSettings,
  project: SandboxSettings,
  paths: PolicyPaths,
): SandboxPolicy {
  const home = (p: string): string => expandPath(p, paths);
  const write = unique([
    paths.projectDir,
    ...paths.tempDirs,
    ...(user.filesystem?.allowWrite ?? []).map(home),
  ]);
  const readOnly = unique([
    paths.acaiHome,
    ...PROJECT_READ_ONLY.map((p) => path.join(paths.projectDir, p)),
    ...paths.trustedFiles,
    path.join(paths.homeDir, ".config", "agents", "hooks"),
    ...(user.filesystem?.denyWrite ?? []).map(home),
    ...(project.filesystem?.denyWrite ?? []).map(home),
  ]);
  const denyRead = unique([
    ...CREDENTIAL_STORES.map((p) => path.join(paths.homeDir, p)),
    path.join(paths.acaiHome, "trust.json"),
    ...(paths.hiddenSockets ?? []),
    ...(user.filesystem?.denyRead ?? []).map(home),
    ...(project.filesystem?.denyRead ?? []).map(home),
  ]);
  return {
    name: project.name ?? user.name ?? "default",
    write,
    readOnly,
    denyRead,
    network: networkPolicy(user, project),
  };
}

function networkPolicy(user: SandboxSettings, project: SandboxSettings): NetworkPolicy {
  const userAllowed = user.network?.allowedDomains ?? [];
  const deny = unique([
    ...(user.network?.deniedDomains ?? []),
    ...(project.network?.deniedDomains ?? []),
  ]);
  const projectAllowed = project.network?.allowedDomains;
  // A project keeps the user's hosts it names; what the user did not allow it cannot add.
  const allow =
    projectAllowed === undefined
      ? userAllowed
      : projectAllowed.filter((host) => userAllowed.includes("*") || userAllowed.includes(host));
  if (allow.length === 0) return { kind: "none" };
  if (allow.includes("*")) return { kind: "all", deny };
  return { kind: "hosts", allow: unique(allow), deny };
}

/** What a project's sandbox settings try that only the user may do: each is ignored, with a warning. */
function projectWideningWarnings(
  project: SandboxSettings,
  user: SandboxSettings,
  file: string,
): string[] {
  const ignored: string[] = [];
  if (project.enabled === false && user.enabled !== false) ignored.push("sandbox.enabled: false");
  if (project.filesystem?.allowWrite?.length) ignored.push("sandbox.filesystem.allowWrite");
  if (project.autoAllowBashIfSandboxed) ignored.push("sandbox.autoAllowBashIfSandboxed");
  if (project.bwrapPath !== undefined) ignored.push("sandbox.bwrapPath");
  const userAllowed = user.network?.allowedDomains ?? [];
  const added = (project.network?.allowedDomains ?? []).filter(
    (host) => !userAllowed.includes("*") && !userAllowed.includes(host),
  );
  if (added.length > 0) ignored.push(`sandbox.network.allowedDomains ${added.join(", ")}`);
  return ignored.map(
    (what) =>
      `Project settings ${file}: ${what} is ignored — a project may only narrow the sandbox; set it in your own ~/.acai/settings.json if you want it.`,
  );
}

/** `~/x` and `$HOME/x` from HOME, a relative path from the project. */
function expandPath(p: string, paths: Pick<PolicyPaths, "homeDir" | "projectDir">): string {
  if (p === "~" || p.startsWith("~/")) return path.join(paths.homeDir, p.slice(1));
  if (p.startsWith("$HOME/")) return path.join(paths.homeDir, p.slice(5));
  return path.resolve(paths.projectDir, p);
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/**
 * The policy of one hook: the session's, plus what the hook declared it needs
 * (`network` hosts, `write` paths relative to the project). A declaration is
 * shown by the trust review; a project hook's hosts are kept only if the user's
 * policy allows them (a project narrows), its writes only inside the project.
 */
export interface HookNeeds {
  readonly network?: readonly string[];
  readonly write?: readonly string[];
}

export function policyWithNeeds(
  policy: SandboxPolicy,
  needs: HookNeeds,
  scope: "user" | "project",
  paths: Pick<PolicyPaths, "homeDir" | "projectDir">,
  userAllowed: readonly string[],
): SandboxPolicy {
  // A project hook may widen writes only inside the project, and never into
  // what stays read-only there (the trusted set, git's config and hooks).
  const writes = (needs.write ?? [])
    .map((p) => expandPath(p, paths))
    .filter(
      (p) =>
        scope === "user" ||
        (isInside(p, paths.projectDir) && !policy.readOnly.some((ro) => isInside(p, ro))),
    );
  const hosts = (needs.network ?? []).filter(
    (host) => scope === "user" || userAllowed.includes("*") || userAllowed.includes(host),
  );
  if (writes.length === 0 && hosts.length === 0) return policy;
  return {
    ...policy,
    write: unique([...policy.write, ...writes]),
    network: withHosts(policy.network, hosts),
  };
}

function withHosts(network: NetworkPolicy, hosts: readonly string[]): NetworkPolicy {
  if (hosts.length === 0) return network;
  switch (network.kind) {
    case "none":
      return hosts.includes("*")
        ? { kind: "all", deny: [] }
        : { kind: "hosts", allow: hosts, deny: [] };
    case "hosts":
      return hosts.includes("*")
        ? { kind: "all", deny: network.deny }
        : { ...network, allow: unique([...network.allow, ...hosts]) };
    case "all":
      return network;
    default:
      return network satisfies never;
  }
}

export function isInside(file: string, dir: string): boolean {
  const rel = path.relative(dir, file);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}
