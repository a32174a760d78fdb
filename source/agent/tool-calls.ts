/**
 * The tool calls of one model step, in order. One call is four phases, each
 * returning a typed outcome: prepare (valid input, the `tool_call_start` gate)
 * and permit (the permission gate) in tool-call-gates.ts; execute and finish
 * (`tool_call_end` or `tool_call_error`) in tool-call-run.ts.
 */
import type { ToolResultPart } from "ai";
import type { AgentEvent } from "./events.js";
import type { GateEnd } from "./gate-flow.js";
import { errorResult } from "./history.js";
import type { StepToolCall } from "./model-step.js";
import { refuse, type ToolStepContext } from "./tool-call-context.js";
import { type Permitted, type Prepared, permit, prepare } from "./tool-call-gates.js";
import { execute, type Finished, finish } from "./tool-call-run.js";
import type { Verdict } from "./verdicts.js";

export interface ToolStepResult {
  /** One result per tool call of the step, in order (the model must get an answer for each). */
  results: ToolResultPart[];
  /** Set when the turn must end here. */
  end?: GateEnd;
}

export async function* runToolCalls(
  ctx: ToolStepContext,
  calls: readonly StepToolCall[],
): AsyncGenerator<AgentEvent, ToolStepResult, Verdict | undefined> {
  const results: ToolResultPart[] = [];
  for (const [index, call] of calls.entries()) {
    if (ctx.signal.aborted) return endStep(results, calls.slice(index), { stopReason: "aborted" });
    const outcome = yield* runToolCall(ctx, call);
    if (outcome.result !== undefined) results.push(outcome.result);
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

type CallOutcome = Finished | { kind: "end"; end: GateEnd; result?: undefined };

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
