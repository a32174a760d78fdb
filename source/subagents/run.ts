/**
 * Runs a subagent for the `Task` tool: a nested `Agent` with its own history,
 * system prompt and transcript, the tools its type allows (Task only above the
 * depth limit), the parent's abort signal; its events relayed to the parent's
 * consumer (relay.ts), so the session's hook interceptor sees them all.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import type { LanguageModel } from "ai";
import { Agent } from "../agent/agent.js";
import { defaultSystemPrompt } from "../agent/system-prompt.js";
import type { ShellEnvironment } from "../agent/types.js";
import type { PermissionPolicy } from "../permissions/decide.js";
import type { ProcessRunner } from "../process/types.js";
import { TASK_TOOL_NAME, taskTool } from "../tools/builtin/task.js";
import type { RunSubagent, SubagentDefinition } from "../tools/builtin/task-types.js";
import type { Tool, ToolResult } from "../tools/types.js";
import { type RelayOutcome, relaySubagent } from "./relay.js";

/** Subagents may start subagents down to this depth (the session's agent is depth 0). */
const DEFAULT_MAX_SUBAGENT_DEPTH = 2;

export interface SubagentRunnerOptions {
  /** Every type the Task tool offers (the built-in general-purpose one included). */
  definitions: readonly SubagentDefinition[];
  model: LanguageModel;
  modelId: string;
  /** A type's own `model`; throws (with the reason) when it cannot be used. */
  resolveModel?: (spec: string) => { model: LanguageModel; modelId: string };
  /** The session's tools, without Task. */
  tools: readonly Tool[];
  cwd: string;
  env: Readonly<Record<string, string>>;
  shellEnv?: () => ShellEnvironment;
  runner: ProcessRunner;
  /**
   * The session's permission policy (rules, mode, paths): a subagent's tool
   * calls are judged by it, and its questions go up to the session's consumer
   * (hooks, the user, `--yes`, or a headless denial) like the parent's own.
   */
  permissions: PermissionPolicy;
  sessionId: string;
  /** The session's transcript: a subagent's is `<it without .jsonl>/subagents/agent-<id>.jsonl`. */
  transcriptPath: string;
  maxSteps?: number;
  maxStopBlocks?: number;
  maxDepth?: number;
  /** Depth of the subagents this runner starts (1: the session's agent's). */
  depth?: number;
}

const SUBAGENT_PROMPT_NOTE =
  "You are a subagent: another agent gave you the task below through its Task tool. Do it, then end with a final answer; that answer is all the other agent sees of your work.";

/** The Task tool of an agent whose subagents are at `options.depth` (default 1). */
export function subagentTaskTool(options: SubagentRunnerOptions): Tool {
  return taskTool({ definitions: options.definitions, run: createSubagentRunner(options) });
}

function createSubagentRunner(options: SubagentRunnerOptions): RunSubagent {
  const byName = new Map(options.definitions.map((d) => [d.name, d]));
  const depth = options.depth ?? 1;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_SUBAGENT_DEPTH;
  return async function* runSubagent(request) {
    const definition = byName.get(request.subagentType);
    if (definition === undefined) {
      return failure(
        `There is no subagent type "${request.subagentType}". Available: ${[...byName.keys()].join(", ")}.`,
      );
    }
    let model = { model: options.model, modelId: options.modelId };
    if (definition.model !== undefined && options.resolveModel) {
      try {
        model = options.resolveModel(definition.model);
      } catch (error) {
        const where = definition.file ? ` (${definition.file})` : "";
        return failure(
          `The subagent type ${definition.name}${where} names the model "${definition.model}", which acai cannot use: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    const agentId = randomUUID();
    const transcriptPath = subagentTranscriptPath(options.transcriptPath, agentId);
    const tools = toolsFor(definition, options, depth < maxDepth);
    const agent = new Agent({
      ...model,
      tools,
      cwd: options.cwd,
      env: options.env,
      ...(options.shellEnv ? { shellEnv: options.shellEnv } : {}),
      runner: options.runner,
      permissions: options.permissions,
      sessionId: options.sessionId,
      transcriptPath,
      systemPrompt: systemPromptFor(definition, options.cwd, tools),
      ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
      ...(options.maxStopBlocks === undefined ? {} : { maxStopBlocks: options.maxStopBlocks }),
    });
    const run = agent.run({ prompts: [{ prompt: request.prompt }], signal: request.signal });
    const info = {
      agentId,
      agentType: definition.name,
      description: request.description,
      prompt: request.prompt,
      toolCallId: request.toolCallId,
      depth,
      transcriptPath,
    };
    let outcome: RelayOutcome;
    try {
      outcome = yield* relaySubagent(run, info);
    } finally {
      await run.return(undefined);
    }
    yield {
      type: "subagent_end",
      agentId,
      agentType: definition.name,
      toolCallId: request.toolCallId,
      stopReason: outcome.stopReason,
      text: outcome.text,
      usage: outcome.usage,
      ...(outcome.message === undefined ? {} : { message: outcome.message }),
    };
    return resultOf(outcome, info);
  };
}

function subagentTranscriptPath(parent: string, agentId: string): string {
  const dir = path.join(path.dirname(parent), path.basename(parent, ".jsonl"), "subagents");
  return path.join(dir, `agent-${agentId}.jsonl`);
}

function toolsFor(
  definition: SubagentDefinition,
  options: SubagentRunnerOptions,
  nestable: boolean,
): Tool[] {
  const allowed = definition.tools === undefined ? undefined : new Set(definition.tools);
  const tools = options.tools.filter((tool) => allowed === undefined || allowed.has(tool.name));
  if (nestable && (allowed === undefined || allowed.has(TASK_TOOL_NAME))) {
    tools.push(subagentTaskTool({ ...options, depth: (options.depth ?? 1) + 1 }));
  }
  return tools;
}

function systemPromptFor(definition: SubagentDefinition, cwd: string, tools: Tool[]): string {
  if (definition.prompt === undefined)
    return `${defaultSystemPrompt({ cwd, tools })}\n\n${SUBAGENT_PROMPT_NOTE}`;
  return [
    definition.prompt,
    "",
    SUBAGENT_PROMPT_NOTE,
    `The project directory (working directory of every tool) is ${cwd}.`,
  ].join("\n");
}

function failure(error: string): ToolResult {
  return { ok: false, error, interrupted: false };
}

function resultOf(outcome: RelayOutcome, info: { agentId: string; agentType: string }): ToolResult {
  if (outcome.refused !== undefined)
    return failure(`A subagent_start hook blocked the subagent: ${outcome.refused}`);
  if (outcome.stopped !== undefined)
    return failure(`A subagent_start hook stopped the subagent: ${outcome.stopped}`);
  const response = {
    agent_id: info.agentId,
    agent_type: info.agentType,
    content: [{ type: "text", text: outcome.text }],
    stop_reason: outcome.stopReason,
    usage: {
      input_tokens: outcome.usage.inputTokens,
      output_tokens: outcome.usage.outputTokens,
      total_tokens: outcome.usage.totalTokens,
    },
  };
  const said = outcome.message ? ` ${outcome.message}` : "";
  switch (outcome.stopReason) {
    case "end_turn":
      return { ok: true, output: outcome.text || "(The subagent gave no final answer.)", response };
    case "max_steps":
    case "stop_hook_limit":
      return {
        ok: true,
        output: `${outcome.text}\n\n(The subagent was stopped:${said})`,
        response,
      };
    case "aborted":
      return { ok: false, error: "The subagent was interrupted.", interrupted: true, response };
    case "blocked":
    case "hook_stop":
    case "error":
    case "deferred": // not honoured inside a subagent (the interceptor makes it an ask)
      return {
        ok: false,
        error: `The subagent ended (${outcome.stopReason}):${said}`,
        interrupted: false,
        response,
      };
    default:
      return outcome.stopReason satisfies never;
  }
}
