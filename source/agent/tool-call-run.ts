/**
 * The two phases of a tool call that was let through: execute (the tool runs,
 * or streams its subagent's events) and finish (`tool_call_end` — after_tool —
 * or `tool_call_error`), which gives the model its answer.
 */
import type { ToolResultPart } from "ai";
import { readBlockedBy } from "../permissions/decide.js";
import type { Tool, ToolContext, ToolResult } from "../tools/types.js";
import type { FollowUpCall } from "./event-data.js";
import type { AgentEvent } from "./events.js";
import { type GateEnd, gateFlow } from "./gate-flow.js";
import { textResult } from "./history.js";
import type { StepToolCall } from "./model-step.js";
import { modifiedFileNotice, snapshotFile } from "./modified-file.js";
import { RAISES } from "./raises.js";
import { callRef, type Refusal, refuse, type ToolStepContext } from "./tool-call-context.js";
import type { Permitted } from "./tool-call-gates.js";
import type { Verdict } from "./verdicts.js";

type Executed =
  | { kind: "ran"; input: unknown; result: Extract<ToolResult, { ok: true }>; durationMs: number }
  | { kind: "failed"; refusal: Refusal };

/** How the call ended: the model's answer, and whether the turn ends with it. */
export type Finished =
  /** `followUp`: a call an after_tool hook asked for, to run next (tool-calls.ts). */
  | { kind: "answered"; result: ToolResultPart; followUp?: FollowUpCall }
  | { kind: "end"; end: GateEnd; result: ToolResultPart };

export async function* execute(
  ctx: ToolStepContext,
  tool: Tool,
  call: StepToolCall,
  { input, landing }: Extract<Permitted, { kind: "go_on" }>,
): AsyncGenerator<AgentEvent, Executed, Verdict | undefined> {
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
    : await executeSafely(tool, input, ctx, shell?.vars, landing);
  const durationMs = Math.max(0, ctx.now() - started);
  if (result.ok) return { kind: "ran", input, result, durationMs };
  const interrupted = result.interrupted || ctx.signal.aborted;
  const response = result.response === undefined ? {} : { response: result.response };
  return {
    kind: "failed",
    refusal: { input, error: result.error, interrupted, durationMs, ...response },
  };
}

/** A failure is reported; a result passes `tool_call_end`, which may replace, flag or stop. */
export async function* finish(
  ctx: ToolStepContext,
  tool: Tool,
  call: StepToolCall,
  executed: Executed,
): AsyncGenerator<AgentEvent, Finished, Verdict | undefined> {
  if (executed.kind === "failed") {
    const result = yield* refuse(ctx, call, executed.refusal);
    if (ctx.signal.aborted) return { kind: "end", end: { stopReason: "aborted" }, result };
    return { kind: "answered", result };
  }
  const { input, result: ran, durationMs } = executed;
  // A formatter among the after_tool hooks may rewrite the file just written.
  const written = ran.wrote === undefined ? undefined : await snapshotFile(ran.wrote);
  const verdict = yield* ctx.emit({
    type: RAISES.after_tool,
    ...callRef(ctx, call),
    toolName: tool.name,
    input,
    output: ran.output,
    response: ran.response,
    durationMs,
  });
  let output = ran.output;
  if (verdict?.action === "continue" && verdict.output !== undefined) output = verdict.output;
  if (verdict?.action === "block")
    output = `${output}\n\nA hook flagged this result: ${verdict.reason}`;
  if (ran.wrote !== undefined && written !== undefined) {
    const notice = await modifiedFileNotice(ran.wrote, tool.name, written);
    if (notice !== undefined) output = `${output}\n\n${notice}`;
  }
  const result = textResult(call.toolCallId, call.toolName, output);
  const flow = gateFlow(verdict, ctx.signal);
  if (flow.kind !== "go_on") return { kind: "end", end: flow.end, result };
  const followUp = verdict?.action === "continue" ? verdict.followUp : undefined;
  if (followUp === undefined) return { kind: "answered", result };
  if (ctx.followUps === false) {
    yield* ctx.emit({
      type: "warning",
      message: `hook "${followUp.by}" asked for a follow-up call after a follow-up call; only one is run, this one is ignored`,
      source: "after_tool",
    });
    return { kind: "answered", result };
  }
  return { kind: "answered", result, followUp };
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
