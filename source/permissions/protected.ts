/**
 * Protected paths (docs/permissions.md, hooks.md §7a): what the model's tools
 * may not write during a session without the user approving that exact write
 * in the REPL — acai's own folder (`ACAI_HOME`: settings, hooks, tools,
 * plugins, agents, trust records), the user's Agent Hooks folder, the
 * project's trusted set (hooks, tools, plugins, agents, settings files,
 * `.mcp.json`, instruction files and every file the trust manifest hashes),
 * and git's configuration and hooks (`.git/config`, `.git/hooks/**`, a `.git`
 * file that says where the repository is).
 *
 * Pure: the areas are data built when the session starts
 * (session/protected-paths.ts) and `resolve` (the real path of a file about to
 * be written) is passed in. A file is protected when the path as given or the
 * path it resolves to falls in an area, so a link into a protected folder, or
 * out of an innocent-looking one, is caught either way.
 */
import path from "node:path";

/** Why an area is protected: each has its words in `protectedWhy`. */
export type ProtectedWhy = "acai-home" | "user-hooks" | "trusted-set" | "git";

export interface ProtectedArea {
  /** Absolute, normalized. */
  path: string;
  /** `tree`: the folder and everything below it; `file`: that path only. */
  scope: "tree" | "file";
  why: ProtectedWhy;
}

export interface ProtectedPaths {
  areas: readonly ProtectedArea[];
  /** Where a write to this absolute path would land (links followed, also dangling ones), if known. */
  resolve: (file: string) => string | undefined;
  /** File systems that ignore case (macOS, Windows by default): compare without it. */
  ignoreCase?: boolean;
}

/** A write the session's tools may not make on their own. */
export interface ProtectedHit {
  /** The path as the tool was given it (absolute). */
  file: string;
  /** Where it resolves, when that is not the same path. */
  resolved?: string;
  why: ProtectedWhy;
}

/** The first of `files` (absolute paths a call writes) that is protected. */
export function protectedWrite(
  files: readonly string[],
  guard: ProtectedPaths,
): ProtectedHit | undefined {
  for (const given of files) {
    const file = path.resolve(given);
    const resolved = guard.resolve(file);
    const candidates = resolved === undefined || resolved === file ? [file] : [file, resolved];
    for (const candidate of candidates) {
      const why = protectedBy(candidate, guard);
      if (why !== undefined) {
        return { file, ...(candidates.length > 1 ? { resolved: candidates[1] } : {}), why };
      }
    }
  }
  return undefined;
}

function protectedBy(file: string, guard: ProtectedPaths): ProtectedWhy | undefined {
  const fold = (p: string) => (guard.ignoreCase ? p.toLowerCase() : p);
  const target = fold(file);
  for (const area of guard.areas) {
    const root = fold(area.path);
    if (target === root) return area.why;
    if (area.scope === "tree" && isBelow(root, target)) return area.why;
  }
  return isGitControl(target) ? "git" : undefined;
}

function isBelow(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
}

/** Files in a git folder that say which configuration git reads: `commondir` moves it to another folder. */
const GIT_CONFIG_FILES = new Set(["config", "config.worktree", "commondir"]);

/**
 * Git's configuration and hooks wherever a repository is (a submodule's or a
 * worktree's under `.git/modules/`, `.git/worktrees/`, a nested repository):
 * a `.git` entry itself (a `.git` file moves the repository), and below a
 * `.git` folder any `config`, `config.worktree`, `commondir` (it moves the
 * configuration: `../x` makes git read `x/config`) or anything under `hooks/`.
 */
export function isGitControl(file: string): boolean {
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf(".git");
  if (at === -1) return false;
  if (at === parts.length - 1) return true;
  const below = parts.slice(at + 1);
  const last = below[below.length - 1];
  return GIT_CONFIG_FILES.has(last ?? "") || below.includes("hooks");
}

/** What a protected area is, in words for the user and the model. */
function protectedWhy(why: ProtectedWhy): string {
  switch (why) {
    case "acai-home":
      return "it is in ACAI_HOME, acai's own folder (settings, hooks, tools, plugins, agents, trust records)";
    case "user-hooks":
      return "it is in the user's Agent Hooks folder (~/.config/agents/hooks), whose hooks run as trusted";
    case "trusted-set":
      return "it is part of the project's trusted set (hooks, tools, plugins, agents, settings, .mcp.json, instruction files)";
    case "git":
      return "it is git's configuration or hooks (.git/config, .git/hooks), which run programs on git commands";
    default:
      return why satisfies never;
  }
}

/** The protected write in one line: the path (and where it leads) and why. */
export function describeProtected(hit: ProtectedHit): string {
  const where =
    hit.resolved === undefined ? hit.file : `${hit.file} (which leads to ${hit.resolved})`;
  return `${where} is a protected path: ${protectedWhy(hit.why)}`;
}

/** Cap on how much of a dynamic or MCP tool's input is searched for paths. */
const SCAN = { depth: 4, strings: 64, length: 4096 } as const;

/**
 * Paths named in the input of a tool whose effects acai cannot know (a dynamic
 * or MCP tool): every one-line string value taken as a path (`~/` from the
 * home folder, a relative one from `cwd`): only those that land in a protected
 * area matter, so a word that is no path costs a lookup and nothing else. A tool that builds
 * a path from parts, or writes where its input does not say, is not caught
 * here (the sandbox is the guard for that).
 */
export function pathsInInput(input: unknown, cwd: string, homeDir: string): string[] {
  const found: string[] = [];
  let strings = 0;
  const visit = (value: unknown, depth: number): void => {
    if (strings >= SCAN.strings) return;
    if (typeof value === "string") {
      strings += 1;
      const file = pathLike(value, cwd, homeDir);
      if (file !== undefined) found.push(file);
      return;
    }
    if (depth >= SCAN.depth || value === null || typeof value !== "object") return;
    for (const item of Array.isArray(value) ? value : Object.values(value)) visit(item, depth + 1);
  };
  visit(input, 0);
  return found;
}

function pathLike(value: string, cwd: string, homeDir: string): string | undefined {
  const text = value.trim();
  if (text === "" || text.length > SCAN.length || /[\n\r\0]/.test(text)) return undefined;
  if (text === "~" || text.startsWith("~/")) return path.join(homeDir, text.slice(1));
  return path.resolve(cwd, text);
}
