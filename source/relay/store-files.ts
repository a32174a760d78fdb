/**
 * The embedded store is only as trustworthy as its files: whoever can write
 * `ACAI_HOME/relay/` can put any message in any agent's mailbox. acai uses a
 * store only when its folder and files are this user's and nobody else may
 * write them; otherwise it refuses, naming the file and the fix.
 */
import { lstatSync, type Stats } from "node:fs";
import path from "node:path";
import { RelayError } from "./message.js";

/** What the checks need of the process (tests give their own). */
export interface FileOwner {
  /** The user id files must belong to; undefined where there are none (Windows): not checked. */
  uid: number | undefined;
}

export const currentOwner = (): FileOwner => ({ uid: process.getuid?.() });

export class UnsafeStoreError extends RelayError {
  override name = "UnsafeStoreError";
}

/** Throws an UnsafeStoreError when `dir` or one of the store's files could be written by someone else. */
export function checkStoreFiles(dir: string, files: readonly string[], owner: FileOwner): void {
  checkOne(dir, "folder", owner);
  for (const name of files) checkOne(path.join(dir, name), "file", owner);
}

function checkOne(file: string, kind: "folder" | "file", owner: FileOwner): void {
  let stats: Stats;
  try {
    stats = lstatSync(file);
  } catch {
    return; // Not there yet: created by this process, with mode 0600/0700.
  }
  const problem = problemOf(stats, kind, owner);
  if (problem === undefined) return;
  const fix = kind === "folder" ? `chmod 700 ${file}` : `chmod 600 ${file}`;
  throw new UnsafeStoreError(
    `the relay store ${file} ${problem}, so its messages could come from anyone; messages between agents stay off until it is fixed (${fix}, or remove it if it is not yours)`,
  );
}

function problemOf(stats: Stats, kind: "folder" | "file", owner: FileOwner): string | undefined {
  if (stats.isSymbolicLink()) return "is a symbolic link";
  if (kind === "folder" ? !stats.isDirectory() : !stats.isFile()) return `is not a regular ${kind}`;
  if (owner.uid !== undefined && stats.uid !== owner.uid)
    return `belongs to another user (uid ${stats.uid})`;
  if ((stats.mode & 0o022) !== 0)
    return `can be written by other users (mode ${(stats.mode & 0o777).toString(8).padStart(4, "0")})`;
  return undefined;
}
