/**
 * Starts (stdio) or reaches (Streamable HTTP, SSE) the configured MCP servers
 * through the AI SDK's MCP client, lists their tools and resources, and turns
 * the tools into acai tools. A server that fails is reported and left out: the
 * session goes on. The MCP library is imported only here, and only when a
 * server is configured, so a session without servers pays nothing for it.
 *
 * Stdio servers are children of acai: they get the environment dynamic tools
 * get (secrets scrubbed, plus the entry's own `env`) and acai's containment
 * marker, so the exit sweep kills whatever a server leaves behind; `close()`
 * shuts the clients down at the end of the session.
 */
import path from "node:path";
import { processContainment } from "../process/containment.js";
import { withoutSecrets } from "../process/secrets.js";
import type { Tool } from "../tools/types.js";
import { type McpServerEntry, serverTarget } from "./config.js";
import { type McpToolDefinition, mcpTool, messageOf, toolNameProblem } from "./tool.js";

/** How long a server may take to start and answer `initialize` and the lists (ms). */
export const DEFAULT_MCP_STARTUP_MS = 10_000;

export interface McpServerStatus {
  name: string;
  scope: McpServerEntry["scope"];
  file: string;
  target: string;
  state: "connected" | "failed" | "not-started";
  /** Why it failed, or why it was not started. */
  error?: string;
  tools: { name: string; description?: string }[];
  resources: { uri: string; name: string; description?: string }[];
}

export interface McpSession {
  servers: McpServerStatus[];
  tools: Tool[];
  warnings: string[];
  /** Closes every client (and so stops the stdio servers). Never rejects. */
  close(): Promise<void>;
}

export interface ConnectOptions {
  entries: readonly McpServerEntry[];
  /** acai's environment (scrubbed before a server gets it). */
  env: Readonly<Record<string, string>>;
  /** Where stdio servers run (relative `cwd` entries are resolved from here): the project root. */
  projectDir: string;
  signal?: AbortSignal;
  startupMs?: number;
  /**
   * How a stdio server's command starts: inside the OS sandbox (source/sandbox/,
   * `bwrap … -- command args` with ACAI_SANDBOX set). Default: as it is.
   */
  launch?: (target: LaunchTarget) => LaunchTarget;
}

/** A stdio server's start, before and after `ConnectOptions.launch`. */
export interface LaunchTarget {
  command: string;
  args: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string>>;
}

type Client = Awaited<ReturnType<typeof import("@ai-sdk/mcp").createMCPClient>>;

export async function connectMcpServers(options: ConnectOptions): Promise<McpSession> {
  if (options.entries.length === 0) {
    return { servers: [], tools: [], warnings: [], close: async () => {} };
  }
  const clients: Client[] = [];
  const results = await Promise.all(
    options.entries.map((entry) => connectOne(entry, options, clients)),
  );
  const servers = results.map((result) => result.status);
  const warnings = servers
    .filter((server) => server.state === "failed")
    .map(
      (server) =>
        `MCP server ${server.name} (${server.file}) is not available: ${server.error ?? "failed"}. Check its entry (${server.target}); \`acai mcp list\` shows every server.`,
    );
  warnings.push(...results.flatMap((result) => result.warnings));
  return {
    servers,
    tools: results.flatMap((result) => result.tools),
    warnings,
    close: async () => {
      await Promise.allSettled(clients.map((client) => client.close()));
    },
  };
}

async function connectOne(
  entry: McpServerEntry,
  options: ConnectOptions,
  clients: Client[],
): Promise<{ status: McpServerStatus; tools: Tool[]; warnings: string[] }> {
  const status: McpServerStatus = {
    name: entry.name,
    scope: entry.scope,
    file: entry.file,
    target: serverTarget(entry.config),
    state: "failed",
    tools: [],
    resources: [],
  };
  const timeout = options.startupMs ?? DEFAULT_MCP_STARTUP_MS;
  const signal = options.signal
    ? AbortSignal.any([options.signal, AbortSignal.timeout(timeout)])
    : AbortSignal.timeout(timeout);
  let client: Client | undefined;
  try {
    const { createMCPClient } = await import("@ai-sdk/mcp");
    client = await createMCPClient({
      transport: await transportFor(entry, options),
      clientName: "acai",
      initializationOptions: { signal, timeout },
    });
    clients.push(client);
    const listed = await client.listTools({ options: { signal, timeout } });
    const resources = await client
      .listResources({ options: { signal, timeout } })
      .then((result) => result.resources)
      .catch(() => []);
    status.state = "connected";
    status.resources = resources.map((resource) => ({
      uri: resource.uri,
      name: resource.name,
      ...(resource.description !== undefined ? { description: resource.description } : {}),
    }));
    const connected = client;
    const tools: Tool[] = [];
    const warnings: string[] = [];
    for (const definition of listed.tools) {
      status.tools.push({
        name: definition.name,
        ...(definition.description !== undefined ? { description: definition.description } : {}),
      });
      const problem = toolNameProblem(entry.name, definition.name);
      if (problem !== undefined) {
        warnings.push(
          `MCP tool ${definition.name} of server ${entry.name} is not offered: ${problem}`,
        );
        continue;
      }
      const toolDefinition: McpToolDefinition = {
        name: definition.name,
        inputSchema: definition.inputSchema as McpToolDefinition["inputSchema"],
        ...(definition.description !== undefined ? { description: definition.description } : {}),
      };
      tools.push(
        mcpTool(entry.name, toolDefinition, (name, input, callSignal) =>
          connected.callTool({ name, arguments: input, options: { signal: callSignal } }),
        ),
      );
    }
    return { status, tools, warnings };
  } catch (error) {
    if (client !== undefined) await client.close().catch(() => {});
    status.error = failureOf(error, signal.aborted && !options.signal?.aborted, timeout);
    return { status, tools: [], warnings: [] };
  }
}

async function transportFor(entry: McpServerEntry, options: ConnectOptions) {
  const config = entry.config;
  if ("url" in config) {
    return {
      type: config.type,
      url: config.url,
      ...(config.headers ? { headers: config.headers } : {}),
    };
  }
  const { StdioMCPTransport } = await import("@ai-sdk/mcp/mcp-stdio");
  // A child of acai like any other: the marker lets the exit sweep find it and what it starts.
  const containment = processContainment();
  containment.beforeSpawn();
  const env = containment.envFor(
    { ...withoutSecrets(options.env), ...config.env },
    containment.nextRunId(),
  );
  const target: LaunchTarget = {
    command: config.command,
    args: config.args ?? [],
    env,
    cwd: path.resolve(options.projectDir, config.cwd ?? "."),
  };
  const launched = options.launch ? options.launch(target) : target;
  return new StdioMCPTransport({
    command: launched.command,
    args: [...launched.args],
    env: { ...launched.env },
    cwd: launched.cwd,
    stderr: "ignore",
  });
}

function failureOf(error: unknown, timedOut: boolean, timeout: number): string {
  if (timedOut) return `it did not answer within ${timeout} ms`;
  const message = messageOf(error);
  // The AI SDK's words for a server that exited before it answered.
  if (/closed client|connection closed/i.test(message)) {
    return "it exited before it answered (run its command by hand to see why)";
  }
  return message;
}
