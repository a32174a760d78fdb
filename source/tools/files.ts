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

/** Runs `fn` over `items` with at most `concurrency` in flight; results keep the input order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
