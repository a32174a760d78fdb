/**
 * What else of a project acai uses beside its hooks, found without running
 * anything: its dynamic tools (`.acai/tools/`), its agent types
 * (`.acai/agents/`: their prompts and tool lists steer the agent), its
 * `.mcp.json` (commands acai would start) and its instruction file (AGENTS.md
 * or CLAUDE.md, which goes into the system prompt). All of it is trusted with
 * the hooks: the manifest covers it. A folder that is the user's own (acai
 * started in the home folder) is not the project's.
 */
import { realpath } from "node:fs/promises";
import path from "node:path";
import { hasMcpJson, mcpJsonPath } from "../mcp/config.js";
import { agentFilesIn, projectAgentsDir } from "../subagents/files.js";
import { executablesIn, projectToolsDir } from "../tools/dynamic.js";
import { projectInstructionFile } from "./instructions.js";

export interface ProjectContent {
  /** Dynamic tools in `<project>/.acai/tools/`: project code too. */
  tools: string[];
  /** Agent files in `<project>/.acai/agents/`. */
  agentFiles: string[];
  /** Folders trusted whole: the tools' folder when it is the project's own, the agents' when it holds any. */
  trees: string[];
  /** Files trusted whole, like a settings file: `.mcp.json`, the instruction file. */
  wholeFiles: string[];
}

export async function findProjectContent(options: {
  projectDir: string;
  acaiHome: string;
}): Promise<ProjectContent> {
  const { projectDir, acaiHome } = options;
  const toolsDir = projectToolsDir(projectDir);
  const agentsDir = projectAgentsDir(projectDir);
  const [toolsOwn, agentsOwn] = await Promise.all([
    notTheSame(toolsDir, path.join(acaiHome, "tools")),
    notTheSame(agentsDir, path.join(acaiHome, "agents")),
  ]);
  const tools = toolsOwn ? await executablesIn(toolsDir) : [];
  const agentFiles = agentsOwn ? agentFilesIn(agentsDir) : [];
  const instructions = projectInstructionFile(projectDir);
  return {
    tools,
    agentFiles,
    trees: [...(toolsOwn ? [toolsDir] : []), ...(agentFiles.length > 0 ? [agentsDir] : [])],
    wholeFiles: [
      ...(hasMcpJson(projectDir) ? [mcpJsonPath(projectDir)] : []),
      ...(instructions === undefined ? [] : [instructions]),
    ],
  };
}

/** The project's folder is not the user's own (run from the home folder, `.acai/` is the user's). */
async function notTheSame(projectFolder: string, userFolder: string): Promise<boolean> {
  const [a, b] = await Promise.all([projectFolder, userFolder].map(realpathOrSelf));
  return a !== b;
}

async function realpathOrSelf(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch {
    return path.resolve(file);
  }
}
