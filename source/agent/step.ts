/**
 * One step of a turn: one model request and what follows from its answer.
 * Messages that arrived are delivered, `step_start`, compaction if the
 * conversation nears the context window, the `model_request` gate, the
 * stream, the `model_response` gate, the message read for patterns, the tool
 * calls run, `step_end`.
 */

import { isContextLengthError } from "./compaction/context-window.js";
import { compactSession, nearContextWindow } from "./compaction/session-compaction.js";
import type { AgentEvent } from "./events.js";
import { gateFlow } from "./gate-flow.js";
import { errorResult } from "./history.js";
import { deliverInbox } from "./message-received.js";
import { type GateResult, requestGate, streamModel } from "./model-request.js";
import type { StepOutcome, StepToolCall } from "./model-step.js";
import { describeProviderError, providerErrorKind } from "./provider-error.js";
import { RAISES } from "./raises.js";
import { readOutput } from "./read-output.js";
import { changedAnswer, offeredNames, refuseUnoffered } from "./request-changes.js";
import type { SessionContext } from "./session-context.js";
import { batchGate } from "./tool-batch.js";
import { runToolCalls } from "./tool-calls.js";
import type { TurnOutcome, TurnState } from "./turn-state.js";
import { addUsage } from "./usage.js";
import type { Verdict } from "./verdicts.js";

/** What the turn does after a step. */
export type StepResult =
  /** The turn ends here. */
  | { kind: "ended"; outcome: TurnOutcome }
  /** The server said the conversation is too long and it was compacted: the same step again. */
  | { kind: "compacted" }
  /** Tool calls ran: the model hears their results in the next step. */
  | { kind: "tools_ran" }
  /** The model answered without tool calls; `answered`: a pattern in it got an answer. */
  | { kind: "finished"; answered: boolean };

type Answer = Extract<StepOutcome, { kind: "ok" }>;

export interface StepInput {
  state: TurnState;
  step: number;
  signal: AbortSignal;
  /** A context-length error may compact and repeat the step (once per turn). */
  mayCompact: boolean;
}

export async function* runStep(
  session: SessionContext,
  input: StepInput,
): AsyncGenerator<AgentEvent, StepResult, Verdict | undefined> {
  const { state, step, signal } = input;
  const gate = yield* beforeRequest(session, state, step, signal);
  if (gate.kind === "end") return ended(gate.outcome);
  session.history.flushContext();
  const started = session.now();
  const outcome = yield* streamModel(session, { turn: state.turn, step, plan: gate.plan }, signal);
  if (outcome.kind === "aborted") return ended({ stopReason: "aborted" });
  if (outcome.kind === "error") return yield* requestFailed(session, input, outcome.error);
  const responded = yield* responseGate(session, input, outcome, started);
  const answer = changedAnswer(outcome, responded.changes);
  recordAnswer(session, state, answer);
  const offered = offeredNames([...session.tools.keys()], gate.plan.changes);
  const calls = refuseUnoffered(answer.toolCalls, offered);
  if (responded.end) return endUnanswered(session, calls, responded.end);
  const answered = yield* readOutput(session, state, step, answer.text);
  if (signal.aborted) return endUnanswered(session, calls, { stopReason: "aborted" });
  if (calls.length > 0) {
    const toolsEnded = yield* runTools(session, input, calls);
    if (toolsEnded) return ended(toolsEnded);
  }
  yield* session.emit({ type: "step_end", turn: state.turn, step });
  if (signal.aborted) return ended({ stopReason: "aborted" });
  return calls.length > 0 ? { kind: "tools_ran" } : { kind: "finished", answered };
}

/** Up to the request: messages delivered, `step_start`, compaction if due, the `model_request` gate. */
async function* beforeRequest(
  session: SessionContext,
  state: TurnState,
  step: number,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, GateResult, Verdict | undefined> {
  const delivered = yield* deliverInbox(session, state.turn, signal);
  if (signal.aborted) return { kind: "end", outcome: { stopReason: "aborted" } };
  if (delivered) return { kind: "end", outcome: delivered };
  yield* session.emit({ type: "step_start", turn: state.turn, step });
  if (nearContextWindow(session)) yield* compactSession(session, "auto", "", signal);
  if (signal.aborted) return { kind: "end", outcome: { stopReason: "aborted" } };
  return yield* requestGate(session, state, step, signal);
}

/** A provider error ends the turn, unless the conversation was too long and a compaction helps. */
async function* requestFailed(
  session: SessionContext,
  { state, signal, mayCompact }: StepInput,
  error: unknown,
): AsyncGenerator<AgentEvent, StepResult, Verdict | undefined> {
  // The server says the conversation is too long: one compaction, one retry.
  if (mayCompact && isContextLengthError(error)) {
    if (yield* compactSession(session, "auto", "", signal)) return { kind: "compacted" };
  }
  const message = describeProviderError(error, session.options.model);
  yield* session.emit({ type: "error", message, turn: state.turn });
  yield* session.emit({
    type: RAISES.stop_failure,
    turn: state.turn,
    promptId: state.promptId,
    error: providerErrorKind(error),
    message,
    lastAssistantMessage: state.text,
  });
  return ended({ stopReason: "error", message });
}

/** The answer joins the conversation and the turn's totals. */
function recordAnswer(session: SessionContext, state: TurnState, outcome: Answer): void {
  state.usage = addUsage(state.usage, outcome.usage);
  session.measuredTokens = outcome.usage.inputTokens + outcome.usage.outputTokens || undefined;
  state.text = outcome.text;
  session.history.addAssistant(outcome.responseMessages);
}

/** What the `model_response` gate decided: the turn ends (`end`), and what hooks changed. */
interface Responded {
  end?: TurnOutcome;
  changes: { text?: string; dropToolCalls?: string[] };
}

/** The `model_response` gate: an end, or the response's text replaced and calls dropped. */
async function* responseGate(
  session: SessionContext,
  { state, step, signal }: StepInput,
  outcome: Answer,
  started: number,
): AsyncGenerator<AgentEvent, Responded, Verdict | undefined> {
  const verdict = yield* session.emit({
    type: RAISES.after_model,
    turn: state.turn,
    promptId: state.promptId,
    step,
    model: session.options.modelId,
    prompt: state.prompt,
    text: outcome.text,
    toolCalls: outcome.toolCalls.map(({ toolCallId, toolName, input }) => ({
      toolCallId,
      toolName,
      input,
    })),
    usage: outcome.usage,
    finishReason: outcome.finishReason,
    durationMs: Math.max(0, session.now() - started),
  });
  const flow = gateFlow(verdict, signal);
  if (flow.kind !== "go_on") return { end: flow.end, changes: {} };
  switch (flow.verdict?.action) {
    case "block": {
      const message = `A hook ended the turn after the model's response: ${flow.verdict.reason}`;
      return { end: { stopReason: "blocked", message }, changes: {} };
    }
    case "continue": {
      const { text, dropToolCalls } = flow.verdict;
      return {
        changes: {
          ...(text === undefined ? {} : { text }),
          ...(dropToolCalls === undefined ? {} : { dropToolCalls }),
        },
      };
    }
    default:
      return { changes: {} };
  }
}

/** The step's tool calls (tool-calls.ts); their results join the conversation. */
export async function* runTools(
  session: SessionContext,
  { state, step, signal }: StepInput,
  calls: readonly StepToolCall[],
): AsyncGenerator<AgentEvent, TurnOutcome | undefined, Verdict | undefined> {
  const { options } = session;
  const tools = yield* runToolCalls(
    {
      emit: (event) => session.emit(event),
      tools: session.tools,
      cwd: options.cwd,
      env: options.env,
      ...(options.shellEnv ? { shellEnv: options.shellEnv } : {}),
      runner: options.runner,
      permissions: options.permissions,
      signal,
      now: session.now,
      recentTools: () => session.counter.recentTools(),
      turn: state.turn,
      promptId: state.promptId,
      step,
    },
    calls,
  );
  session.history.addToolResults(tools.results);
  if (tools.end) return tools.end;
  return yield* batchGate(session, { state, step, signal }, calls, tools.results);
}

/** The turn ends before the tool calls ran: each still gets its answer, as the model needs one per call. */
function endUnanswered(
  session: SessionContext,
  calls: readonly StepToolCall[],
  outcome: TurnOutcome,
): StepResult {
  const why =
    outcome.stopReason === "aborted" ? "the user interrupted the turn" : "a hook ended the turn";
  session.history.addToolResults(
    calls.map((c) => errorResult(c.toolCallId, c.toolName, `Not run: ${why}.`)),
  );
  return ended(outcome);
}

function ended(outcome: TurnOutcome): StepResult {
  return { kind: "ended", outcome };
}
