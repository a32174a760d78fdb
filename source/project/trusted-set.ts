/**
 * The manifest of what a project controls (manifest.ts), from what the scan
 * found: its hook, tool, agent and plugin folders, its settings files whole,
 * `.mcp.json` and the instruction file whole, the interpreters and scripts its
 * settings hooks name, and the files its configuration pins. Empty (no
 * fingerprint) when the project controls nothing acai uses.
 */
import path from "node:path";
import { commandPaths } from "./command-paths.js";
import { buildProjectManifest, type ProjectManifest } from "./manifest.js";
import type { PinnedFile } from "./pins.js";

interface ProjectSettingsFile {
  /** As the settings loader found it, relative to the project or absolute. */
  path: string;
  digest?: string;
  hooks: unknown;
  values?: object;
}

export interface TrustedSetInput {
  projectDir: string;
  pinned: PinnedFile[];
  /** Folders trusted whole, in order. */
  trees: string[];
  /** Files trusted whole beside the settings files. */
  wholeFiles: string[];
  /** The project's settings files. */
  settingsFiles: readonly ProjectSettingsFile[];
  /** The commands the project's settings hooks run (asked only when the manifest is built). */
  commands: () => readonly string[];
  /** Project hook files, broken ones, tools, agents or plugins were found. */
  hasFiles: boolean;
}

export function trustedSetManifest(input: TrustedSetInput): ProjectManifest {
  const { projectDir } = input;
  const wholeFiles = input.wholeFiles.map((file) => ({ path: file }));
  if (!input.hasFiles && wholeFiles.length === 0 && !input.settingsFiles.some(setsSomething)) {
    return { entries: [], fingerprint: null };
  }
  return buildProjectManifest({
    projectDir,
    trees: input.trees,
    settingsFiles: [
      ...input.settingsFiles.map((file) => ({
        path: path.resolve(projectDir, file.path),
        ...(file.digest !== undefined ? { digest: file.digest } : {}),
      })),
      ...wholeFiles,
    ],
    commandPaths: input.commands().flatMap((command) => commandPaths(command, projectDir)),
    pinned: input.pinned,
  });
}

/** A project settings file that sets nothing (`{}`) asks for no trust; one that sets anything does. */
function setsSomething(file: ProjectSettingsFile): boolean {
  return (
    file.hooks !== undefined || file.values === undefined || Object.keys(file.values).length > 0
  );
}
