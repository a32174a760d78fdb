import type { ToolResultPart } from "ai";
import { type PermissionPolicy, readBlockedBy } from "../permissions/decide.js";
import type { ProcessRunner } from "../process/types.js";
import type { Tool, ToolContext, ToolResult } from "../tools/types.js";
import type { AgentEvent, StopReason, Verdict, VerdictFor } from "./events.js";
import { errorResult, textResult } from "./history.js";
import type { StepToolCall } from "./model-step.js";
import { modifiedFileNotice, snapshotFile } from "./modified-file.js";
import { checkPermission } from "./permission-gate.js";
import type { ShellEnvironment } from "./types.js";

export type Emit = <E extends AgentEvent>(
  event: E,
) => AsyncGenerator<AgentEvent, VerdictFor<E["type"]> | undefined, Verdict | undefined>;

export interface ToolStepContext {
  emit: Emit;
  tools: ReadonlyMap<string, Tool>;
  cwd: string;
  env: Readonly<Record<string, string>>;
  /** Variables for the user's shell, asked before each tool call (see `AgentOptions.shellEnv`). */
  shellEnv?: () => ShellEnvironment;
  runner: ProcessRunner;
  /** Whether each call may run (see `AgentOptions.permissions`). */
  permissions: PermissionPolicy;
  signal: AbortSignal;
  now: () => number;
  turn: number;
  promptId?: string;
  step: number;
}

export interface ToolStepResult {
  /** One result per tool call of the step, in order (the model must get an answer for each). */
  results: ToolResultPart[];
  /** Set when the turn must end here. */
  end?: { stopReason: Extract<StopReason, "aborted" | "hook_stop">; message?: string };
}

/**
 * Runs the tool calls of one model step, in order, gating each through
 * `tool_call_start` and `tool_call_end` (or reporting `tool_call_error`).
 */
export async function* runToolCalls(
  ctx: ToolStepContext,
  calls: readonly StepToolCall[],
): AsyncGenerator<AgentEvent, ToolStepResult, Verdict | undefined> {
  const results: ToolResultPart[] = [];
  const base = {
    turn: ctx.turn,
    step: ctx.step,
    ...(ctx.promptId === undefined ? {} : { promptId: ctx.promptId }),
  };

  const fail = (
    call: StepToolCall,
    input: unknown,
    error: string,
    extra: {
      interrupted?: boolean;
      blocked?: boolean;
      denied?: boolean;
      durationMs?: number;
      modelText?: string;
    } = {},
  ): AgentEvent => {
    results.push(errorResult(call.toolCallId, call.toolName, extra.modelText ?? error));
    return {
      type: "tool_call_error",
      ...base,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input,
      error,
      interrupted: extra.interrupted ?? false,
      blocked: extra.blocked ?? false,
      ...(extra.denied ? { denied: true } : {}),
      durationMs: extra.durationMs ?? 0,
    };
  };
  const answerRest = (from: number, why: string) => {
    for (const call of calls.slice(from)) {
      if (!results.some((r) => r.toolCallId === call.toolCallId)) {
        results.push(errorResult(call.toolCallId, call.toolName, `Not run: ${why}.`));
      }
    }
  };

  for (const [index, call] of calls.entries()) {
    if (ctx.signal.aborted) {
      answerRest(index, "the user interrupted the turn");
      return { results, end: { stopReason: "aborted" } };
    }
    const tool = ctx.tools.get(call.toolName);
    const problem =
      call.invalidReason ?? (tool ? undefined : `There is no tool named "${call.toolName}".`);
    if (problem || !tool) {
      yield* ctx.emit(fail(call, call.input, problem ?? "unknown tool"));
      continue;
    }
    const checked = tool.validate(call.input);
    if (!checked.ok) {
      // Tools name themselves in their validation errors ("Invalid input for Read: …").
      yield* ctx.emit(fail(call, call.input, checked.error));
      continue;
    }
    let input = checked.value;

    const startVerdict = yield* ctx.emit({
      type: "tool_call_start",
      ...base,
      toolCallId: call.toolCallId,
      toolName: tool.name,
      input,
    });
    if (ctx.signal.aborted) {
      answerRest(index, "the user interrupted the turn");
      return { results, end: { stopReason: "aborted" } };
    }
    if (startVerdict?.action === "stop") {
      answerRest(index, `a hook stopped the session (${startVerdict.reason})`);
      return { results, end: { stopReason: "hook_stop", message: startVerdict.reason } };
    }
    if (startVerdict?.action === "block") {
      const event = fail(call, input, startVerdict.reason, {
        blocked: true,
        modelText: startVerdict.modelText ?? `Blocked by a hook: ${startVerdict.reason}`,
      });
      yield* ctx.emit(event);
      continue;
    }
    if (startVerdict?.action === "continue" && startVerdict.input !== undefined) {
      const replaced = tool.validate(startVerdict.input);
      if (!replaced.ok) {
        const error = `A hook replaced the input of this ${tool.name} call with an invalid one: ${replaced.error}`;
        yield* ctx.emit(fail(call, startVerdict.input, error));
        continue;
      }
      input = replaced.value;
    }

    const permitted = yield* checkPermission(
      ctx,
      { ...base, toolCallId: call.toolCallId },
      tool,
      input,
      startVerdict?.action === "continue" ? startVerdict.permission : undefined,
    );
    if (permitted.kind === "aborted") {
      answerRest(index, "the user interrupted the turn");
      return { results, end: { stopReason: "aborted" } };
    }
    if (permitted.kind === "stop") {
      answerRest(index, `a hook stopped the session (${permitted.reason})`);
      return { results, end: { stopReason: "hook_stop", message: permitted.reason } };
    }
    if (permitted.kind === "denied") {
      const event = fail(call, input, permitted.reason, {
        blocked: true,
        denied: true,
        modelText: permitted.modelText,
      });
      yield* ctx.emit(event);
      continue;
    }
    if (permitted.kind === "invalid") {
      yield* ctx.emit(fail(call, permitted.input, permitted.error));
      continue;
    }
    input = permitted.input;

    const shell = ctx.shellEnv?.();
    for (const message of shell?.warnings ?? []) {
      yield* ctx.emit({ type: "warning", message, source: "CLAUDE_ENV_FILE" });
    }
    const started = ctx.now();
    const result = tool.stream
      ? yield* streamSafely(
          tool.stream(input, {
            ...toolContext(ctx, tool.name, shell?.vars),
            toolCallId: call.toolCallId,
          }),
          tool.name,
          ctx,
        )
      : await executeSafely(tool, input, ctx, shell?.vars, permitted.landing);
    const durationMs = Math.max(0, ctx.now() - started);
    if (!result.ok) {
      const interrupted = result.interrupted || ctx.signal.aborted;
      yield* ctx.emit(fail(call, input, result.error, { interrupted, durationMs }));
      if (ctx.signal.aborted) {
        answerRest(index + 1, "the user interrupted the turn");
        return { results, end: { stopReason: "aborted" } };
      }
      continue;
    }

    // A formatter among the after_tool hooks may rewrite the file just written.
    const written = result.wrote === undefined ? undefined : await snapshotFile(result.wrote);
    const endVerdict = yield* ctx.emit({
      type: "tool_call_end",
      ...base,
      toolCallId: call.toolCallId,
      toolName: tool.name,
      input,
      output: result.output,
      response: result.response,
      durationMs,
    });
    let output = result.output;
    if (endVerdict?.action === "continue" && endVerdict.output !== undefined)
      output = endVerdict.output;
    if (endVerdict?.action === "block")
      output = `${output}\n\nA hook flagged this result: ${endVerdict.reason}`;
    if (result.wrote !== undefined && written !== undefined) {
      const notice = await modifiedFileNotice(result.wrote, tool.name, written);
      if (notice !== undefined) output = `${output}\n\n${notice}`;
    }
    results.push(textResult(call.toolCallId, call.toolName, output));
    if (ctx.signal.aborted) {
      answerRest(index + 1, "the user interrupted the turn");
      return { results, end: { stopReason: "aborted" } };
    }
    if (endVerdict?.action === "stop") {
      answerRest(index + 1, `a hook stopped the session (${endVerdict.reason})`);
      return { results, end: { stopReason: "hook_stop", message: endVerdict.reason } };
    }
  }
  return { results };
}

function toolContext(
  ctx: ToolStepContext,
  toolName: string,
  shellEnv: Readonly<Record<string, string>> | undefined,
  landing?: string,
): ToolContext {
  return {
    cwd: ctx.cwd,
    signal: ctx.signal,
    runner: ctx.runner,
    env: ctx.env,
    ...(shellEnv === undefined ? {} : { shellEnv }),
    ...(landing === undefined ? {} : { landing }),
    readable: (file: string) => readBlockedBy(toolName, file, ctx.permissions) === undefined,
  };
}

/** A streaming tool (Task): its events go to the consumer as they are, their verdicts back to it. */
async function* streamSafely(
  run: AsyncGenerator<AgentEvent, ToolResult, Verdict | undefined>,
  toolName: string,
  ctx: ToolStepContext,
): AsyncGenerator<AgentEvent, ToolResult, Verdict | undefined> {
  try {
    return yield* run;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `${toolName} failed: ${message}`, interrupted: ctx.signal.aborted };
  }
}

async function executeSafely(
  tool: Tool,
  input: unknown,
  ctx: ToolStepContext,
  shellEnv: Readonly<Record<string, string>> | undefined,
  landing: string | undefined,
): Promise<ToolResult> {
  try {
    return await tool.execute(input, toolContext(ctx, tool.name, shellEnv, landing));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `${tool.name} failed: ${message}`, interrupted: ctx.signal.aborted };
  }
}
