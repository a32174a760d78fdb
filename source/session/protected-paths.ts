/**
 * The session's protected paths (permissions/protected.ts), built once when
 * it starts: `ACAI_HOME`, the user's Agent Hooks folder and `~/.claude/`, the
 * project's trusted set — its `.acai/`, `.claude/` and `.agents/hooks/` folders whole (a hook the model
 * adds would be a new member), `.mcp.json`, the instruction files, and every
 * file the trust manifest hashes, where it is and where its links lead — and
 * the repository's git folder (a `.git` file's `gitdir:` and a worktree's
 * common folder, judged where they really are).
 *
 * Areas are kept both as given and as real paths, so a protected folder
 * reached through a link (ACAI_HOME under /tmp → /private/tmp) is the same
 * area. Reads the file system; runs nothing.
 */
import { lstatSync } from "node:fs";
import path from "node:path";
import { readRegularFileSync } from "../config/read-regular-file.js";
import { manifestEntryPath } from "../hooks/discover/fingerprint.js";
import type { ProtectedArea, ProtectedPaths, ProtectedWhy } from "../permissions/protected.js";
import { PROJECT_INSTRUCTION_FILES } from "../project/instructions.js";
import type { ManifestEntry } from "../project/manifest.js";
import { landingOrUndefined } from "../tools/landing.js";

export interface ProtectedPathsInput {
  acaiHome: string;
  homeDir: string;
  projectDir: string;
  /** The project's trust manifest (its keys name the files of the trusted set). */
  manifest: readonly ManifestEntry[];
  platform?: NodeJS.Platform;
}

export function sessionProtectedPaths(input: ProtectedPathsInput): ProtectedPaths {
  const root = path.resolve(input.projectDir);
  const areas: ProtectedArea[] = [];
  const add = (file: string, scope: ProtectedArea["scope"], why: ProtectedWhy) => {
    const given = path.resolve(file);
    areas.push({ path: given, scope, why });
    const real = landingOrUndefined(given);
    if (real !== undefined && real !== given) areas.push({ path: real, scope, why });
  };
  add(input.acaiHome, "tree", "acai-home");
  add(path.join(input.homeDir, ".config", "agents", "hooks"), "tree", "user-hooks");
  add(path.join(root, ".acai"), "tree", "trusted-set");
  add(path.join(root, ".agents", "hooks"), "tree", "trusted-set");
  // Claude Code's settings and hooks, read as acai's (config/claude-settings.ts).
  add(path.join(root, ".claude"), "tree", "trusted-set");
  add(path.join(input.homeDir, ".claude"), "tree", "user-hooks");
  add(path.join(root, ".mcp.json"), "file", "trusted-set");
  for (const name of PROJECT_INSTRUCTION_FILES) add(path.join(root, name), "file", "trusted-set");
  for (const file of manifestFiles(root, input.manifest)) add(file, "file", "trusted-set");
  for (const area of gitAreas(root)) add(area.path, area.scope, "git");
  const platform = input.platform ?? process.platform;
  return {
    areas,
    // The one resolver the decision and Write/Edit use too (tools/landing.ts).
    resolve: landingOrUndefined,
    ...(platform === "darwin" || platform === "win32" ? { ignoreCase: true } : {}),
  };
}

/** The files a manifest's keys name (a link's key and where it leads, files configuration names). */
function manifestFiles(root: string, entries: readonly ManifestEntry[]): string[] {
  return entries.map((entry) => manifestEntryPath(root, entry.key));
}

/**
 * The git folders of the repository the project is in: the nearest `.git`
 * at or above the root; a `.git` file's `gitdir:` folder and, for a
 * worktree, its `commondir`. Their config and hooks, wherever they are.
 */
function gitAreas(root: string): { path: string; scope: ProtectedArea["scope"] }[] {
  const dotGit = nearestDotGit(root) ?? path.join(root, ".git");
  const areas: { path: string; scope: ProtectedArea["scope"] }[] = [
    { path: dotGit, scope: "file" },
  ];
  const gitDirs = [dotGit];
  const pointed = gitdirOfFile(dotGit);
  if (pointed !== undefined) gitDirs.push(pointed);
  const common = readSmall(path.join(pointed ?? dotGit, "commondir"));
  if (common !== undefined) gitDirs.push(path.resolve(pointed ?? dotGit, common));
  for (const dir of gitDirs) {
    areas.push({ path: path.join(dir, "config"), scope: "file" });
    areas.push({ path: path.join(dir, "config.worktree"), scope: "file" });
    areas.push({ path: path.join(dir, "commondir"), scope: "file" });
    areas.push({ path: path.join(dir, "hooks"), scope: "tree" });
  }
  return areas;
}

function nearestDotGit(from: string): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, ".git");
    if (lstatOr(candidate) !== undefined) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** `gitdir: <path>` of a `.git` file (worktrees, submodules), absolute. */
function gitdirOfFile(dotGit: string): string | undefined {
  if (lstatOr(dotGit)?.isFile() !== true) return undefined;
  const text = readSmall(dotGit);
  const match = text === undefined ? null : /^gitdir:\s*(.+)$/m.exec(text);
  return match?.[1] === undefined ? undefined : path.resolve(path.dirname(dotGit), match[1].trim());
}

function readSmall(file: string): string | undefined {
  const read = readRegularFileSync(file, 64 * 1024);
  return read.ok ? read.data.toString("utf8").trim() : undefined;
}

function lstatOr(file: string) {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}
