/**
 * The tool calls of one model step, in order. One call is four phases, each
 * returning a typed outcome: prepare (valid input, the `tool_call_start` gate)
 * and permit (the permission gate) in tool-call-gates.ts; execute and finish
 * (`tool_call_end` or `tool_call_error`) in tool-call-run.ts. A follow-up call
 * an after_tool hook asked for runs the same four phases (one level: its own
 * after_tool cannot ask for another) and its result replaces the call's. A
 * call a before_tool hook deferred ends the step: it and the calls after it
 * stay without a result (pending), for `--resume`.
 */
import type { ToolResultPart } from "ai";
import type { AgentEvent } from "./events.js";
import type { GateEnd } from "./gate-flow.js";
import { errorResult, textResult } from "./history.js";
import type { StepToolCall } from "./model-step.js";
import { callRef, refuse, type ToolStepContext } from "./tool-call-context.js";
import { type Permitted, type Prepared, permit, prepare } from "./tool-call-gates.js";
import { execute, type Finished, finish } from "./tool-call-run.js";
import type { Verdict } from "./verdicts.js";

/** How a step's calls end the turn: a gate's end, or a deferred call. */
type CallsEnd = GateEnd | { stopReason: "deferred"; message: string };

export interface ToolStepResult {
  /**
   * One result per tool call of the step, in order (the model must get an
   * answer for each) — but for deferred calls, which stay pending.
   */
  results: ToolResultPart[];
  /** Set when the turn must end here. */
  end?: CallsEnd;
}

export async function* runToolCalls(
  ctx: ToolStepContext,
  calls: readonly StepToolCall[],
): AsyncGenerator<AgentEvent, ToolStepResult, Verdict | undefined> {
  const results: ToolResultPart[] = [];
  for (const [index, call] of calls.entries()) {
    if (ctx.signal.aborted) return endStep(results, calls.slice(index), { stopReason: "aborted" });
    const outcome = yield* withFollowUp(ctx, call, yield* runToolCall(ctx, call));
    if (outcome.result !== undefined) results.push(outcome.result);
    if (outcome.kind === "deferred") return { results, end: outcome.end };
    if (outcome.kind === "end") return endStep(results, calls.slice(index), outcome.end);
  }
  return { results };
}

/** One call: prepare → permit → execute → finish; a refusal or an end stops it at its phase. */
async function* runToolCall(
  ctx: ToolStepContext,
  call: StepToolCall,
): AsyncGenerator<AgentEvent, CallOutcome, Verdict | undefined> {
  const prepared = yield* prepare(ctx, call);
  if (prepared.kind !== "go_on") return yield* notRun(ctx, call, prepared);
  const permitted = yield* permit(ctx, call, prepared);
  if (permitted.kind !== "go_on") return yield* notRun(ctx, call, permitted);
  const executed = yield* execute(ctx, prepared.tool, call, permitted);
  return yield* finish(ctx, prepared.tool, call, executed);
}

type CallOutcome =
  | Finished
  | { kind: "end"; end: GateEnd; result?: undefined }
  | { kind: "deferred"; end: CallsEnd; result?: undefined };

/**
 * The follow-up call an after_tool hook asked for, run through every gate
 * like any other; its result (or why it did not run) replaces the call's.
 * Its own after_tool cannot ask for another.
 */
async function* withFollowUp(
  ctx: ToolStepContext,
  call: StepToolCall,
  outcome: CallOutcome,
): AsyncGenerator<AgentEvent, CallOutcome, Verdict | undefined> {
  if (outcome.kind !== "answered" || outcome.followUp === undefined) return outcome;
  const { toolName, input, by } = outcome.followUp;
  const next: StepToolCall = { toolCallId: `${call.toolCallId}-followup`, toolName, input };
  const followed = yield* runToolCall({ ...ctx, followUps: false }, next);
  if (followed.kind === "deferred") return followed;
  const header = `An after_tool hook ("${by}") ran a follow-up call in place of this result: ${toolName} ${JSON.stringify(input)}`;
  const result = followed.result ?? errorResult(next.toolCallId, toolName, "Not run.");
  const value = `${header}\n\n${resultText(result)}`;
  const replaced =
    result.output.type === "error-text"
      ? errorResult(call.toolCallId, call.toolName, value)
      : textResult(call.toolCallId, call.toolName, value);
  return followed.kind === "end"
    ? { kind: "end", end: followed.end, result: replaced }
    : { kind: "answered", result: replaced };
}

function resultText(result: ToolResultPart): string {
  const output = result.output;
  return output.type === "text" || output.type === "error-text"
    ? output.value
    : JSON.stringify(output);
}

/** A call stopped before it ran: a refusal answers it, an end leaves it to `endStep`. */
async function* notRun(
  ctx: ToolStepContext,
  call: StepToolCall,
  outcome: Exclude<Prepared | Permitted, { kind: "go_on" }>,
): AsyncGenerator<AgentEvent, CallOutcome, Verdict | undefined> {
  switch (outcome.kind) {
    case "refused":
      return { kind: "answered", result: yield* refuse(ctx, call, outcome.refusal) };
    case "end":
      return { kind: "end", end: outcome.end };
    case "deferred": {
      const { input, reason } = outcome;
      yield* ctx.emit({
        type: "tool_call_deferred",
        ...callRef(ctx, call),
        toolName: call.toolName,
        input,
        reason,
      });
      const message = `A hook deferred the ${call.toolName} call: ${reason}`;
      return { kind: "deferred", end: { stopReason: "deferred", message } };
    }
    default:
      return outcome satisfies never;
  }
}

/** The turn ends here: every call not answered yet gets "Not run", saying why. */
function endStep(
  results: ToolResultPart[],
  rest: readonly StepToolCall[],
  end: GateEnd,
): ToolStepResult {
  const why =
    end.stopReason === "aborted"
      ? "the user interrupted the turn"
      : `a hook stopped the session (${end.message})`;
  for (const call of rest) {
    if (!results.some((r) => r.toolCallId === call.toolCallId)) {
      results.push(errorResult(call.toolCallId, call.toolName, `Not run: ${why}.`));
    }
  }
  return { results, end };
}
