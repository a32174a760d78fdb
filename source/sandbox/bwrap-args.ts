/**
 * A policy as bubblewrap options — everything between `bwrap` and the
 * command. Pure: what exists on disk and where links lead arrive in the
 * context, so the same policy always gives the same arguments.
 *
 * Mount order is the policy: the whole file system read-only, then the
 * writable folders over it, then the read-only paths over those (ACAI_HOME
 * and the trusted project files stay read-only inside the writable project),
 * then the unreadable ones (an empty read-only tmpfs over a folder, /dev/null
 * over a file). Every path is mounted where it really is (links resolved), so
 * a link cannot point a mount elsewhere, and a path that does not exist is
 * skipped (bubblewrap cannot mount over nothing on a read-only root; a
 * missing file under a read-only folder cannot be created anyway).
 *
 * Always: capabilities dropped (acai run as root would otherwise keep
 * CAP_SYS_ADMIN and could unmount the read-only binds), a fresh /dev and
 * /proc in its own PID namespace (a child cannot read acai's
 * /proc/PID/environ), and dies with its parent.
 */
import type { SandboxPolicy } from "./policy.js";

export type PathKind = "dir" | "file" | "missing";

export interface BwrapContext {
  /** What is at a path (following links). */
  kind(path: string): PathKind;
  /** Where a path really is (links resolved); the path itself when it cannot be resolved. */
  realpath(path: string): string;
  /** The private folder holding the network bridge's sockets (policies with allowed hosts). */
  socketDir?: string;
}

export function bwrapArguments(policy: SandboxPolicy, context: BwrapContext): string[] {
  const args = [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--unshare-pid",
    "--die-with-parent",
    "--cap-drop",
    "ALL",
  ];
  const existing = (paths: readonly string[]) =>
    unique(
      paths.flatMap((p) => {
        const kind = context.kind(p);
        return kind === "missing" ? [] : [{ path: context.realpath(p), kind }];
      }),
    );
  for (const { path } of existing(policy.write)) args.push("--bind", path, path);
  const readOnly = existing(policy.readOnly);
  for (const { path } of readOnly) args.push("--ro-bind", path, path);
  // A writable path inside a read-only one (a hook's CLAUDE_ENV_FILE folder under ACAI_HOME) is bound again.
  for (const { path } of existing(policy.write)) {
    if (readOnly.some((ro) => ro.path !== path && isWithin(path, ro.path))) {
      args.push("--bind", path, path);
    }
  }
  for (const { path, kind } of existing(policy.denyRead)) {
    if (kind === "dir") args.push("--tmpfs", path, "--remount-ro", path);
    else args.push("--ro-bind", "/dev/null", path);
  }
  args.push(...networkArguments(policy, context));
  return args;
}

function networkArguments(policy: SandboxPolicy, context: BwrapContext): string[] {
  switch (policy.network.kind) {
    case "none":
      return ["--unshare-net"];
    case "hosts":
      if (context.socketDir === undefined) return ["--unshare-net"];
      return ["--unshare-net", "--bind", context.socketDir, context.socketDir];
    case "all":
      return [];
    default:
      return policy.network satisfies never;
  }
}

function isWithin(file: string, dir: string): boolean {
  return file.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
}

function unique<T extends { path: string }>(items: readonly T[]): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const item of items) {
    if (seen.has(item.path)) continue;
    seen.add(item.path);
    out.push(item);
  }
  return out;
}
