/**
 * One turn: the `user_prompt` gate, `turn_start`, steps until the model is
 * done and `before_stop` lets the turn end (or a limit, a hook, an error or
 * the user ends it), then `turn_end`.
 */
import { randomUUID } from "node:crypto";
import type { AgentEvent } from "./events.js";
import { gateFlow } from "./gate-flow.js";
import { RAISES } from "./raises.js";
import type { SessionContext } from "./session-context.js";
import { runStep, runTools } from "./step.js";
import { askToStop, maxStepsReached } from "./stop-gate.js";
import type { TurnOutcome, TurnState } from "./turn-state.js";
import { ZERO_USAGE } from "./usage.js";
import type { Verdict } from "./verdicts.js";

export interface TurnStart {
  /** The turn's number in the session, from 1. */
  turn: number;
  prompt: string;
  /** Aborts this turn (the session's signal, and the prompt's own). */
  signal: AbortSignal;
}

/** How a turn ends the session: a hook's stop, or a deferred tool call; none: it goes on. */
export type SessionStop = "hook_stop" | "deferred" | undefined;

/** Runs a turn through `turn_end`; says when it ends the session. */
export async function* runTurn(
  session: SessionContext,
  { turn, prompt, signal }: TurnStart,
): AsyncGenerator<AgentEvent, SessionStop, Verdict | undefined> {
  const state: TurnState = {
    turn,
    promptId: randomUUID(),
    prompt,
    text: "",
    usage: ZERO_USAGE,
    steps: 0,
    stopBlocks: 0,
  };
  const outcome = yield* playTurn(session, state, prompt, signal);
  const endVerdict = yield* session.emit({
    type: RAISES.after_agent,
    turn,
    promptId: state.promptId,
    stopReason: outcome.stopReason,
    text: state.text,
    usage: state.usage,
    ...(outcome.message !== undefined ? { message: outcome.message } : {}),
    steps: state.steps,
  });
  // The turn is over: only a stop counts here, and it ends the session.
  if (outcome.stopReason === "deferred") return "deferred";
  const stopped =
    outcome.stopReason === "hook_stop" || gateFlow(endVerdict, undefined).kind === "end_session";
  return stopped ? "hook_stop" : undefined;
}

async function* playTurn(
  session: SessionContext,
  state: TurnState,
  prompt: string,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, TurnOutcome, Verdict | undefined> {
  const refused = yield* submitPrompt(session, state, prompt, signal);
  if (refused) return refused;
  const pending = yield* runPending(session, state, signal);
  if (pending) return pending;
  return yield* runSteps(session, state, signal);
}

/**
 * Calls a before_tool hook deferred in the run this one resumes: they run
 * first (their results must follow the message that asked for them), through
 * every gate again — the hooks are asked anew — as step 0 of the turn, then
 * the prompt, if any, joins the conversation.
 */
async function* runPending(
  session: SessionContext,
  state: TurnState,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, TurnOutcome | undefined, Verdict | undefined> {
  const calls = session.takePending();
  if (calls.length === 0) return undefined;
  const end = yield* runTools(session, { state, step: 0, signal, mayCompact: false }, calls);
  if (end) return end;
  // `acai -p --resume ID` without a prompt: the model hears the results alone.
  if (state.prompt !== "") {
    state.promptAt = session.history.messages.length;
    session.history.addUser(state.prompt);
  }
  return undefined;
}

/** The `user_prompt` gate, then the prompt joins the conversation and `turn_start`. */
async function* submitPrompt(
  session: SessionContext,
  state: TurnState,
  submitted: string,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, TurnOutcome | undefined, Verdict | undefined> {
  let prompt = submitted;
  const verdict = yield* session.emit({
    type: RAISES.user_prompt,
    turn: state.turn,
    promptId: state.promptId,
    prompt,
  });
  const flow = gateFlow(verdict, signal);
  if (flow.kind !== "go_on") return flow.end;
  switch (flow.verdict?.action) {
    case "block":
      return {
        stopReason: "blocked",
        message: `A hook blocked the prompt: ${flow.verdict.reason}`,
      };
    case "continue":
      if (flow.verdict.prompt !== undefined) prompt = flow.verdict.prompt;
      break;
    case undefined:
      break;
    default:
      return flow.verdict satisfies never;
  }
  state.prompt = prompt;
  // Deferred calls first: their results must follow the message that asked for them.
  if (!session.hasPending()) {
    state.promptAt = session.history.messages.length;
    session.history.addUser(prompt);
  }
  yield* session.emit({ type: "turn_start", turn: state.turn, prompt });
  if (signal.aborted) return { stopReason: "aborted" };
  return undefined;
}

/** Steps until the turn ends: at most `maxSteps` model requests. */
async function* runSteps(
  session: SessionContext,
  state: TurnState,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, TurnOutcome, Verdict | undefined> {
  const { maxSteps, maxPatternFollowUps } = session.limits;
  let followUps = 0;
  let compactedForError = false;
  for (let step = 1; ; step++) {
    if (step > maxSteps) return yield* maxStepsReached(session, state, step - 1, signal);
    state.steps = step;
    const result = yield* runStep(session, { state, step, signal, mayCompact: !compactedForError });
    switch (result.kind) {
      case "ended":
        return result.outcome;
      case "compacted":
        compactedForError = true;
        step--;
        break;
      case "tools_ran":
        break;
      case "finished": {
        // A pattern answered after the model finished: one more step, so the answer is not lost.
        if (result.answered && followUps < maxPatternFollowUps) {
          followUps++;
          break;
        }
        const stopped = yield* askToStop(session, state, step, signal);
        if (stopped) return stopped;
        break;
      }
      default:
        return result satisfies never;
    }
  }
}
