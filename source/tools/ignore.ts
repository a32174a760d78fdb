import { existsSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import ignore, { type Ignore } from "ignore";
import { MAX_PROJECT_FILE_BYTES, readRegularFileSync } from "../config/read-regular-file.js";

/** The rules of one `.gitignore` file, for paths below `prefix` (its directory plus a separator). */
interface IgnoreLevel {
  prefix: string;
  rules: Ignore;
}

/** The `.gitignore` files that apply in one directory, outermost first. */
export type IgnoreChain = readonly IgnoreLevel[];

export const GITIGNORE = ".gitignore";

// Git matches case-insensitively where the file system usually is (core.ignorecase).
const ignorecase = process.platform === "darwin" || process.platform === "win32";

function withSep(dir: string): string {
  return dir.endsWith(sep) ? dir : dir + sep;
}

/** The chain for `dir` given its parent's, adding `dir/.gitignore` when it exists and is readable. */
export function extendChain(parent: IgnoreChain, dir: string): IgnoreChain {
  // A .gitignore is project text like any other: a FIFO or /dev/zero there must not block or fill memory.
  const read = readRegularFileSync(join(dir, GITIGNORE), MAX_PROJECT_FILE_BYTES);
  if (!read.ok) return parent;
  const text = read.data.toString("utf8");
  const rules = ignore({ ignorecase }).add(text);
  return [...parent, { prefix: withSep(dir), rules }];
}

/**
 * Whether the absolute `path` (below every level's directory) is ignored.
 * The deepest `.gitignore` with a matching rule decides, as in git: a nested
 * `!pattern` re-includes what an outer file ignored.
 */
export function isIgnored(chain: IgnoreChain, path: string, isDir: boolean): boolean {
  for (let i = chain.length - 1; i >= 0; i--) {
    const level = chain[i]!;
    if (!path.startsWith(level.prefix)) continue;
    const relative = path.slice(level.prefix.length);
    const result = level.rules.test(isDir ? `${relative}/` : relative);
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return false;
}

/**
 * The directory whose `.gitignore` is the outermost to apply to a search in
 * `root`: the enclosing git work tree's top (the nearest ancestor holding
 * `.git`), else `projectDir` when `root` is inside it, else `root` itself.
 * So a stray `.gitignore` above an unversioned project (say in `$HOME`) is
 * never read.
 */
export function ignoreTop(root: string, projectDir: string): string {
  for (let dir = root; ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) break;
  }
  return root === projectDir || root.startsWith(withSep(projectDir)) ? projectDir : root;
}

/**
 * The chain in effect in `dir`, reading every `.gitignore` from `top` down to
 * it. When a search's root is itself ignored, it was named on purpose: then
 * only the `.gitignore` files inside it apply (returns the empty chain, and
 * the walk adds `root/.gitignore` itself).
 */
export function chainAbove(top: string, root: string): IgnoreChain {
  if (root === top || !root.startsWith(withSep(top))) return [];
  const dirs: string[] = [];
  for (let dir = dirname(root); ; dir = dirname(dir)) {
    dirs.unshift(dir);
    if (dir === top || dirname(dir) === dir) break;
  }
  let chain: IgnoreChain = [];
  for (const dir of dirs) chain = extendChain(chain, dir);
  return isIgnored(chain, root, true) ? [] : chain;
}
