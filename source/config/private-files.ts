/**
 * Folders and files acai keeps under ACAI_HOME hold prompts, tool output,
 * hook answers and trust decisions: only their owner may read them. New
 * folders are created 0700 (every level created, ACAI_HOME included) and files
 * 0600; a file acai appends to that an older acai created more open is
 * tightened. Existing folders are left as they are: ACAI_HOME may be a folder
 * the user chose and shares on purpose (or their home), and acai does not
 * change its mode behind their back. Modes are further narrowed by the umask,
 * never widened.
 *
 * Node built-ins only: the `acai` bin imports this before the code cache is on.
 */
import { randomBytes } from "node:crypto";
import {
  fchmodSync,
  fstatSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { chmod, mkdir, stat } from "node:fs/promises";
import path from "node:path";

const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/** Bits that let anyone but the owner in. */
const GROUP_OTHER = 0o077;

/** `mkdir -p` with 0700 for every folder it creates. */
export function ensurePrivateDirSync(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * Opens `file` for appending (creating it 0600 and its folders 0700) and
 * returns the descriptor; an existing file readable by others is made 0600.
 */
export function openPrivateAppendSync(file: string): number {
  ensurePrivateDirSync(path.dirname(file));
  const fd = openSync(file, "a", PRIVATE_FILE_MODE);
  try {
    if ((fstatSync(fd).mode & GROUP_OTHER) !== 0) fchmodSync(fd, PRIVATE_FILE_MODE);
  } catch {
    // A file system without modes (or not ours to chmod): the write still goes ahead.
  }
  return fd;
}

/** Makes an existing file 0600 if others may read it; a missing file is not an error. */
export async function tightenFile(file: string): Promise<void> {
  const info = await stat(file).catch(() => undefined);
  if (info && (info.mode & GROUP_OTHER) !== 0) await chmod(file, PRIVATE_FILE_MODE).catch(() => {});
}

/**
 * Writes `text` to `file` (0600, new folders 0700) beside it and renames it
 * over, so it is never half written and a planted link is replaced, not
 * followed; false when it could not be written (nothing is left behind).
 */
export function writePrivateFileAtomicSync(file: string, text: string): boolean {
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    ensurePrivateDirSync(path.dirname(file));
    writeFileSync(temporary, text, { flag: "wx", mode: PRIVATE_FILE_MODE });
    renameSync(temporary, file);
    return true;
  } catch {
    rmSync(temporary, { force: true });
    return false;
  }
}
