/**
 * An MCP server's tool as an acai tool named `mcp__<server>__<tool>`, the
 * name Claude Code gives it, so hook matchers written for Claude Code
 * (`mcp__github__.*`) fire. Input is checked against the tool's JSON Schema;
 * the call goes to the server with the run's abort signal; the text the model
 * sees (text content, structured content as JSON) is capped like other tools'.
 */
import { checkJsonInput } from "../tools/json-input.js";
import { capForModel } from "../tools/text.js";
import type { JsonSchema, Tool, ToolResult } from "../tools/types.js";
import { validateOnce } from "../tools/validated-input.js";

/** Tool names the model APIs accept (`^[A-Za-z0-9_-]{1,64}$`), as the server part. */
const TOOL_NAME = /^[A-Za-z0-9_-]+$/;
const MAX_TOOL_NAME = 64;

export interface McpToolDefinition {
  name: string;
  description?: string;
  inputSchema: JsonSchema;
}

/** Calls one tool of the connected server. */
export type McpCall = (
  name: string,
  input: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<unknown>;

function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

/** Why a server's tool cannot be offered under its name, or undefined. */
export function toolNameProblem(server: string, tool: string): string | undefined {
  if (!TOOL_NAME.test(tool))
    return `its name ${JSON.stringify(tool)} uses characters model APIs refuse`;
  const full = mcpToolName(server, tool);
  if (full.length > MAX_TOOL_NAME) return `${full} is longer than ${MAX_TOOL_NAME} characters`;
  return undefined;
}

export function mcpTool(server: string, definition: McpToolDefinition, call: McpCall): Tool {
  const name = mcpToolName(server, definition.name);
  const inputSchema: JsonSchema = { type: "object", ...definition.inputSchema };
  return {
    name,
    description: definition.description ?? `${definition.name} (MCP server ${server})`,
    inputSchema,
    validate: validateOnce((input) => checkJsonInput(name, inputSchema, input)),
    async execute(input, context): Promise<ToolResult> {
      try {
        const result = await call(
          definition.name,
          input as Record<string, unknown>,
          context.signal,
        );
        return resultOf(result);
      } catch (error) {
        const interrupted = context.signal.aborted;
        return {
          ok: false,
          interrupted,
          error: interrupted
            ? `${name} was interrupted`
            : `MCP server ${server} failed to run ${definition.name}: ${messageOf(error)}`,
        };
      }
    },
  };
}

/** The text the model sees of a `tools/call` result, and the result itself for hooks. */
export function resultOf(result: unknown): ToolResult {
  const record = isRecord(result) ? result : {};
  const parts: string[] = [];
  const content = Array.isArray(record.content) ? record.content : [];
  for (const item of content) parts.push(contentText(item));
  if (record.structuredContent !== undefined && !parts.some((part) => part !== "")) {
    parts.push(JSON.stringify(record.structuredContent, null, 2));
  }
  if ("toolResult" in record) parts.push(JSON.stringify(record.toolResult, null, 2));
  const output = capForModel(parts.filter((part) => part !== "").join("\n"));
  if (record.isError === true) {
    return {
      ok: false,
      interrupted: false,
      error: output || "the MCP tool reported an error",
      response: result,
    };
  }
  return { ok: true, output, response: result };
}

function contentText(item: unknown): string {
  if (!isRecord(item)) return "";
  switch (item.type) {
    case "text":
      return typeof item.text === "string" ? item.text : "";
    case "image":
    case "audio":
      return `[${item.type} ${typeof item.mimeType === "string" ? item.mimeType : ""}]`.replace(
        " ]",
        "]",
      );
    case "resource": {
      const resource = isRecord(item.resource) ? item.resource : {};
      const uri = typeof resource.uri === "string" ? resource.uri : "";
      return typeof resource.text === "string"
        ? `[resource ${uri}]\n${resource.text}`
        : `[resource ${uri}]`;
    }
    case "resource_link":
      return `[resource link ${typeof item.uri === "string" ? item.uri : ""}]`;
    default:
      return "";
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
