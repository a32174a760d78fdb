import { type Dirent, readdirSync, statSync } from "node:fs";
import { stat } from "node:fs/promises";
import { dirname, relative, resolve, sep } from "node:path";
import picomatch from "picomatch";
import {
  chainAbove,
  extendChain,
  GITIGNORE,
  type IgnoreChain,
  ignoreTop,
  isIgnored,
} from "./ignore.js";

/** Directories Glob and Grep never enter. */
const SKIPPED_DIRS: ReadonlySet<string> = new Set([".git", "node_modules"]);

export interface ListFilesOptions {
  signal?: AbortSignal | undefined;
  /** The project directory: its `.gitignore` applies to searches below it even outside a git work tree. */
  projectDir?: string | undefined;
  /** Honour `.gitignore` files (default true). */
  gitignore?: boolean | undefined;
  /**
   * Whether a file or folder may be listed (the session's Read deny and ask
   * rules, `ToolContext.readable`): what it refuses is left out, and a
   * refused folder is not entered.
   */
  readable?: ((file: string) => boolean) | undefined;
}

interface Pending {
  dir: string;
  /** `dir` relative to the search root, "" for the root itself, "/"-separated. */
  rel: string;
  depth: number;
  chain: IgnoreChain;
}

/** What a walk looks for, fixed for its whole length. */
interface Search {
  isMatch: (rel: string) => boolean;
  maxDepth: number;
  useIgnore: boolean;
  readable: ((file: string) => boolean) | undefined;
}

/**
 * Absolute paths of the files under `root` matching `pattern` (relative to
 * `root`; dotfiles included, symbolic links listed but not followed), skipping
 * `.git`, `node_modules` and whatever the `.gitignore` files in effect ignore.
 * Walks with synchronous calls in slices of a few milliseconds, yielding to
 * the event loop between them; stops early when `signal` aborts.
 */
export async function listFiles(
  root: string,
  pattern: string,
  options: ListFilesOptions = {},
): Promise<string[]> {
  const normalized = pattern.replace(/^(\.\/)+/, "");
  const scan = picomatch.scan(normalized);
  const isMatch = picomatch(normalized, { dot: true });
  const start = resolve(root, scan.base);
  const startRel = scan.base === "" ? "" : relative(root, start).split(sep).join("/");
  // Without "**" a pattern cannot match deeper than its own segments below its base.
  const maxDepth =
    scan.glob.includes("**") || scan.isBrace || scan.isExtglob
      ? Number.POSITIVE_INFINITY
      : scan.glob.split("/").length;
  const chain = options.gitignore === false ? [] : startChain(root, start, options);
  const startInfo = statSync(start, { throwIfNoEntry: false });
  if (!startInfo) return [];
  if (!startInfo.isDirectory()) {
    // A literal pattern naming one file.
    return startInfo.isFile() &&
      isMatch(startRel) &&
      !isIgnored(chain, start, false) &&
      (options.readable?.(start) ?? true)
      ? [start]
      : [];
  }
  const search: Search = {
    isMatch,
    maxDepth,
    useIgnore: options.gitignore !== false,
    readable: options.readable,
  };
  return walk({ dir: start, rel: startRel, depth: 0, chain }, search, options.signal);
}

/** The `.gitignore` files in effect at `start`: from the top of the ignore scope down. */
function startChain(root: string, start: string, options: ListFilesOptions): IgnoreChain {
  const projectDir = options.projectDir ?? root;
  if (!(start === root || start.startsWith(root + sep))) {
    return chainAbove(ignoreTop(start, projectDir), start);
  }
  let chain = chainAbove(ignoreTop(root, projectDir), root);
  if (start !== root) {
    const between: string[] = [];
    for (let dir = dirname(start); dir !== dirname(root); dir = dirname(dir)) {
      between.unshift(dir);
    }
    for (const dir of between) chain = extendChain(chain, dir);
  }
  return chain;
}

/** Depth-first from `first`, in slices of about 8 ms with the event loop between them. */
async function walk(first: Pending, search: Search, signal?: AbortSignal): Promise<string[]> {
  const files: string[] = [];
  const stack: Pending[] = [first];
  let sliceStart = performance.now();
  for (let next = stack.pop(); next; next = stack.pop()) {
    if (performance.now() - sliceStart > 8) {
      await new Promise<void>((done) => setImmediate(done));
      if (signal?.aborted) break;
      sliceStart = performance.now();
    }
    visit(next, search, files, stack);
  }
  return files;
}

/** One folder: its matching files to `files`, the folders to enter to `stack`. */
function visit(next: Pending, search: Search, files: string[], stack: Pending[]): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(next.dir, { withFileTypes: true });
  } catch {
    return;
  }
  const { isMatch, maxDepth, readable } = search;
  let here = next.chain;
  if (search.useIgnore && entries.some((e) => e.name === GITIGNORE && !e.isDirectory())) {
    here = extendChain(here, next.dir);
  }
  const depth = next.depth + 1;
  // Plain concatenation: path.join's normalising showed in profiles, and `dir` is already normal.
  const dirPrefix = next.dir.endsWith(sep) ? next.dir : next.dir + sep;
  const relPrefix = next.rel === "" ? "" : `${next.rel}/`;
  for (const entry of entries) {
    const name = entry.name;
    const path = dirPrefix + name;
    const rel = relPrefix + name;
    if (entry.isDirectory()) {
      if (depth >= maxDepth || SKIPPED_DIRS.has(name)) continue;
      if (here.length > 0 && isIgnored(here, path, true)) continue;
      if (readable && !readable(path)) continue;
      stack.push({ dir: path, rel, depth, chain: here });
    } else if (entry.isFile() || entry.isSymbolicLink()) {
      if (depth > maxDepth || !isMatch(rel)) continue;
      if (here.length > 0 && isIgnored(here, path, false)) continue;
      if (readable && !readable(path)) continue;
      files.push(path);
    }
  }
}

export async function statOrUndefined(path: string) {
  return stat(path).catch(() => undefined);
}

export function mtimeOrZero(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Runs a synchronous `fn` over `items` in slices of a few milliseconds,
 * yielding to the event loop between slices. For many small files, sync fs
 * calls are several times faster than promise-based ones (which queue on
 * libuv's 4-thread pool), and yielding keeps abort and the UI responsive.
 * Stops early (returning what it has) when `signal` aborts.
 */
export async function mapSliced<T, R>(
  items: readonly T[],
  fn: (item: T) => R,
  signal?: AbortSignal,
  sliceMs = 8,
): Promise<R[]> {
  const results: R[] = [];
  let sliceStart = performance.now();
  for (const item of items) {
    if (performance.now() - sliceStart > sliceMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (signal?.aborted) break;
      sliceStart = performance.now();
    }
    results.push(fn(item));
  }
  return results;
}
