/**
 * A spawner's private socket folder (spawner.ts): `<tmp>/acai-spawners-<uid>/acai-spawner-<acai's
 * pid>-XXXXXX`, holding only the socket `s` acai serves. It is made at the spawner's start and
 * removed at its end or at acai's exit — which an acai killed outright (SIGKILL, the OOM killer,
 * a test worker torn down) never reaches. Such a folder is collected later by the next acai of
 * the same user that starts a spawner with the same temp folder (decision 0065): once per temp
 * folder and process, after that spawner said it is ready, in the background. The folders are
 * kept together in one folder per user so that this costs a look at that folder, not at the
 * whole temp folder. Where that folder is not this user's alone (made by someone else, a link,
 * open to others), they go in a private folder of this acai's instead (shared/user-folder.ts,
 * decision 0068), which the sandboxes hide all the same: that folder is not swept (its name is
 * unpredictable, and a killed acai's is not found again), but a normal run leaves nothing of it —
 * each spawner's folder goes at its end or at acai's exit, and then the private folder if empty.
 *
 * A folder is collected only when everything says its acai is gone: the name is a spawner
 * folder's, the pid in it is not a live process (a cheap filter that leaves the live acais of
 * this PID namespace untouched), the folder is a real folder (never a link) owned by this user
 * with mode 0700 holding `s` alone, `s` is a socket older than a minute that refuses a
 * connection (nobody listens: a live acai in another PID namespace sharing the temp folder still
 * accepts) — and it goes by unlinking `s` and removing the then-empty folder, never by a
 * recursive removal.
 */
import { mkdtempSync, rmdirSync, unlinkSync } from "node:fs";
import { lstat, readdir, rmdir, unlink } from "node:fs/promises";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onceEach } from "../shared/once.js";
import { neededSocketFolder, ownFolder, userFolder } from "../shared/user-folder.js";

const NAME = /^acai-spawner-(\d+)-[A-Za-z0-9]{6}$/;
/** A refused socket younger than this may be one whose acai is between bind and listen. */
export const STALE_AFTER_MS = 60_000;
/** How long a connection to a socket may take to be accepted or refused (else: left alone). */
const CONNECT_TIMEOUT_MS = 2000;

export interface SocketFolderOptions {
  /** Parent of the folder (default: the OS temp folder). */
  tmpDir?: string;
  /**
   * Registers the folder's removal for acai's exit, where the spawner's own exit is never
   * seen; returns how to take it back (default: first among the listeners of the process's "exit").
   */
  atExit?: (cleanup: () => void) => () => void;
}

/** A spawner's socket folder: `dir`, in acai's folder of them `parent`, and how to remove it. */
export interface SocketFolder {
  dir: string;
  parent: string;
  remove: () => void;
}

/**
 * The default `atExit`: synchronous work at the process's "exit", taken back when done earlier.
 * It goes before the listeners registered earlier: the private folder it may lie in
 * (shared/user-folder.ts) is removed at exit too, if it is empty by then.
 */
function atProcessExit(cleanup: () => void): () => void {
  process.prependOnceListener("exit", cleanup);
  return () => process.off("exit", cleanup);
}

/** Removes the socket and the folder if then empty (never what else may be in it). */
function removeFolder(dir: string): void {
  for (const remove of [() => unlinkSync(join(dir, "s")), () => rmdirSync(dir)]) {
    try {
      remove();
    } catch {
      // Gone already, or not empty: left as it is.
    }
  }
}

/** `<tmp>/acai-spawners-<uid>`, this user's folder of spawner folders in `tmp`. */
export function spawnersFolder(tmp: string): string {
  return userFolder(tmp, "acai-spawners");
}

/**
 * The private socket folder: made now in acai's folder of them (this user's, or this acai's own
 * where that is not theirs alone), removed at the spawner's end or at acai's exit, whichever
 * comes first.
 */
export function socketFolder(options: SocketFolderOptions): SocketFolder {
  const parent = neededSocketFolder(options.tmpDir ?? tmpdir(), "acai-spawners");
  const dir = mkdtempSync(join(parent, `acai-spawner-${process.pid}-`));
  const removeNow = () => removeFolder(dir);
  const takeBack = (options.atExit ?? atProcessExit)(removeNow);
  return {
    dir,
    parent,
    remove: () => {
      takeBack();
      removeNow();
    },
  };
}

/** Whether `pid` may be a live process (a signal 0 to it is not refused for want of a process). */
function mayBeAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** Whether a connection to the socket at `path` is refused: nothing listens there. */
function refused(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const conn = createConnection(path);
    const done = (answer: boolean) => {
      conn.destroy();
      resolve(answer);
    };
    conn.setTimeout(CONNECT_TIMEOUT_MS, () => done(false));
    conn.once("connect", () => done(false));
    conn.once("error", (error: NodeJS.ErrnoException) => done(error.code === "ECONNREFUSED"));
  });
}

/** Whether `dir` is a folder this user made as a spawner's and whose socket nobody serves. */
async function isStale(dir: string, now: number): Promise<boolean> {
  const folder = await lstat(dir);
  const uid = process.getuid?.();
  if (!ownFolder(folder, uid)) return false;
  const entries = await readdir(dir);
  if (entries.length !== 1 || entries[0] !== "s") return false;
  const socket = await lstat(join(dir, "s"));
  if (!socket.isSocket() || socket.uid !== uid) return false;
  if (now - socket.mtimeMs < STALE_AFTER_MS) return false;
  if (!(await refused(join(dir, "s")))) return false;
  // Still the same folder (not replaced by a link meanwhile) right before its socket goes.
  const again = await lstat(dir);
  return again.isDirectory() && again.ino === folder.ino && again.dev === folder.dev;
}

/** Removes `dir` if stale; whether it did. */
async function collect(dir: string, now: number): Promise<boolean> {
  try {
    if (!(await isStale(dir, now))) return false;
    await unlink(join(dir, "s"));
    await rmdir(dir);
    return true;
  } catch {
    return false; // gone meanwhile (another acai collected it), or not ours to read
  }
}

/**
 * Removes the stale spawner folders of this user in `tmpDir` (above); the names of those it
 * removed. The folders of live acais and whatever acai did not make are left as they are.
 */
export async function sweepStaleFolders(tmpDir: string, now = Date.now()): Promise<string[]> {
  const parent = spawnersFolder(tmpDir);
  let names: string[];
  try {
    if (!ownFolder(await lstat(parent), process.getuid?.())) return [];
    names = await readdir(parent);
  } catch {
    return [];
  }
  const candidates = names.filter((name) => {
    const pid = NAME.exec(name)?.[1];
    return pid !== undefined && !mayBeAlive(Number(pid));
  });
  const removed = await Promise.all(candidates.map((name) => collect(join(parent, name), now)));
  return candidates.filter((_, i) => removed[i]);
}

const sweepOnce = onceEach((tmpDir: string) => {
  void sweepStaleFolders(tmpDir);
});

/** Sweeps `tmpDir` (default: the OS temp folder) in the background, once per process. */
export function sweepStaleFoldersOnce(tmpDir: string = tmpdir()): void {
  sweepOnce(tmpDir);
}
