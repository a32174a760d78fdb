/**
 * What an MCP server entry is (Claude Code's `mcpServers` shape): the zod
 * schemas the settings loader validates `mcpServers` with and `.mcp.json` is
 * read with (mcp/config.ts). Here, beside the settings, so that config/ needs
 * nothing above it.
 */
import { z } from "zod";

/** Server names end up in tool names (`mcp__<server>__<tool>`): letters, digits, `_`, `-`. */
export const SERVER_NAME = /^[A-Za-z0-9_-]{1,48}$/;

const StringMap = z.lazy(() => z.record(z.string(), z.string()));

const StdioServerSchema = z.lazy(() =>
  z.object({
    type: z.literal("stdio").optional(),
    command: z.string().min(1, { error: "the command must not be empty" }),
    args: z.array(z.string()).optional(),
    env: StringMap.optional(),
    /** Working directory (default: the project root). */
    cwd: z.string().min(1).optional(),
  }),
);

const HttpServerSchema = z.lazy(() =>
  z.object({
    /** `http`: Streamable HTTP; `sse`: the older HTTP+SSE transport. */
    type: z.enum(["http", "sse"]),
    url: z.url({ protocol: /^https?$/, error: "expected an http(s) URL" }),
    headers: StringMap.optional(),
  }),
);

export const McpServerSchema = z.lazy(() => z.union([HttpServerSchema, StdioServerSchema]));

export const McpServersSchema = z.lazy(() =>
  z.record(
    z.string().regex(SERVER_NAME, {
      error: "a server name may use letters, digits, _ and - (at most 48)",
    }),
    McpServerSchema,
  ),
);

export type McpServerConfig = z.infer<typeof McpServerSchema>;
