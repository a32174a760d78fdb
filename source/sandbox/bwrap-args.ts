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
 * Read-only paths inside a read-only folder are not bound again (a trusted
 * project's `.acai/` is one mount, not one per file), unless a writable path
 * lies between them; files left in one folder are bound as their folder when
 * there are many of them (narrower, never wider). bubblewrap accepts at most
 * 9000 arguments: a policy that still needs more is refused with
 * SandboxPolicyTooLargeError rather than started without some of its mounts.
 *
 * Always: capabilities dropped (acai run as root would otherwise keep
 * CAP_SYS_ADMIN and could unmount the read-only binds), a fresh /dev and
 * /proc in its own PID namespace (a child cannot read acai's
 * /proc/PID/environ), and dies with its parent.
 */
import { dirname } from "node:path";
import { aloneInParent } from "../process/bwrap.js";
import type { SandboxPolicy } from "./policy.js";

/** bubblewrap's limit is 9000 arguments; the launch adds `--chdir`, the bridge's bind and the like. */
export const MAX_BWRAP_ARGS = 8500;
/** More read-only files than this in one folder are bound as the folder. */
export const FILES_PER_FOLDER = 32;

export class SandboxPolicyTooLargeError extends Error {
  override readonly name = "SandboxPolicyTooLargeError";
}

export type PathKind = "dir" | "file" | "missing";

/** A network bridge's private folder of sockets, `socketDir`, in acai's folder of them, `socketParent` (network.ts). */
export interface BridgeFolder {
  socketDir: string;
  socketParent: string;
}

export interface BwrapContext extends Partial<BridgeFolder> {
  /** What is at a path (following links). */
  kind(path: string): PathKind;
  /** Where a path really is (links resolved); the path itself when it cannot be resolved. */
  realpath(path: string): string;
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
  const write = existing(policy.write);
  for (const { path } of write) args.push("--bind", path, path);
  const readOnly = coalesce(existing(policy.readOnly), write);
  for (const { path } of readOnly) args.push("--ro-bind", path, path);
  // A writable path inside a read-only one (a hook's CLAUDE_ENV_FILE folder under ACAI_HOME) is bound again,
  // and the read-only paths inside it once more after it.
  const nested = write.filter(({ path }) =>
    readOnly.some((ro) => ro.path !== path && isWithin(path, ro.path)),
  );
  for (const { path } of nested) args.push("--bind", path, path);
  for (const { path } of readOnly) {
    if (nested.some((w) => isWithin(path, w.path))) args.push("--ro-bind", path, path);
  }
  for (const { path, kind } of existing(policy.denyRead)) {
    if (kind === "dir") args.push("--tmpfs", path, "--remount-ro", path);
    else args.push("--ro-bind", "/dev/null", path);
  }
  args.push(...networkArguments(policy, context));
  if (args.length > MAX_BWRAP_ARGS) throw tooLarge(args.length, readOnly.length, policy);
  return args;
}

interface Mount {
  path: string;
  kind: PathKind;
}

/** The read-only mounts that are needed: none already read-only through a folder, many files as their folder. */
function coalesce(readOnly: readonly Mount[], write: readonly Mount[]): Mount[] {
  const writable = new Set(write.map((m) => m.path));
  const needed = (mounts: readonly Mount[]): Mount[] => {
    const ro = new Set(mounts.map((m) => m.path));
    return mounts.filter((m) => !coveredBy(m.path, ro, writable));
  };
  const first = needed(readOnly);
  const byFolder = new Map<string, Mount[]>();
  for (const m of first) {
    if (m.kind !== "file") continue;
    const folder = dirname(m.path);
    const files = byFolder.get(folder) ?? [];
    files.push(m);
    byFolder.set(folder, files);
  }
  // Never a writable root itself (the project's own files would all turn read-only).
  const folders = [...byFolder].filter(
    ([folder, files]) => files.length > FILES_PER_FOLDER && !writable.has(folder),
  );
  if (folders.length === 0) return first;
  const added = folders.map(([folder]) => ({ path: folder, kind: "dir" as const }));
  return needed(unique([...first, ...added]));
}

/** A folder above `file` is read-only, and no writable path lies between them. */
function coveredBy(file: string, readOnly: ReadonlySet<string>, writable: ReadonlySet<string>) {
  if (writable.has(file)) return false;
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (writable.has(dir)) return false;
    if (readOnly.has(dir)) return true;
    if (dir === dirname(dir)) return false;
  }
}

function tooLarge(count: number, readOnly: number, policy: SandboxPolicy): Error {
  return new SandboxPolicyTooLargeError(
    `The sandbox policy "${policy.name}" needs ${count} bubblewrap arguments (${readOnly} read-only and ${policy.denyRead.length} unreadable paths), more than bubblewrap accepts (9000). List fewer paths in sandbox.filesystem.denyRead / denyWrite (your ~/.acai/settings.json, the project's .acai/settings.json), or name their folders instead of each file.`,
  );
}

function networkArguments(policy: SandboxPolicy, context: BwrapContext): string[] {
  switch (policy.network.kind) {
    case "none":
      return ["--unshare-net"];
    case "hosts":
      if (context.socketDir === undefined) return ["--unshare-net"];
      return ["--unshare-net", ...bridgeFolder(context.socketDir, context.socketParent)];
    case "all":
      return [];
    default:
      return policy.network satisfies never;
  }
}

/**
 * The network bridge's socket folder, read-only (a unix socket connects all the same). Its
 * parent, acai's folder of them (sandbox/network.ts), which the policy hides, becomes an empty
 * tmpfs with it bound alone, read-only again after: no other session's bridge is in reach.
 */
function bridgeFolder(socketDir: string, parent: string | undefined): string[] {
  if (parent === undefined || dirname(socketDir) !== parent)
    return ["--ro-bind", socketDir, socketDir];
  return [...aloneInParent(socketDir, parent), "--remount-ro", parent];
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
