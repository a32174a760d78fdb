/**
 * The instructions that join the system prompt: the user's
 * `<ACAI_HOME>/AGENTS.md`, and the project's `AGENTS.md` (or `CLAUDE.md`) once
 * the project is trusted. Both are read bounded, as regular files only; a file
 * that cannot be read is a warning naming it, never a failure. A project
 * instruction file that is a link out of the project is never read
 * (project/instructions.ts).
 */
import path from "node:path";
import { formatBytes, readRegularFileSync } from "../config/read-regular-file.js";
import { instructionFileOutside, projectInstructionFile } from "../project/instructions.js";
import { inertText } from "../terminal/inert-text.js";

/** Larger instruction files are left out (with a warning): they would crowd the context out. */
const MAX_INSTRUCTION_BYTES = 256 * 1024;

interface InstructionSection {
  /** Where it came from, as shown to the model (`~/.acai/AGENTS.md`, `AGENTS.md`). */
  label: string;
  file: string;
  text: string;
}

export interface LoadedInstructions {
  sections: InstructionSection[];
  warnings: string[];
}

export interface LoadInstructionsOptions {
  acaiHome: string;
  projectDir: string;
  /** The project is trusted (or taken this once): its instruction file is used. */
  includeProject: boolean;
  maxBytes?: number;
}

/** The user's own instruction file. */
export function userInstructionFile(acaiHome: string): string {
  return path.join(acaiHome, "AGENTS.md");
}

export function loadInstructions(options: LoadInstructionsOptions): LoadedInstructions {
  const maxBytes = options.maxBytes ?? MAX_INSTRUCTION_BYTES;
  const sections: InstructionSection[] = [];
  const warnings: string[] = [];
  const add = (file: string, label: string) => {
    const read = readRegularFileSync(file, maxBytes);
    if (read.ok) {
      const text = read.data.toString("utf8").trim();
      if (text !== "") sections.push({ label, file, text });
    } else if (read.problem === "too-large") {
      warnings.push(
        `${inertText(file)} is not in the system prompt: it is larger than ${formatBytes(maxBytes)}; shorten it.`,
      );
    } else if (read.problem !== "missing") {
      warnings.push(`${inertText(file)} is not in the system prompt: ${read.reason}.`);
    }
  };
  add(userInstructionFile(options.acaiHome), "~/.acai/AGENTS.md (the user's own instructions)");
  const project = projectInstructionFile(options.projectDir);
  if (project !== undefined && options.includeProject) {
    const outside = instructionFileOutside(project, options.projectDir);
    if (outside === undefined)
      add(project, `${path.basename(project)} (the project's instructions)`);
    else
      warnings.push(
        `${inertText(project)} is not in the system prompt: it is a link to ${inertText(outside)}, outside the project; make it a regular file in the project to use it.`,
      );
  }
  return { sections, warnings };
}
