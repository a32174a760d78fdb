/**
 * What a session gives the hook types that start no process
 * (hooks/run/handlers/services.ts): a keep-alive HTTP client for `http`
 * hooks; for `prompt` hooks one model request through the session's
 * provider (the hook's `model`, else the session's), outside the agent loop
 * so it never reaches a hook; for `agent` hooks a read-only verifier
 * subagent under the session's permission policy (subagents/verifier.ts);
 * for `mcp_tool` hooks the session's MCP tools. Made once per session.
 */
import { generateText } from "ai";
import { createHttpHookClient } from "../hooks/run/handlers/http-client.js";
import type { HandlerServices } from "../hooks/run/handlers/services.js";
import type { ResolvedModel } from "../models/resolve.js";
import { runVerifier } from "../subagents/verifier.js";
import type { Tool } from "../tools/types.js";
import type { SessionAgent } from "./agent.js";
import type { SessionGround } from "./ground.js";
import type { SessionServices } from "./services.js";

export interface SessionHandlers {
  handlers: HandlerServices;
  close(): void;
}

export function sessionHandlers(
  ground: SessionGround,
  services: SessionServices,
  built: SessionAgent,
  env: Readonly<Record<string, string>>,
): SessionHandlers {
  const http = createHttpHookClient();
  const modelFor = (spec: string | undefined): ResolvedModel =>
    spec === undefined ? services.model : services.resolveSubagentModel(spec);
  const mcpTools = new Map((services.mcp?.tools ?? []).map((tool) => [tool.name, tool]));
  const handlers: HandlerServices = {
    http,
    judge: async (request) => {
      const { model } = modelFor(request.model);
      const result = await generateText({
        model,
        system: request.system,
        prompt: request.prompt,
        abortSignal: request.signal,
        maxRetries: 1,
      });
      return result.text;
    },
    verify: (request) => {
      const model = modelFor(request.model);
      return runVerifier({
        ...model,
        tools: built.toolsByName.values(),
        cwd: ground.projectDir,
        env,
        runner: ground.sandbox.toolRunner,
        permissions: built.policy,
        sessionId: built.sessionId,
        transcriptPath: built.transcriptPath,
        system: request.system,
        prompt: request.prompt,
        maxSteps: request.maxSteps,
        signal: request.signal,
      });
    },
    mcpTool: (request) => callMcpTool(mcpTools.get(request.name), request, ground.projectDir, env),
  };
  return { handlers, close: () => http.close() };
}

async function callMcpTool(
  tool: Tool | undefined,
  request: { input: Record<string, unknown>; signal: AbortSignal },
  cwd: string,
  env: Readonly<Record<string, string>>,
): ReturnType<NonNullable<HandlerServices["mcpTool"]>> {
  if (tool === undefined) return undefined;
  const checked = tool.validate(request.input);
  if (!checked.ok)
    return { ok: false, error: `its input is not what the tool takes: ${checked.error}` };
  const result = await tool.execute(checked.value, {
    cwd,
    env,
    signal: request.signal,
    // An MCP tool starts no process through the runner: it calls its server.
    runner: () => Promise.reject(new Error("an MCP hook's tool runs no process")),
  });
  return result.ok ? { ok: true, text: result.output } : { ok: false, error: result.error };
}
