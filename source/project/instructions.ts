/**
 * The project's instruction file for the model: `AGENTS.md` at the project
 * root, or `CLAUDE.md` when there is no `AGENTS.md`. It is project-controlled
 * text that reaches the system prompt, so it is part of the trust set
 * (hooks/discover/scan.ts adds it to the manifest) and read only once trusted.
 *
 * One that is a symbolic link resolving outside the project (a repository
 * shipping `AGENTS.md -> ~/.ssh/id_rsa`) is never sent to the model, trusted
 * or not: project instructions are the project's text, and a file elsewhere
 * is someone else's. The review flags it with its target.
 */
import { lstatSync } from "node:fs";
import path from "node:path";
import { isInside, realpathOrUndefined } from "./links.js";

export const PROJECT_INSTRUCTION_FILES = ["AGENTS.md", "CLAUDE.md"] as const;

/** The instruction file the project has (an entry that exists, whatever it is), if any. */
export function projectInstructionFile(projectDir: string): string | undefined {
  for (const name of PROJECT_INSTRUCTION_FILES) {
    const file = path.join(projectDir, name);
    try {
      lstatSync(file);
      return file;
    } catch {
      // absent: try the next name
    }
  }
  return undefined;
}

/**
 * Where the instruction file leads when that is outside the project (a link
 * out, or a dangling one): then it is not sent to the model.
 */
export function instructionFileOutside(file: string, projectDir: string): string | undefined {
  try {
    if (!lstatSync(file).isSymbolicLink()) return undefined;
  } catch {
    return undefined;
  }
  const root = realpathOrUndefined(projectDir) ?? path.resolve(projectDir);
  const target = realpathOrUndefined(file);
  if (target !== undefined && isInside(root, target)) return undefined;
  return target ?? `${file} (a link that leads nowhere)`;
}

/** What the trust review says of the instruction file, if the project has one. */
export function instructionReviewLines(projectDir: string): string[] {
  const file = projectInstructionFile(projectDir);
  if (file === undefined) return [];
  const name = path.basename(file);
  const outside = instructionFileOutside(file, projectDir);
  if (outside !== undefined) {
    return [
      `WARNING: ${name} is a link to ${outside}, outside the project: it is NOT sent to the model (make it a regular file in the project to use it)`,
    ];
  }
  return [`${name} goes into the model's system prompt (project instructions)`];
}
