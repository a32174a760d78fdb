/**
 * The `tool_batch_end` gate (Claude Code's PostToolBatch): every tool call of
 * a step is done and its result is in the conversation, before the next model
 * request. Its hooks see every call with the text the model gets for it; a
 * block ends the turn (no further request), context reaches that request.
 */
import type { ToolResultPart } from "ai";
import type { AgentEvent } from "./events.js";
import { gateFlow } from "./gate-flow.js";
import type { StepToolCall } from "./model-step.js";
import { RAISES } from "./raises.js";
import type { SessionContext } from "./session-context.js";
import type { BatchCall } from "./tool-call-events.js";
import type { TurnOutcome, TurnState } from "./turn-state.js";
import type { Verdict } from "./verdicts.js";

export interface BatchInput {
  state: TurnState;
  step: number;
  signal: AbortSignal;
}

/** Raises `tool_batch_end` for the calls that got a result; returns how the turn ends, if it does. */
export async function* batchGate(
  session: SessionContext,
  { state, step, signal }: BatchInput,
  calls: readonly StepToolCall[],
  results: readonly ToolResultPart[],
): AsyncGenerator<AgentEvent, TurnOutcome | undefined, Verdict | undefined> {
  const batch = batchCalls(calls, results);
  if (batch.length === 0) return undefined;
  const verdict = yield* session.emit({
    type: RAISES.after_tool_batch,
    turn: state.turn,
    promptId: state.promptId,
    step,
    calls: batch,
  });
  const flow = gateFlow(verdict, signal);
  if (flow.kind !== "go_on") return flow.end;
  if (flow.verdict?.action !== "block") return undefined;
  return {
    stopReason: "blocked",
    message: `A hook ended the turn after the tool calls: ${flow.verdict.reason}`,
  };
}

/** Each call with its result, in the step's order (a deferred call has none and is left out). */
function batchCalls(
  calls: readonly StepToolCall[],
  results: readonly ToolResultPart[],
): BatchCall[] {
  const byId = new Map(results.map((r) => [r.toolCallId, r]));
  const out: BatchCall[] = [];
  for (const call of calls) {
    const result = byId.get(call.toolCallId);
    if (result === undefined) continue;
    const output = result.output;
    const text =
      output.type === "text" || output.type === "error-text"
        ? output.value
        : JSON.stringify(output);
    out.push({
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: call.input,
      result: text,
      isError: output.type === "error-text" || output.type === "error-json",
    });
  }
  return out;
}
