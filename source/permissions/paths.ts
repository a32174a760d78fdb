/**
 * Path rules (`Read(./.env)`, `Edit(src/**)`, `Read(~/.ssh/**)`) against a
 * file a tool touches, pure. Patterns are gitignore-like globs:
 *
 * - `//abs/path`: from the file system's root;
 * - `~/path`: from the home folder;
 * - `/path`, `./path`, `dir/path`: from the project root;
 * - `name` (no slash): a file or folder of that name anywhere in the project;
 * - a pattern that names a folder covers everything under it (`src` = `src/**`).
 *
 * `*` matches within one path segment, `**` across segments; dot-files match.
 */
import path from "node:path";
import picomatch from "picomatch";

export interface PathContext {
  /** The project root: relative patterns are taken from it. */
  projectDir: string;
  homeDir: string;
}

/** The absolute glob a rule's path pattern stands for. */
export function absolutePattern(pattern: string, ctx: PathContext): string {
  let p = pattern.trim();
  if (p.endsWith("/")) p = `${p}**`;
  if (p.startsWith("//")) return path.posix.normalize(p.slice(1));
  if (p === "~" || p.startsWith("~/")) return joinGlob(ctx.homeDir, p.slice(1));
  if (p.startsWith("/")) return joinGlob(ctx.projectDir, p);
  if (p.startsWith("./")) return joinGlob(ctx.projectDir, p.slice(1));
  if (!p.includes("/")) return joinGlob(ctx.projectDir, `/**/${p}`);
  return joinGlob(ctx.projectDir, `/${p}`);
}

/**
 * The one file a path rule names, when it names exactly one: no glob
 * character, not a folder (`src/`). A bare name (`.env`, any depth) is taken
 * at the project root, where such files live. Undefined otherwise.
 */
export function literalFileOf(pattern: string, ctx: PathContext): string | undefined {
  const p = pattern.trim();
  if (p === "" || p.endsWith("/") || /[*?[\]{}()!+@\\]/.test(p)) return undefined;
  if (p.startsWith("//")) return path.posix.normalize(p.slice(1));
  if (p === "~" || p.startsWith("~/")) return path.posix.join(ctx.homeDir, p.slice(1));
  return path.posix.join(ctx.projectDir, p.startsWith("./") ? p.slice(1) : p);
}

function joinGlob(base: string, rest: string): string {
  // Globs use `/`; a base with glob characters is escaped so it matches itself only.
  const escaped = base.replace(/[*?[\]{}()!+@]/g, "\\$&");
  return path.posix.normalize(`${escaped}${rest}`);
}

const matchers = new Map<string, (file: string) => boolean>();

function matcherFor(glob: string): (file: string) => boolean {
  let matcher = matchers.get(glob);
  if (matcher === undefined) {
    matcher = picomatch(glob, { dot: true });
    if (matchers.size > 512) matchers.clear();
    matchers.set(glob, matcher);
  }
  return matcher;
}

/** Whether `file` (absolute, normalized) or a folder above it matches the pattern. */
export function pathMatches(pattern: string, file: string, ctx: PathContext): boolean {
  const test = matcherFor(absolutePattern(pattern, ctx));
  let current = path.posix.normalize(file);
  for (let guard = 0; guard < 256; guard++) {
    if (test(current)) return true;
    const parent = path.posix.dirname(current);
    if (parent === current) return false;
    current = parent;
  }
  return false;
}

/** Whether `file` is inside `dir` (or is it). */
export function isInside(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** A rule for one file, as written relative to the project when it is inside it. */
export function suggestPathRule(tool: string, file: string, ctx: PathContext): string {
  if (isInside(ctx.projectDir, file)) {
    const rel = path.relative(ctx.projectDir, file) || ".";
    return `${tool}(./${rel.split(path.sep).join("/")})`;
  }
  return `${tool}(/${file})`;
}
