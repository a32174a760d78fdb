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
import { executableFile, findOnPath } from "../process/find-on-path.js";
import { withoutSecrets } from "../process/secrets.js";
import type { Tool } from "../tools/types.js";
import { type McpServerEntry, serverTarget } from "./config.js";
import { expandServerConfig } from "./expand.js";
import { StdioTransport } from "./stdio-transport.js";
import type { TextTail } from "./text-tail.js";
import { type McpToolDefinition, mcpTool, messageOf, toolNameProblem } from "./tool.js";

/** How long a server may take to start and answer `initialize` and the lists (ms). */
const DEFAULT_MCP_STARTUP_MS = 10_000;

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
interface LaunchTarget {
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
  const prepared = prepareTransport(entry, options);
  if (prepared.kind === "problem") {
    status.error = prepared.problem;
    return { status, tools: [], warnings: [] };
  }
  const timeout = options.startupMs ?? DEFAULT_MCP_STARTUP_MS;
  const signal = options.signal
    ? AbortSignal.any([options.signal, AbortSignal.timeout(timeout)])
    : AbortSignal.timeout(timeout);
  let client: Client | undefined;
  try {
    const { createMCPClient } = await import("@ai-sdk/mcp");
    client = await createMCPClient({
      transport: prepared.transport,
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
    const offered = offeredTools(entry.name, listed.tools, client);
    status.tools = offered.listed;
    return { status, tools: offered.tools, warnings: offered.warnings };
  } catch (error) {
    if (client !== undefined) await client.close().catch(() => {});
    const timedOut = signal.aborted && !options.signal?.aborted;
    status.error = failureOf(error, timedOut, timeout, prepared.stderr);
    return { status, tools: [], warnings: [] };
  }
}

type ListedTool = Awaited<ReturnType<Client["listTools"]>>["tools"][number];

/** The server's tools as acai tools; one whose name cannot be a tool name is left out with a warning. */
function offeredTools(server: string, listed: readonly ListedTool[], client: Client) {
  const tools: Tool[] = [];
  const warnings: string[] = [];
  const names: McpServerStatus["tools"] = [];
  for (const definition of listed) {
    const description = definition.description;
    names.push({ name: definition.name, ...(description !== undefined ? { description } : {}) });
    const problem = toolNameProblem(server, definition.name);
    if (problem !== undefined) {
      warnings.push(`MCP tool ${definition.name} of server ${server} is not offered: ${problem}`);
      continue;
    }
    const toolDefinition: McpToolDefinition = {
      name: definition.name,
      inputSchema: definition.inputSchema as McpToolDefinition["inputSchema"],
      ...(description !== undefined ? { description } : {}),
    };
    tools.push(
      mcpTool(server, toolDefinition, (name, input, callSignal) =>
        client.callTool({ name, arguments: input, options: { signal: callSignal } }),
      ),
    );
  }
  return { tools, warnings, listed: names };
}

type HttpTransport = { type: "http" | "sse"; url: string; headers?: Record<string, string> };

type PreparedTransport =
  | { kind: "problem"; problem: string }
  | { kind: "ready"; transport: StdioTransport | HttpTransport; stderr?: TextTail };

/**
 * The entry with its `${VAR}`s expanded, and what reaches it: an HTTP
 * endpoint, or a stdio child whose command exists (a missing one is said
 * plainly instead of as a spawn error).
 */
function prepareTransport(entry: McpServerEntry, options: ConnectOptions): PreparedTransport {
  const expanded = expandServerConfig(entry.config, options.env);
  if (!expanded.ok)
    return { kind: "problem", problem: unsetVariables(expanded.missing, entry.file) };
  const config = expanded.config;
  if ("url" in config) {
    const headers = config.headers ? { headers: config.headers } : {};
    return { kind: "ready", transport: { type: config.type, url: config.url, ...headers } };
  }
  const cwd = path.resolve(options.projectDir, config.cwd ?? ".");
  // A child of acai like any other: the marker lets the exit sweep find it and what it starts.
  const containment = processContainment();
  const serverEnv = { ...withoutSecrets(options.env), ...config.env };
  const env = containment.envFor(serverEnv, containment.nextRunId());
  const missing = missingCommand(config.command, cwd, env.PATH ?? "");
  if (missing !== undefined) {
    return {
      kind: "problem",
      problem: `its command ${config.command} ${missing}; install it or fix "command" in ${entry.file}`,
    };
  }
  containment.beforeSpawn();
  const target: LaunchTarget = { command: config.command, args: config.args ?? [], env, cwd };
  const transport = new StdioTransport(options.launch ? options.launch(target) : target);
  return { kind: "ready", transport, stderr: transport.stderr };
}

function unsetVariables(names: readonly string[], file: string): string {
  const list = names.map((name) => `\${${name}}`).join(", ");
  const verb = names.length > 1 ? "are" : "is";
  return `its entry uses ${list}, which ${verb} not set in your environment (set it, or write \${NAME:-default} in ${file})`;
}

/** Why the command cannot start, or undefined when it can be found. */
function missingCommand(command: string, cwd: string, pathVariable: string): string | undefined {
  if (command.includes("/")) {
    const file = path.resolve(cwd, command);
    return executableFile(file) ? undefined : `was not found (no executable file at ${file})`;
  }
  return findOnPath(command, pathVariable) === undefined
    ? "was not found (not on PATH)"
    : undefined;
}

function failureOf(
  error: unknown,
  timedOut: boolean,
  timeout: number,
  stderr: TextTail | undefined,
): string {
  const said = stderr?.lines() ?? [];
  const lastWords =
    said.length > 0 ? `; its last words on stderr:\n    ${said.join("\n    ")}` : "";
  if (timedOut) return `it did not answer within ${timeout} ms${lastWords}`;
  const message = messageOf(error);
  // The AI SDK's words for a server that exited before it answered.
  if (/closed client|connection closed|not running/i.test(message)) {
    return said.length > 0
      ? `it exited before it answered${lastWords}`
      : "it exited before it answered, and wrote nothing on stderr (run its command by hand to see why)";
  }
  return `${message}${lastWords}`;
}
