/**
 * The MCP servers an editor sends in `session/new` and `session/load`
 * (docs/acp.md "MCP servers from the editor"), as acai's server entries:
 * stdio, Streamable HTTP and SSE, each checked against the same schema as
 * `mcpServers` in settings. They are started as the user's own servers —
 * the same sandbox, environment scrubbing and permission rules (their tools
 * ask unless a rule allows them) — with these refusals, each a warning that
 * says why: a name acai cannot use in a tool name, a name sent twice, more
 * than `MAX_CLIENT_SERVERS`, an entry the schema refuses, and any `${…}` in
 * it (an editor sends values as they are; acai expands variables only in
 * its own configuration). A name a configured server has is refused later
 * (mcp/config.ts `withClientServers`).
 */
import type * as acp from "@agentclientprotocol/sdk";
import { McpServerSchema, SERVER_NAME } from "../../config/mcp-servers.js";
import type { McpServerEntry } from "../../mcp/config.js";
import { describeIssues } from "../../mcp/config.js";
import { inertText } from "../../terminal/inert-text.js";

const EDITOR_SOURCE = "the editor (ACP session/new)";
const MAX_CLIENT_SERVERS = 32;

export interface ClientServers {
  entries: McpServerEntry[];
  /** Why each refused server is not started. */
  refused: string[];
}

function pairs(list: readonly { name: string; value: string }[]): Record<string, string> {
  return Object.fromEntries(list.map(({ name, value }) => [name, value]));
}

/** The entry in acai's (Claude Code's) shape, before validation. */
function configOf(server: acp.McpServer): unknown {
  if ("type" in server && (server.type === "http" || server.type === "sse")) {
    return { type: server.type, url: server.url, headers: pairs(server.headers) };
  }
  const stdio = server as acp.McpServerStdio;
  return { command: stdio.command, args: stdio.args, env: pairs(stdio.env) };
}

function refusal(server: acp.McpServer, seen: Set<string>): string | undefined {
  const name = JSON.stringify(server.name);
  if (!SERVER_NAME.test(server.name)) {
    return `${name}: a server name may use letters, digits, _ and - (at most 48), since it becomes part of tool names`;
  }
  if (seen.has(server.name)) return `${name}: the name was sent twice; the first is started`;
  if (seen.size >= MAX_CLIENT_SERVERS)
    return `${name}: at most ${MAX_CLIENT_SERVERS} servers are started`;
  if (JSON.stringify(configOf(server)).includes("${")) {
    return `${name}: it holds \${…}, and acai expands variables only in its own configuration; send the values`;
  }
  return undefined;
}

export function clientServers(servers: readonly acp.McpServer[]): ClientServers {
  const entries: McpServerEntry[] = [];
  const refused: string[] = [];
  const seen = new Set<string>();
  for (const server of servers) {
    const why = refusal(server, seen);
    const parsed = why === undefined ? McpServerSchema.safeParse(configOf(server)) : undefined;
    if (parsed?.success) {
      seen.add(server.name);
      entries.push({ name: server.name, scope: "user", file: EDITOR_SOURCE, config: parsed.data });
      continue;
    }
    const reason =
      why ?? `${JSON.stringify(server.name)}: ${parsed ? describeIssues(parsed.error) : "invalid"}`;
    refused.push(`MCP server ${inertText(reason)} — it is not started (sent by ${EDITOR_SOURCE}).`);
  }
  return { entries, refused };
}
