/**
 * One model request as the session sees it: the `model_request` gate (with
 * the hooks' retries, their changes to this request, or their answer in place
 * of the model), then the response streamed as `text_delta` events.
 */
import { sleep } from "./abort.js";
import type { RequestChanges } from "./event-data.js";
import type { AgentEvent } from "./events.js";
import { gateFlow } from "./gate-flow.js";
import { type StepOutcome, streamModelStep } from "./model-step.js";
import { RAISES } from "./raises.js";
import { requestOf, syntheticAnswer } from "./request-changes.js";
import type { SessionContext } from "./session-context.js";
import { providerOf } from "./session-totals.js";
import type { TurnOutcome, TurnState } from "./turn-state.js";
import type { SyntheticResponse, Verdict } from "./verdicts.js";

/** What the gate lets through: this request's changes, or an answer given in place of the model. */
export interface RequestPlan {
  changes?: RequestChanges;
  response?: SyntheticResponse;
}

/** The gate's end: the turn ends (`outcome`), or the request goes ahead as planned. */
export type GateResult = { kind: "end"; outcome: TurnOutcome } | { kind: "go"; plan: RequestPlan };

/** The `model_request` gate, with hook retries. */
export async function* requestGate(
  session: SessionContext,
  state: TurnState,
  step: number,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, GateResult, Verdict | undefined> {
  const { history, limits } = session;
  for (let retries = 0; ; retries++) {
    const verdict = yield* session.emit({
      type: RAISES.before_model,
      turn: state.turn,
      promptId: state.promptId,
      step,
      model: session.options.modelId,
      modelProvider: providerOf(session.options.model),
      prompt: state.prompt,
      systemPrompt: session.system,
      availableTools: [...session.tools.keys()],
      messageCount: history.messages.length + (history.pendingContext.length ? 1 : 0),
      messages: () => history.messages,
    });
    const flow = gateFlow(verdict, signal);
    if (flow.kind !== "go_on") return { kind: "end", outcome: flow.end };
    switch (flow.verdict?.action) {
      case "block":
        return end({
          stopReason: "blocked",
          message: `A hook blocked the model request: ${flow.verdict.reason}`,
        });
      case "retry":
        if (retries >= limits.maxHookRetries) {
          yield* session.emit({
            type: "warning",
            message: `A hook asked to retry the model request more than ${limits.maxHookRetries} times; sending it now.`,
            source: "model_request",
          });
          return { kind: "go", plan: {} };
        }
        await sleep(flow.verdict.afterMs, signal);
        if (signal.aborted) return end({ stopReason: "aborted" });
        break;
      case "continue": {
        replacePrompt(session, state, flow.verdict.prompt);
        const { request, response } = flow.verdict;
        return {
          kind: "go",
          plan: {
            ...(request === undefined ? {} : { changes: request }),
            ...(response === undefined ? {} : { response }),
          },
        };
      }
      default:
        return { kind: "go", plan: {} };
    }
  }
}

function end(outcome: TurnOutcome): GateResult {
  return { kind: "end", outcome };
}

/** A before_model hook's new prompt replaces the turn's prompt in the conversation, for this request on. */
function replacePrompt(
  session: SessionContext,
  state: TurnState,
  prompt: string | undefined,
): void {
  if (prompt === undefined || state.promptAt === undefined) return;
  if (session.history.rewriteUser(state.promptAt, prompt)) state.prompt = prompt;
}

/**
 * Streams the request (model-step.ts) as the plan changed it: text as
 * `text_delta` events, each provider warning once. A hook's answer in place
 * of the model is streamed the same way, and no request is sent.
 */
export async function* streamModel(
  session: SessionContext,
  at: { turn: number; step: number; plan: RequestPlan },
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, StepOutcome, Verdict | undefined> {
  const { turn, step, plan } = at;
  if (plan.response !== undefined) {
    if (plan.response.text)
      yield* session.emit({ type: "text_delta", turn, step, text: plan.response.text });
    return syntheticAnswer(plan.response.text);
  }
  const stream = streamModelStep({
    model: session.options.model,
    ...requestOf(session, plan.changes),
    maxRetries: session.limits.maxModelRetries,
    signal,
  });
  while (true) {
    const next = await stream.next();
    if (next.done) return next.value;
    const chunk = next.value;
    if (chunk.kind === "warning") {
      // Once per session: providers repeat the same warning on every request.
      if (!session.modelWarnings.has(chunk.message)) {
        session.modelWarnings.add(chunk.message);
        yield* session.emit({ type: "warning", message: chunk.message, source: "model" });
      }
      continue;
    }
    yield* session.emit({ type: "text_delta", turn, step, text: chunk.text });
    if (signal.aborted) {
      await stream.return({ kind: "aborted" });
      return { kind: "aborted" };
    }
  }
}
