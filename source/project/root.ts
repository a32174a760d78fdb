/**
 * The project root: the nearest folder at or above the working directory
 * that holds `.acai/`, else the top of the git work tree, else the working
 * directory itself (hooks.md §7). The walk stops at the work-tree top: a
 * `.acai` above the repository belongs to no project in it. A guard in `repo/.acai/` applies when acai
 * starts in `repo/src`, and trust is recorded for the root, not the subfolder.
 *
 * The user's own `ACAI_HOME` is never a project marker: started anywhere under
 * the home folder, `~/.acai` is user configuration, not a project's.
 */
import { statSync } from "node:fs";
import path from "node:path";
import { isDirectory } from "../shared/is-directory.js";

export interface FindProjectRootOptions {
  cwd: string;
  /** ACAI_HOME: a `.acai` folder that is this one does not mark a project. */
  acaiHome: string;
}

type ProjectRootReason = "acai-folder" | "git-work-tree" | "working-directory";

export interface ProjectRoot {
  dir: string;
  reason: ProjectRootReason;
}

export function findProjectRoot(options: FindProjectRootOptions): ProjectRoot {
  const start = path.resolve(options.cwd);
  const acaiHome = identity(path.resolve(options.acaiHome));
  let gitTop: string | undefined;
  for (let dir = start; ; dir = path.dirname(dir)) {
    const marker = path.join(dir, ".acai");
    const markerId = identity(marker);
    if (markerId !== undefined && isDirectory(marker) && markerId !== acaiHome) {
      return { dir, reason: "acai-folder" };
    }
    // A `.acai` above the repository is not this project's.
    if (exists(path.join(dir, ".git"))) {
      gitTop = dir;
      break;
    }
    if (path.dirname(dir) === dir) break;
  }
  if (gitTop !== undefined) return { dir: gitTop, reason: "git-work-tree" };
  return { dir: start, reason: "working-directory" };
}

/** Device and inode: the same folder by any path (a symlinked ACAI_HOME included). */
function identity(file: string): string | undefined {
  try {
    const stats = statSync(file);
    return `${stats.dev}:${stats.ino}`;
  } catch {
    return undefined;
  }
}

function exists(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}
