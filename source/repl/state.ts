import { ZERO_USAGE } from "../agent/usage.js";
import type { InterceptedEvent } from "../hooks/run/activity.js";
import type { ModelPrice } from "../models/pricing.js";
import { reduceEvent } from "./state/events.js";
import { flushStream, push } from "./state/items.js";
import { type AnsweredAsk, initialViewState, type NewItem, type ViewState } from "./state/view.js";

/**
 * The REPL's view state and the pure reducer that folds actions into it:
 * intercepted events (`state/events.ts`, one module per event family under
 * `state/`), and what the controller itself adds (items, answers, a new
 * session, an abort, /clear). The state's shape is `state/view.ts`.
 */

export { toolGate } from "./state/tool-gate.js";
export {
  type Item,
  initialViewState,
  type NewItem,
  type Tone,
  type ToolStatus,
  type ToolView,
  type ViewState,
} from "./state/view.js";

export type Action =
  | { type: "event"; event: InterceptedEvent; at: number }
  | { type: "answered"; answer: AnsweredAsk }
  | { type: "item"; item: NewItem }
  | { type: "session"; model: string; sessionId?: string; price?: ModelPrice }
  | { type: "aborting" }
  | { type: "clear" };

export function reduce(state: ViewState, action: Action): ViewState {
  switch (action.type) {
    case "event":
      return reduceEvent(state, action.event, action.at);
    case "item":
      return push(flushStream(state), action.item);
    case "answered":
      return { ...state, answers: [...state.answers, action.answer] };
    case "session":
      return newSession(state, action);
    case "aborting":
      return state.turn ? { ...state, turn: { ...state.turn, aborting: true } } : state;
    case "clear":
      return {
        ...initialViewState(state.model),
        epoch: state.epoch + 1,
        nextId: state.nextId,
        toolSeq: state.toolSeq,
        hookLast: state.hookLast,
        ...(state.sessionId ? { sessionId: state.sessionId } : {}),
        ...(state.price ? { price: state.price } : {}),
      };
    default:
      return action satisfies never;
  }
}

/** A new session (the first, or after /model): its counters start at 0, as cost is per model. */
function newSession(state: ViewState, action: Extract<Action, { type: "session" }>): ViewState {
  const { price: _previous, lastTurn: _last, ...rest } = state;
  return {
    ...rest,
    totals: ZERO_USAGE,
    sessionCostUsd: 0,
    ...(action.price ? { price: action.price } : {}),
    model: action.model,
    ...(action.sessionId ? { sessionId: action.sessionId } : {}),
    hooks: [],
    tools: [],
    subagents: [],
    turn: null,
    stream: null,
  };
}
