/**
 * Whether the OS sandbox can run here, and if not, what is missing and how to
 * get it — in one line, said once per session.
 *
 * Linux: bubblewrap, found at the `sandbox.bwrapPath` setting or on the
 * session's PATH (never a fixed location, so a PATH without it means no
 * sandbox), then tried once with the options every launch uses (a user
 * namespace, a PID namespace, a fresh /proc): disabled user namespaces or an
 * unprivileged container fail here, not in the middle of a tool call.
 * macOS: `sandbox-exec` profiles are not applied by this version (seatbelt.ts
 * writes them; nothing runs them yet). Elsewhere there is none.
 */
import { executableFile, findOnPath } from "../process/find-on-path.js";

export type SandboxAvailability =
  | { readonly kind: "available"; readonly bwrap: string }
  | { readonly kind: "unavailable"; readonly missing: string; readonly fix: string };

export interface ProbeResult {
  status: number | null;
  stderr: string;
  error?: string;
}

export interface DetectOptions {
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  /** The `sandbox.bwrapPath` setting, if any. */
  bwrapPath?: string;
  /** Runs `bwrap ARGS` and waits (spawnSync in acai; a fake in tests). */
  probe: (bwrap: string, args: readonly string[]) => ProbeResult;
  /** Whether a file is an executable (default: the file system). */
  isExecutable?: (file: string) => boolean;
}

/** What the probe runs: the namespaces and mounts every launch needs. */
export const PROBE_ARGS: readonly string[] = [
  "--ro-bind",
  "/",
  "/",
  "--dev",
  "/dev",
  "--proc",
  "/proc",
  "--unshare-pid",
  "--unshare-net",
  "--die-with-parent",
  "--cap-drop",
  "ALL",
  "--",
  "true",
];

export function detectSandbox(options: DetectOptions): SandboxAvailability {
  switch (options.platform) {
    case "linux":
      return detectBwrap(options);
    case "darwin":
      return {
        kind: "unavailable",
        missing:
          "on macOS this version of acai does not apply a sandbox (sandbox-exec profiles are not run yet)",
        fix: "run acai inside a Linux VM or container with bubblewrap for an OS sandbox",
      };
    default:
      return {
        kind: "unavailable",
        missing: `acai has no OS sandbox on ${options.platform}`,
        fix: "run acai on Linux with bubblewrap (or in WSL2) for an OS sandbox",
      };
  }
}

function detectBwrap(options: DetectOptions): SandboxAvailability {
  const isExecutable = options.isExecutable ?? executableFile;
  const bwrap =
    options.bwrapPath !== undefined
      ? isExecutable(options.bwrapPath)
        ? options.bwrapPath
        : undefined
      : findOnPath("bwrap", options.env.PATH ?? "", isExecutable);
  if (bwrap === undefined) {
    return {
      kind: "unavailable",
      missing:
        options.bwrapPath !== undefined
          ? `bubblewrap is not at ${options.bwrapPath} (sandbox.bwrapPath)`
          : "bubblewrap (bwrap) is not on PATH",
      fix: "install it (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)",
    };
  }
  const probe = options.probe(bwrap, PROBE_ARGS);
  if (probe.status === 0) return { kind: "available", bwrap };
  const said = (probe.error ?? probe.stderr).trim().split("\n")[0] ?? "";
  return {
    kind: "unavailable",
    missing: `bubblewrap cannot create its namespaces here (${said || `exit ${probe.status}`})`,
    fix: namespaceFix(said),
  };
}

function namespaceFix(said: string): string {
  if (/uid map|user namespace|No permissions|Operation not permitted/i.test(said)) {
    return "enable unprivileged user namespaces (sysctl -w kernel.unprivileged_userns_clone=1, or on Ubuntu 24.04+ kernel.apparmor_restrict_unprivileged_userns=0), or run the container with --privileged / a seccomp profile that allows them";
  }
  return "check that bwrap runs here: bwrap --ro-bind / / --unshare-pid --proc /proc true";
}
