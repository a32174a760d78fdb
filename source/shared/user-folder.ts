/**
 * This user's private folder of acai's sockets in a temp folder, mode 0700. The spawners' socket
 * folders (process/spawner-folder.ts) and the sandbox's network bridges' (sandbox/network.ts)
 * each keep theirs in one, so that every sandbox can hide the whole folder at once
 * (sandbox/session.ts): a sandboxed process may write the temp folder, and could otherwise
 * replace a socket there with its own.
 *
 * It is `<tmp>/<prefix>-<uid>`, shared by this user's acais, made if missing — where that is this
 * user's alone (a real folder of theirs, mode 0700). Where it is not (another user made it first,
 * it is a link, it is open to others), it is a folder of this process's own,
 * `<tmp>/<prefix>-<uid>-XXXXXX` (`mkdtemp`: 0700, ours by construction, its name unpredictable),
 * removed at the process's exit if empty (decision 0068). `acaiSocketFolder` is the one answer
 * to "which folder": the sandbox policy hides what it answers, the spawners and bridges make
 * their folders in it, and it answers the same for the whole process — chosen at the first ask
 * per temp folder, and checked again at every ask (made again if gone).
 */
import { lstatSync, mkdirSync, mkdtempSync, rmdirSync, type Stats } from "node:fs";
import { join } from "node:path";
import { onceEach } from "./once.js";

/** The prefixes of acai's folders of sockets, one each per user and temp folder. */
export const SOCKET_FOLDERS = ["acai-spawners", "acai-networks"] as const;
export type SocketFolderPrefix = (typeof SOCKET_FOLDERS)[number];

/** Whether `stat` is a real folder of user `uid` that nobody else may enter. */
export function ownFolder(stat: Stats, uid: number | undefined): boolean {
  return stat.isDirectory() && stat.uid === uid && (stat.mode & 0o777) === 0o700;
}

/** `<tmp>/<prefix>-<uid>`: where this user's shared folder of `prefix` lies in `tmp`. */
export function userFolder(tmp: string, prefix: SocketFolderPrefix): string {
  return join(tmp, `${prefix}-${process.getuid?.() ?? "user"}`);
}

/** Makes `folder` (0700) if missing; whether it is then this user's alone. */
function madeOwn(folder: string): boolean {
  try {
    mkdirSync(folder, { mode: 0o700 });
  } catch {
    // There already (checked below), or cannot be made.
  }
  try {
    return ownFolder(lstatSync(folder), process.getuid?.());
  } catch {
    return false;
  }
}

/** A folder of this process's own for `prefix` in `tmp`, removed at exit if empty; undefined if none can be made. */
function privateFolder(tmp: string, prefix: SocketFolderPrefix): string | undefined {
  let folder: string;
  try {
    folder = mkdtempSync(`${userFolder(tmp, prefix)}-`);
  } catch {
    return undefined; // `tmp` is missing or not writable: no socket of acai's goes there
  }
  process.once("exit", () => {
    try {
      rmdirSync(folder);
    } catch {
      // Not empty (left as it is), or gone.
    }
  });
  return folder;
}

/** The first ask's choice for `prefix` in `tmp`: the shared folder if this user's alone, else a private one. */
function choose(tmp: string, prefix: SocketFolderPrefix): string | undefined {
  const shared = userFolder(tmp, prefix);
  return madeOwn(shared) ? shared : privateFolder(tmp, prefix);
}

const chosen = {
  "acai-spawners": onceEach((tmp: string) => choose(tmp, "acai-spawners")),
  "acai-networks": onceEach((tmp: string) => choose(tmp, "acai-networks")),
} satisfies Record<SocketFolderPrefix, (tmp: string) => string | undefined>;

/**
 * The folder of acai's sockets of `prefix` in the temp folder `tmp` for this process (above);
 * undefined where none can be made there (then nothing of acai's can go there either). Throws
 * where the folder chosen earlier is no longer this user's alone: another folder would not be
 * the one the sandboxes started meanwhile hide.
 */
export function acaiSocketFolder(tmp: string, prefix: SocketFolderPrefix): string | undefined {
  const folder = chosen[prefix](tmp);
  if (folder === undefined || madeOwn(folder)) return folder;
  throw new Error(
    `acai's folder of sockets ${folder} is no longer this user's alone (a real folder of uid ${process.getuid?.()} with mode 0700): it was removed and made again by someone else, or its mode changed. Restart acai; it will use a private folder in ${tmp}.`,
  );
}

/** `acaiSocketFolder`, where a socket must go: throws, naming the temp folder, where none can be made. */
export function neededSocketFolder(tmp: string, prefix: SocketFolderPrefix): string {
  const folder = acaiSocketFolder(tmp, prefix);
  if (folder !== undefined) return folder;
  throw new Error(
    `acai cannot make a folder for its sockets (${prefix}) in the temp folder ${tmp}: it was missing or not writable when this acai first looked. Set TMPDIR to a folder you can write.`,
  );
}
