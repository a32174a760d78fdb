/**
 * What the hook types that start no process need from the session: a
 * keep-alive HTTP client (`http`), a one-request judge through the session's
 * provider (`prompt`), a read-only verifier subagent (`agent`) and the
 * session's MCP tools (`mcp_tool`). The session makes them
 * (session/hook-handlers.ts); a run without one says so as that hook's failure.
 */
import type { HttpHookClient } from "./http-client.js";

/** One model request, outside the agent loop (no hooks, no tools). */
interface JudgeRequest {
  system: string;
  prompt: string;
  /** The hook's `model`; none: the session's model. */
  model?: string;
  signal: AbortSignal;
}

/** A verifier subagent's run: read-only tools, bounded steps, under the session's permission policy. */
interface VerifyRequest extends JudgeRequest {
  maxSteps: number;
}

/** What an MCP tool answered: its text, or why the call failed. */
type McpToolAnswer = { ok: true; text: string } | { ok: false; error: string };

interface McpToolRequest {
  /** `mcp__<server>__<tool>`. */
  name: string;
  input: Record<string, unknown>;
  signal: AbortSignal;
}

export interface HandlerServices {
  http?: HttpHookClient;
  /** The final text of one model request. Throws with the provider's words when it fails. */
  judge?: (request: JudgeRequest) => Promise<string>;
  /** The verifier's final answer. Throws when it cannot run. */
  verify?: (request: VerifyRequest) => Promise<string>;
  /** Calls a tool of a connected MCP server; undefined when no server offers that name. */
  mcpTool?: (request: McpToolRequest) => Promise<McpToolAnswer | undefined>;
}
