/**
 * The project's instruction file for the model: `AGENTS.md` at the project
 * root, or `CLAUDE.md` when there is no `AGENTS.md`. It is project-controlled
 * text that reaches the system prompt, so it is part of the trust set
 * (hooks/scan.ts adds it to the manifest) and read only once trusted.
 */
import { lstatSync } from "node:fs";
import path from "node:path";

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

/** What the trust review says of the instruction file, if the project has one. */
export function instructionReviewLines(projectDir: string): string[] {
  const file = projectInstructionFile(projectDir);
  if (file === undefined) return [];
  return [`${path.basename(file)} goes into the model's system prompt (project instructions)`];
}
