/**
 * Watches a bounded set of paths for the session (file_changed's watched
 * paths, the settings files behind config_change) with node's `fs.watch` on
 * each path's folder, not the path itself: a file that does not exist yet, or
 * one an editor replaces by renaming, is still seen. A path that is a folder
 * when it is set is watched for its entries (one level). Every event is
 * checked against what the path was (stat: size, times, inode), so `fs.watch`'s
 * repeats of one state and the folder's other entries say nothing: `add` (it
 * appeared), `change`, `unlink` (it went). The watchers are not `persistent`
 * (they never keep acai running) and `close()` ends them all.
 */
import { type FSWatcher, watch as fsWatch, readdirSync, type Stats, statSync } from "node:fs";
import path from "node:path";
import { isDirectory } from "../shared/is-directory.js";

/** The kind of change reported (Claude Code's FileChanged `event`). */
export type PathChange = "add" | "change" | "unlink";

/** `fs.watch` as the watcher uses it (tests count what is opened and closed). */
export type WatchFolder = (
  folder: string,
  listener: (eventType: string, name: string | Buffer | null) => void,
) => Pick<FSWatcher, "close" | "on">;

export const watchFolder: WatchFolder = (folder, listener) =>
  fsWatch(folder, { persistent: false }, listener);

export interface PathWatcherOptions {
  /** Told of each change, with the path as it was set (or a watched folder's entry). */
  onChange(file: string, change: PathChange): void;
  /** Told when a folder cannot be watched (missing or unreadable): its paths are not watched. */
  onProblem?(file: string, reason: string): void;
  watch?: WatchFolder;
}

export interface PathWatcher {
  /** Watches exactly `files` (absolute), ending the watchers no longer needed. */
  set(files: readonly string[]): void;
  /** The paths watched now. */
  watched(): string[];
  /** The folder watchers open now. */
  openFolders(): number;
  close(): void;
}

/** Entries of a watched folder remembered (beyond it an entry seen first is reported as added). */
const MAX_FOLDER_ENTRIES = 1000;

type Stamp = string | undefined;

interface Folder {
  watcher: Pick<FSWatcher, "close" | "on">;
  /** Names watched in it; `*`: every entry (the path set was this folder). */
  names: Set<string>;
}

export function createPathWatcher(options: PathWatcherOptions): PathWatcher {
  const watch = options.watch ?? watchFolder;
  const folders = new Map<string, Folder>();
  const stamps = new Map<string, Stamp>();
  let files: string[] = [];
  let closed = false;
  const check = (file: string): void => {
    if (closed) return;
    const before = stamps.get(file);
    const now = stampOf(file);
    if (now === before) return;
    stamps.set(file, now);
    const change: PathChange =
      now === undefined ? "unlink" : before === undefined ? "add" : "change";
    options.onChange(file, change);
  };
  const onEvent = (folder: string, name: string | Buffer | null): void => {
    const entry = folders.get(folder);
    if (entry === undefined) return;
    const base = name === null ? undefined : name.toString();
    if (entry.names.has("*") && base !== undefined) check(path.join(folder, base));
    if (base !== undefined && entry.names.has(base)) check(path.join(folder, base));
    // No name given: every watched name of the folder is checked.
    if (base === undefined) for (const n of entry.names) if (n !== "*") check(path.join(folder, n));
  };
  const open = (folder: string): Folder | undefined => {
    const known = folders.get(folder);
    if (known !== undefined) return known;
    try {
      const watcher = watch(folder, (_type, name) => onEvent(folder, name));
      watcher.on("error", () => undefined);
      const made: Folder = { watcher, names: new Set() };
      folders.set(folder, made);
      return made;
    } catch (error) {
      options.onProblem?.(folder, (error as Error).message);
      return undefined;
    }
  };
  return {
    set(next) {
      if (closed) return;
      files = [...new Set(next)];
      const wanted = new Map<string, Set<string>>();
      for (const file of files) {
        const [folder, name] = isDirectory(file)
          ? [file, "*"]
          : [path.dirname(file), path.basename(file)];
        const names = wanted.get(folder) ?? new Set<string>();
        names.add(name);
        wanted.set(folder, names);
      }
      for (const [folder, entry] of folders) {
        if (wanted.has(folder)) continue;
        entry.watcher.close();
        folders.delete(folder);
      }
      for (const [folder, names] of wanted) {
        const entry = open(folder);
        if (entry === undefined) continue;
        entry.names = names;
        for (const name of names) remember(stamps, folder, name);
      }
    },
    watched: () => [...files],
    openFolders: () => folders.size,
    close() {
      closed = true;
      for (const entry of folders.values()) entry.watcher.close();
      folders.clear();
    },
  };
}

/** What a path is now, for the next event to compare with (a folder set whole: its entries). */
function remember(stamps: Map<string, Stamp>, folder: string, name: string): void {
  if (name !== "*") {
    const file = path.join(folder, name);
    if (!stamps.has(file)) stamps.set(file, stampOf(file));
    return;
  }
  let entries: string[];
  try {
    entries = readdirSync(folder).slice(0, MAX_FOLDER_ENTRIES);
  } catch {
    return;
  }
  for (const entry of entries) {
    const file = path.join(folder, entry);
    if (!stamps.has(file)) stamps.set(file, stampOf(file));
  }
}

/** size, modification and change times, inode; undefined when the path is not there. */
function stampOf(file: string): Stamp {
  let stats: Stats;
  try {
    stats = statSync(file);
  } catch {
    return undefined;
  }
  return `${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}:${stats.ino}:${stats.dev}`;
}
