import { statSync } from "node:fs";
import { stat } from "node:fs/promises";
import { glob } from "tinyglobby";

/** Directories Glob and Grep never enter. */
export const SKIPPED_DIRS = [".git", "node_modules"] as const;
const IGNORE = SKIPPED_DIRS.flatMap((d) => [`**/${d}`, `**/${d}/**`]);

/** Absolute paths of the files under `root` matching `pattern` (dotfiles included, symlinks not followed). */
export function listFiles(root: string, pattern: string, signal?: AbortSignal): Promise<string[]> {
  return glob(pattern, {
    cwd: root,
    absolute: true,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    ignore: IGNORE,
    expandDirectories: false,
    ...(signal ? { signal } : {}),
  });
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
