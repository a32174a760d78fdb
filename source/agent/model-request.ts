/**
 * One model request as the session sees it: the `model_request` gate (with
 * the hooks' retries), then the response streamed as `text_delta` events.
 */
import { sleep } from "./abort.js";
import type { AgentEvent } from "./events.js";
import { gateFlow } from "./gate-flow.js";
import { type StepOutcome, streamModelStep } from "./model-step.js";
import { RAISES } from "./raises.js";
import type { SessionContext } from "./session-context.js";
import { providerOf } from "./session-totals.js";
import type { TurnOutcome, TurnState } from "./turn-state.js";
import type { Verdict } from "./verdicts.js";

/** The `model_request` gate, with hook retries. Returns an outcome when the turn must end. */
export async function* requestGate(
  session: SessionContext,
  state: TurnState,
  step: number,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, TurnOutcome | undefined, Verdict | undefined> {
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
    });
    const flow = gateFlow(verdict, signal);
    if (flow.kind !== "go_on") return flow.end;
    switch (flow.verdict?.action) {
      case "block":
        return {
          stopReason: "blocked",
          message: `A hook blocked the model request: ${flow.verdict.reason}`,
        };
      case "retry":
        if (retries >= limits.maxHookRetries) {
          yield* session.emit({
            type: "warning",
            message: `A hook asked to retry the model request more than ${limits.maxHookRetries} times; sending it now.`,
            source: "model_request",
          });
          return undefined;
        }
        await sleep(flow.verdict.afterMs, signal);
        if (signal.aborted) return { stopReason: "aborted" };
        break;
      case "continue":
        replacePrompt(session, state, flow.verdict.prompt);
        return undefined;
      case undefined:
        return undefined;
      default:
        return flow.verdict satisfies never;
    }
  }
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

/** Streams the request (model-step.ts): text as `text_delta` events, each provider warning once. */
export async function* streamModel(
  session: SessionContext,
  turn: number,
  step: number,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, StepOutcome, Verdict | undefined> {
  const stream = streamModelStep({
    model: session.options.model,
    system: session.system,
    messages: [...session.history.messages],
    tools: session.modelTools,
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
