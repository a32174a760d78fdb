/**
 * What the project's configuration makes acai run or load beyond its hook
 * and tool folders (project/pins.ts), gathered for the manifest without
 * running anything: the stdio MCP servers of `.mcp.json` and of the project
 * settings' `mcpServers`, the `replay:` model of the project settings and of
 * the project's agent types. Read as the session would read them (the same
 * parsers), so what is pinned is what would run.
 */
import { McpServersSchema } from "../config/mcp-servers.js";
import { readMcpJson } from "../mcp/config.js";
import { PARSED_ONCE } from "../shared/parsed-once.js";
import { readAgentFile } from "../subagents/files.js";
import { mcpServerPins, type PinnedFile, replayPins } from "./pins.js";

export interface PinSources {
  projectDir: string;
  /** The project settings files' values (validated by the settings loader). */
  projectSettings: readonly { values?: object }[];
  /** The project's agent files (`.acai/agents/*.md`), when they are the project's own. */
  agentFiles: readonly string[];
}

export async function projectPins(sources: PinSources): Promise<PinnedFile[]> {
  const { projectDir } = sources;
  const pins: PinnedFile[] = [];
  const mcpJson = readMcpJson(projectDir);
  const servers = [
    ...(mcpJson.ok ? mcpJson.servers.map((entry) => entry.config) : []),
    ...sources.projectSettings.flatMap((file) => settingsServers(file.values)),
  ];
  for (const server of servers) {
    if (!("url" in server)) pins.push(...mcpServerPins(server, projectDir));
  }
  for (const file of sources.projectSettings) {
    const model = (file.values as { model?: unknown } | undefined)?.model;
    if (typeof model === "string") pins.push(...replayPins(model, projectDir));
  }
  const agents = await Promise.all(sources.agentFiles.map((f) => readAgentFile(f, "project")));
  for (const agent of agents) {
    if (agent.ok) pins.push(...replayPins(agent.definition.model, projectDir));
  }
  return pins;
}

function settingsServers(values: object | undefined) {
  const servers = (values as { mcpServers?: unknown } | undefined)?.mcpServers;
  // None given: the schema (built at its first parse) is not built to say so.
  if (servers === undefined) return [];
  const parsed = McpServersSchema.safeParse(servers, PARSED_ONCE);
  return parsed.success ? Object.values(parsed.data) : [];
}
