/**
 * What every phase of a tool call (tool-calls.ts) shares: the step's context,
 * and the refusal — a call that does not run, or fails, answers the model
 * with an error and raises `tool_call_error`.
 */
import type { ToolResultPart } from "ai";
import type { PermissionPolicy } from "../permissions/decide.js";
import type { ProcessRunner } from "../process/types.js";
import type { Tool } from "../tools/types.js";
import type { ToolCallRef } from "./event-refs.js";
import type { AgentEvent, Emit } from "./events.js";
import { errorResult } from "./history.js";
import type { StepToolCall } from "./model-step.js";
import { RAISES } from "./raises.js";
import type { ShellEnvironment } from "./types.js";
import type { Verdict } from "./verdicts.js";

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
  /** The session's latest tool calls, for `tool_call_start`'s `recentTools`. */
  recentTools?: () => string[];
  turn: number;
  promptId?: string;
  step: number;
  /** false: an after_tool hook's follow-up call is ignored (a follow-up's own after_tool). */
  followUps?: boolean;
}

/** Why a call did not run or failed: `tool_call_error`'s fields, and what the model reads. */
export interface Refusal {
  input: unknown;
  error: string;
  interrupted?: boolean;
  blocked?: boolean;
  denied?: boolean;
  durationMs?: number;
  /** A tool that ran and failed: its structured result. */
  response?: unknown;
  /** The model's tool result, when it is not `error`. */
  modelText?: string;
}

/** The fields every event of one tool call carries. */
export function callRef(ctx: ToolStepContext, call: StepToolCall): ToolCallRef {
  return {
    turn: ctx.turn,
    step: ctx.step,
    ...(ctx.promptId === undefined ? {} : { promptId: ctx.promptId }),
    toolCallId: call.toolCallId,
  };
}

/** Raises `tool_call_error` for a refusal; returns the error the model gets for the call. */
export async function* refuse(
  ctx: ToolStepContext,
  call: StepToolCall,
  refusal: Refusal,
): AsyncGenerator<AgentEvent, ToolResultPart, Verdict | undefined> {
  const result = errorResult(call.toolCallId, call.toolName, refusal.modelText ?? refusal.error);
  yield* ctx.emit({
    type: RAISES.after_tool_failure,
    ...callRef(ctx, call),
    toolName: call.toolName,
    input: refusal.input,
    error: refusal.error,
    interrupted: refusal.interrupted ?? false,
    blocked: refusal.blocked ?? false,
    ...(refusal.denied ? { denied: true } : {}),
    ...(refusal.response === undefined ? {} : { response: refusal.response }),
    durationMs: refusal.durationMs ?? 0,
  });
  return result;
}
