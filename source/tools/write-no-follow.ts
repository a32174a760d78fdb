/**
 * Writes a file at its landing (`landing.ts`: a path with no link left in it)
 * without following any link: each missing parent is created one by one and
 * checked to be a real folder, the file is opened with `O_NOFOLLOW` and
 * checked to be the one at the landing before anything is truncated or
 * written. A link swapped in by a race (a background process of the model's)
 * makes the write fail; it never carries it somewhere else.
 */
import { constants, lstatSync, readlinkSync } from "node:fs";
import { type FileHandle, lstat, mkdir, open } from "node:fs/promises";
import path from "node:path";

export class NotFollowedError extends Error {}

export interface NoFollowWrite {
  /** Whether the file was there before. */
  existed: boolean;
}

/** Writes `content` to `landing` (absolute, links resolved), creating its folders; never follows a link. */
export async function writeNoFollow(landing: string, content: string): Promise<NoFollowWrite> {
  await ensureRealFolders(path.dirname(landing));
  const before = await lstat(landing).catch(() => undefined);
  if (before?.isSymbolicLink()) throw new NotFollowedError(`${landing} is a link; not followed.`);
  if (before?.isDirectory())
    throw new NotFollowedError(`${landing} is a directory; give a file path.`);
  let handle: FileHandle;
  try {
    handle = await open(landing, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") {
      throw new NotFollowedError(
        `${landing} became a link while it was being written; not followed.`,
      );
    }
    throw error;
  }
  try {
    await checkOpened(handle, landing);
    await handle.truncate(0);
    await handle.writeFile(content, "utf8");
  } finally {
    await handle.close();
  }
  return { existed: before !== undefined };
}

/** Every folder from the root down to `dir` exists and is a real folder, not a link; missing ones are made one by one. */
async function ensureRealFolders(dir: string): Promise<void> {
  const parts = dir.split(path.sep).filter((part) => part !== "");
  let current: string = path.sep;
  for (const part of parts) {
    current = path.join(current, part);
    let info = await lstat(current).catch(() => undefined);
    if (info === undefined) {
      await mkdir(current).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "EEXIST") throw error;
      });
      info = await lstat(current);
    }
    if (info.isSymbolicLink()) {
      throw new NotFollowedError(
        `${current} is a link (it was not when the write was judged); not followed.`,
      );
    }
    if (!info.isDirectory()) throw new NotFollowedError(`${current} is not a folder.`);
  }
}

/** The open file is the one at `landing` (no folder above it was swapped for a link meanwhile). */
async function checkOpened(handle: FileHandle, landing: string): Promise<void> {
  const opened = await handle.stat();
  const there = lstatSync(landing, { throwIfNoEntry: false });
  const same = there !== undefined && there.ino === opened.ino && there.dev === opened.dev;
  const viaProc = procPath(handle.fd);
  if (!same || (viaProc !== undefined && viaProc !== landing) || !opened.isFile()) {
    throw new NotFollowedError(
      `${landing} changed while it was being written; nothing was written.`,
    );
  }
}

/** Where Linux says an open file descriptor is; undefined elsewhere. */
function procPath(fd: number): string | undefined {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}
