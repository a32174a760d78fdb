/**
 * Turns: the prompt shown as the user's line, the turn's clock and usage, and
 * at its end the totals and cost, with a line saying why it ended when that
 * was not the model finishing.
 */

import { addUsage, ZERO_USAGE } from "../../agent/usage.js";
import { costUsd } from "../../models/pricing.js";
import { finishTool, flushAnswers, flushStream, push } from "./items.js";
import type { EventOf, Item, ViewState } from "./view.js";

export function reduceUserPrompt(
  state: ViewState,
  event: EventOf<"user_prompt">,
  at: number,
): ViewState {
  return push(flushStream(ensureTurn(state, event.turn, at)), {
    kind: "user",
    text: event.prompt,
  });
}

export function ensureTurn(state: ViewState, turn: number, at: number): ViewState {
  if (state.turn && state.turn.number === turn) return state;
  return { ...state, turn: { number: turn, startedAt: at, aborting: false, usage: ZERO_USAGE } };
}

export function reduceTurnEnd(state: ViewState, event: EventOf<"turn_end">, at: number): ViewState {
  let next = flushAnswers(flushStream(state));
  // Tools the agent never closed (it should have): keep them, marked interrupted.
  for (const tool of next.tools) {
    next = finishTool(next, {
      ...tool,
      status: "interrupted",
      durationMs: at - tool.startedAt,
    });
  }
  const elapsedMs = next.turn ? at - next.turn.startedAt : 0;
  const usage = event.usage;
  const cost = next.price ? costUsd(usage, next.price) : undefined;
  next = {
    ...next,
    turn: null,
    totals: addUsage(next.totals, usage),
    sessionCostUsd:
      cost === undefined || next.sessionCostUsd === null ? null : next.sessionCostUsd + cost,
    lastTurn: {
      usage,
      elapsedMs,
      stopReason: event.stopReason,
      ...(cost !== undefined ? { costUsd: cost } : {}),
    },
  };
  if (event.stopReason === "end_turn") return next;
  const message = shownThisTurn(next.items, event.message) ? undefined : event.message;
  return push(next, {
    kind: "turn",
    stopReason: event.stopReason,
    usage,
    elapsedMs,
    ...(cost !== undefined ? { costUsd: cost } : {}),
    ...(message ? { message } : {}),
  });
}

/** Whether `message` is already on screen as an error of this turn (a provider error is both an `error` event and the turn's end). */
function shownThisTurn(items: readonly Item[], message: string | undefined): boolean {
  if (!message) return false;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (!item || item.kind === "user") return false;
    if (item.kind === "error" && item.text === message) return true;
  }
  return false;
}
