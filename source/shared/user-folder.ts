/**
 * This user's private folder of acai's sockets in a temp folder: `<tmp>/<prefix>-<uid>`, mode
 * 0700. The spawners' socket folders (process/spawner-folder.ts) and the sandbox's network
 * bridges (sandbox/network.ts) each keep theirs in one, so that every sandbox can hide the whole
 * folder at once (sandbox/session.ts): a sandboxed process may write the temp folder, and could
 * otherwise replace a socket there with its own.
 */
import { lstatSync, mkdirSync, type Stats } from "node:fs";
import { basename, join } from "node:path";

/** The prefixes of acai's folders of sockets, one each per user and temp folder. */
export const SOCKET_FOLDERS = ["acai-spawners", "acai-networks"] as const;
export type SocketFolderPrefix = (typeof SOCKET_FOLDERS)[number];

/** Whether `dir` is named like one of this user's folders of `prefix` (`<prefix>-<uid>`). */
export function namedUserFolder(dir: string, prefix: SocketFolderPrefix): boolean {
  return basename(dir) === folderName(prefix);
}

/** Whether `stat` is a real folder of user `uid` that nobody else may enter. */
export function ownFolder(stat: Stats, uid: number | undefined): boolean {
  return stat.isDirectory() && stat.uid === uid && (stat.mode & 0o777) === 0o700;
}

/** `<tmp>/<prefix>-<uid>`: where this user's folder of `prefix` lies in `tmp`. */
export function userFolder(tmp: string, prefix: SocketFolderPrefix): string {
  return join(tmp, folderName(prefix));
}

function folderName(prefix: SocketFolderPrefix): string {
  return `${prefix}-${process.getuid?.() ?? "user"}`;
}

/** This user's folder of `prefix` in `tmp`, made if missing; undefined if it is not theirs alone. */
export function ownUserFolder(tmp: string, prefix: SocketFolderPrefix): string | undefined {
  const folder = userFolder(tmp, prefix);
  try {
    mkdirSync(folder, { mode: 0o700 });
  } catch {
    // There already (checked below), or cannot be made.
  }
  try {
    return ownFolder(lstatSync(folder), process.getuid?.()) ? folder : undefined;
  } catch {
    return undefined;
  }
}
