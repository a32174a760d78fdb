/**
 * Reads a file a project controls without trusting what it is: only a regular
 * file, opened without blocking (a FIFO or `/dev/tty` never waits for a
 * writer or the keyboard) and without becoming a controlling terminal, and
 * never more than `maxBytes` (a link to `/dev/zero` or a huge file costs
 * nothing). Synchronous on purpose: project files are few and small, and the
 * sync API avoids a thread-pool round trip per step (see sources/files.ts).
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";

/** Default cap for project configuration files (settings, HOOK.md, metadata): 1 MiB. */
export const MAX_PROJECT_FILE_BYTES = 1024 * 1024;

export type RegularFileRead =
  | { ok: true; data: Buffer; stats: Stats }
  | { ok: false; problem: "missing" }
  | { ok: false; problem: "not-regular" | "too-large" | "unreadable"; reason: string };

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

export interface ReadRegularFileOptions {
  /** `false`: a symbolic link is refused, not followed (a file a sandboxed process could replace). */
  followLinks?: boolean;
}

export function readRegularFileSync(
  file: string,
  maxBytes: number,
  options: ReadRegularFileOptions = {},
): RegularFileRead {
  const follow = options.followLinks !== false;
  let fd: number;
  try {
    fd = openSync(file, follow ? OPEN_FLAGS : OPEN_FLAGS | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { ok: false, problem: "missing" };
    if (code === "ELOOP") {
      const reason = follow ? "it is a symlink loop" : "it is a symbolic link";
      return { ok: false, problem: "not-regular", reason };
    }
    return { ok: false, problem: "unreadable", reason: openFailure(code, error) };
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) {
      return {
        ok: false,
        problem: "not-regular",
        reason: `it is ${kindOf(stats)}, not a regular file`,
      };
    }
    if (stats.size > maxBytes) {
      return { ok: false, problem: "too-large", reason: tooLarge(stats.size, maxBytes) };
    }
    return readAtMost(fd, stats, maxBytes);
  } catch (error) {
    return { ok: false, problem: "unreadable", reason: (error as Error).message };
  } finally {
    closeSync(fd);
  }
}

/** Reads to the end, but stops one byte past the cap: a file that grows while read is still refused. */
function readAtMost(fd: number, stats: Stats, maxBytes: number): RegularFileRead {
  const buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1, Math.max(stats.size, 0) + 1));
  let length = 0;
  let target = buffer;
  for (;;) {
    if (length === target.length) {
      if (length > maxBytes) break;
      const bigger = Buffer.allocUnsafe(Math.min(maxBytes + 1, target.length * 2));
      target.copy(bigger, 0, 0, length);
      target = bigger;
    }
    const read = readSync(fd, target, length, target.length - length, null);
    if (read === 0) break;
    length += read;
  }
  if (length > maxBytes) {
    return { ok: false, problem: "too-large", reason: tooLarge(length, maxBytes) };
  }
  return { ok: true, data: target.subarray(0, length), stats };
}

function tooLarge(size: number, maxBytes: number): string {
  return `it is larger than the ${formatBytes(maxBytes)} limit (${size >= maxBytes ? "at least " : ""}${formatBytes(size)})`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${bytes} bytes`;
}

function openFailure(code: string | undefined, error: unknown): string {
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "it is a directory, not a file";
  return (error as Error).message;
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isFIFO()) return "a named pipe";
  if (stats.isSocket()) return "a socket";
  return "not a regular file";
}
