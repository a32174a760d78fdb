/**
 * The `stop_request` gate (before_stop hooks): when the model is done, and
 * when the turn reached `--max-steps`. A block makes the model go on with the
 * reason as feedback, at most `maxStopBlocks` times in a turn.
 */
import type { AgentEvent } from "./events.js";
import { gateFlow } from "./gate-flow.js";
import { RAISES } from "./raises.js";
import type { SessionContext } from "./session-context.js";
import type { TurnOutcome, TurnState } from "./turn-state.js";
import type { Verdict } from "./verdicts.js";

type StopRequest = Extract<AgentEvent, { type: "stop_request" }>;

/** The event asking whether the turn may end, as the turn stands. */
function stopRequest(
  state: TurnState,
  step: number,
  stopReason: StopRequest["stopReason"],
): StopRequest {
  return {
    type: RAISES.before_stop,
    turn: state.turn,
    promptId: state.promptId,
    step,
    prompt: state.prompt,
    lastAssistantMessage: state.text,
    stopHookActive: state.stopBlocks > 0,
    consecutiveBlocks: state.stopBlocks,
    stopReason,
  };
}

/**
 * The model finished its answer: may the turn end? Returns the outcome when
 * it does; none when a hook blocked, and its reason is the model's next user message.
 */
export async function* askToStop(
  session: SessionContext,
  state: TurnState,
  step: number,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, TurnOutcome | undefined, Verdict | undefined> {
  const { maxStopBlocks } = session.limits;
  const stopReason = session.counter.afterRefusedTools ? "tool_rejected" : "end_turn";
  const verdict = yield* session.emit(stopRequest(state, step, stopReason));
  const flow = gateFlow(verdict, signal);
  if (flow.kind !== "go_on") return flow.end;
  if (verdict?.action !== "block") return { stopReason: "end_turn" };
  state.stopBlocks++;
  if (state.stopBlocks >= maxStopBlocks) {
    return {
      stopReason: "stop_hook_limit",
      message: `A stop hook blocked the end of the turn ${state.stopBlocks} times in a row; acai stopped anyway (limit ${maxStopBlocks}). Last reason: ${verdict.reason}`,
    };
  }
  if (verdict.clearContext === true) clearConversation(session, state, verdict.reason);
  else session.history.addUser(`Stop hook feedback:\n${verdict.reason}`);
  return undefined;
}

/**
 * Gemini CLI's AfterAgent `clearContext`: the model's memory of the session
 * goes (the transcript marks where, so `--resume` reloads only what follows);
 * the system prompt stays and the block's reason is the turn's prompt now.
 */
function clearConversation(session: SessionContext, state: TurnState, reason: string): void {
  session.transcript.compactBoundary("clear_context", session.measuredTokens ?? 0);
  session.history.replace([]);
  session.measuredTokens = undefined;
  state.prompt = reason;
  state.promptAt = 0;
  session.history.addUser(reason);
}

/**
 * `--max-steps` reached: `before_stop` hooks hear it (`stop_reason: max_steps`);
 * a block cannot extend the turn past the limit; a stop ends the session,
 * the user's interrupt the turn (gate-flow.ts).
 */
export async function* maxStepsReached(
  session: SessionContext,
  state: TurnState,
  step: number,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, TurnOutcome, Verdict | undefined> {
  const { maxSteps } = session.limits;
  const message = `Stopped after ${maxSteps} model requests (--max-steps).`;
  const flow = gateFlow(yield* session.emit(stopRequest(state, step, "max_steps")), signal);
  if (flow.kind !== "go_on") return flow.end;
  if (flow.verdict?.action === "block") {
    yield* session.emit({
      type: "warning",
      message: `A before_stop hook blocked at the step limit; acai stops anyway (--max-steps ${maxSteps}). Reason: ${flow.verdict.reason}`,
      source: "stop_request",
    });
  }
  return { stopReason: "max_steps", message };
}
