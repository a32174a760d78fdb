/**
 * file_changed (Claude Code's FileChanged) for one run of a session, only
 * when a hook listens to it. The paths watched (docs/hooks.md "Watching
 * files"):
 * - the names a file_changed hook's matcher lists (`.envrc|.env`: literal
 *   names separated by `|`), in the project folder, as Claude Code registers
 *   them in its working directory;
 * - the `watchPaths` of the latest session_start or file_changed answer that
 *   gave some (they replace the earlier answer's; `[]` stops them).
 * Bounded (decision 0045): at most MAX_WATCHED_PATHS paths, every one inside
 * the project folder (as the file system resolves it: a link out is refused),
 * each refusal said once as a warning naming the hook. A change raises
 * `file_changed` beside the loop (`raise`).
 */
import { realpathSync } from "node:fs";
import path from "node:path";
import type { FileChange } from "../agent/event-data.js";
import type { HookDefinition } from "../hooks/contract/definition.js";
import { createPathWatcher, type PathWatcher, type WatchFolder } from "./path-watcher.js";

/** The most paths a session watches for file_changed hooks. */
export const MAX_WATCHED_PATHS = 64;

export interface FileWatchOptions {
  projectDir: string;
  /** The session's hooks (those of file_changed give the static names). */
  hooks: readonly HookDefinition[];
  raise(event: { type: "file_changed"; change: FileChange }): void;
  warn(message: string): void;
  watch?: WatchFolder;
}

export interface FileWatch {
  /** A session_start or file_changed answer's `watchPaths`, from `hook`. */
  setWatchPaths(paths: readonly string[], hook: Pick<HookDefinition, "name">): void;
  /** The paths watched now. */
  watched(): string[];
  close(): void;
}

/** Undefined when no hook listens to file_changed: nothing is watched. */
export function watchFiles(options: FileWatchOptions): FileWatch | undefined {
  const listening = options.hooks.filter((hook) => hook.events.includes("file_changed"));
  if (listening.length === 0) return undefined;
  const root = realOrSelf(options.projectDir);
  const fixed = listening.flatMap((hook) =>
    matcherNames(hook.matcher.source).map((name) => path.join(options.projectDir, name)),
  );
  let dynamic: string[] = [];
  const watcher: PathWatcher = createPathWatcher({
    onChange: (filePath, event) =>
      options.raise({ type: "file_changed", change: { filePath, event } }),
    onProblem: (folder, reason) =>
      options.warn(`file_changed: cannot watch ${folder} (${reason}); its files are not watched`),
    ...(options.watch === undefined ? {} : { watch: options.watch }),
  });
  const apply = (): void => {
    const all = [...new Set([...fixed, ...dynamic])];
    if (all.length > MAX_WATCHED_PATHS)
      options.warn(
        `file_changed: ${all.length} paths to watch, more than ${MAX_WATCHED_PATHS}; only the first ${MAX_WATCHED_PATHS} are watched`,
      );
    watcher.set(all.slice(0, MAX_WATCHED_PATHS));
  };
  apply();
  return {
    setWatchPaths(paths, hook) {
      const kept: string[] = [];
      for (const given of paths) {
        const file = path.resolve(options.projectDir, given);
        if (insideProject(root, file)) kept.push(file);
        else
          options.warn(
            `hook "${hook.name}" asked to watch ${JSON.stringify(given)}, which is outside the project folder ${options.projectDir}; it is not watched (acai watches only paths inside the project)`,
          );
      }
      dynamic = kept;
      apply();
    },
    watched: () => watcher.watched(),
    close: () => watcher.close(),
  };
}

/**
 * The literal file names of a matcher (`.envrc|.env`, `watched\.txt`), as
 * Claude Code reads FileChanged's: none for an empty one, `*`, or one with
 * other regular-expression characters than `.` (it still filters by name). A
 * Claude Code matcher arrives wrapped as a search (`[\s\S]*(?:…)[\s\S]*`,
 * hooks/contract/match.ts): the wrapper is taken off.
 */
export function matcherNames(source: string | undefined): string[] {
  if (source === undefined) return [];
  const inner = SEARCH_WRAPPER.exec(source)?.[1] ?? source;
  if (inner.trim() === "" || inner === "*") return [];
  const names = inner.split("|").map((name) => name.trim());
  if (!names.every((name) => /^(?:[\w-]|\\?\.)+$/.test(name))) return [];
  const plain = names.map((name) => name.replaceAll("\\.", "."));
  return plain.every((name) => name !== "." && name !== "..") ? plain : [];
}

const SEARCH_WRAPPER = /^\[\\s\\S\]\*\(\?:(.*)\)\[\\s\\S\]\*$/;

/** Inside the project as written and where it lands (the deepest part that exists, links followed). */
function insideProject(root: string, file: string): boolean {
  return within(root, landing(file));
}

function landing(file: string): string {
  const rest: string[] = [];
  let at = file;
  for (;;) {
    try {
      return path.join(realpathSync(at), ...rest);
    } catch {
      const parent = path.dirname(at);
      if (parent === at) return file;
      rest.unshift(path.basename(at));
      at = parent;
    }
  }
}

function within(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

function realOrSelf(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}
