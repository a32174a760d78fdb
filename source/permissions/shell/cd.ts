/**
 * `cd` in a line moves where its later relative redirections write
 * (`cd .git && echo x > config` writes `.git/config`), pure. The folders a
 * line changes to are collected as it is walked; each relative write is then
 * judged in the folder it was given from and in every folder the line
 * changes to (in order, each from the one before), so the protected-path
 * check and the Write rules see where it may land. A change the parse cannot
 * follow (`cd "$X"`, `cd -`, `popd`) leaves the writes' folder unknown.
 */
import path from "node:path";
import type { Word } from "./words.js";
import { baseName } from "./wrappers.js";

export interface FolderChanges {
  /** Literal targets, in line order (`~` for the home folder). */
  targets: string[];
  /** A change whose target cannot be told. */
  unknown: boolean;
}

export function noFolderChanges(): FolderChanges {
  return { targets: [], unknown: false };
}

/** Records a `cd`/`pushd`/`popd` command (program first); anything else is ignored. */
export function noteFolderChange(all: readonly Word[], changes: FolderChanges): void {
  // `builtin cd` and `command cd` are cd.
  let skip = 0;
  while (skip < all.length - 1 && /^(?:builtin|command)$/.test(all[skip]?.text ?? "")) skip++;
  const words = all.slice(skip);
  const name = baseName(words[0]?.text ?? "");
  if (name === "popd") changes.unknown = true;
  if (name !== "cd" && name !== "pushd") return;
  const operands = words.slice(1).filter((w) => !/^-[LPe@]+$/.test(w.text) && w.text !== "--");
  const target = operands[0];
  if (target === undefined) changes.targets.push("~");
  else if (!target.literal || target.text === "-" || /^[+-]\d+$/.test(target.text))
    changes.unknown = true;
  else changes.targets.push(target.text);
}

/** The writes with each relative one also taken from every folder the line changes to. */
export function writesAcrossFolders(writes: readonly string[], changes: FolderChanges): string[] {
  if (changes.targets.length === 0) return [...writes];
  const folders: string[] = [];
  let current = ".";
  for (const target of changes.targets) {
    current =
      path.posix.isAbsolute(target) || /^~(?:\/|$)/.test(target)
        ? target
        : path.posix.join(current, target);
    folders.push(current);
  }
  const out = [...writes];
  for (const write of writes) {
    if (path.posix.isAbsolute(write) || /^~(?:\/|$)/.test(write)) continue;
    for (const folder of folders) {
      const joined = path.posix.join(folder, write);
      if (!out.includes(joined)) out.push(joined);
    }
  }
  return out;
}

/** Whether a relative write's folder cannot be told. */
export function writesLost(writes: readonly string[], changes: FolderChanges): boolean {
  return changes.unknown && writes.some((w) => !path.posix.isAbsolute(w) && !/^~(?:\/|$)/.test(w));
}
