/**
 * The subagent types of a session: the built-in general-purpose one, then
 * `<ACAI_HOME>/agents/*.md`, then the project's `.acai/agents/*.md` when the
 * project is included (trusted); a later one replaces an earlier one of the
 * same name, as Claude Code's project agents override the user's.
 */
import path from "node:path";
import { GENERAL_PURPOSE } from "../tools/builtin/task-types.js";
import { type LoadedAgents, loadAgentFiles, projectAgentsDir } from "./files.js";

export interface SubagentTypesOptions {
  acaiHome: string;
  projectDir: string;
  /** Whether the project's agent files are read: only when its hooks and tools are trusted. */
  includeProject: boolean;
}

export async function loadSubagentTypes(options: SubagentTypesOptions): Promise<LoadedAgents> {
  const loaded = await loadAgentFiles([
    { dir: path.join(options.acaiHome, "agents"), scope: "user" },
    ...(options.includeProject
      ? [{ dir: projectAgentsDir(options.projectDir), scope: "project" as const }]
      : []),
  ]);
  const own = new Set(loaded.definitions.map((d) => d.name));
  return {
    definitions: [
      ...(own.has(GENERAL_PURPOSE.name) ? [] : [GENERAL_PURPOSE]),
      ...loaded.definitions,
    ],
    warnings: loaded.warnings,
  };
}
