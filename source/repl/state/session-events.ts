/** The session's own start and end: the model and id it runs with, and what is left when it ends. */
import { flushAnswers, flushStream, push } from "./items.js";
import type { EventOf, ViewState } from "./view.js";

export function reduceSessionStart(state: ViewState, event: EventOf<"session_start">): ViewState {
  return { ...state, model: event.model, sessionId: event.sessionId };
}

/** Nothing runs any more; an end the user did not ask for gets a banner. */
export function reduceSessionEnd(state: ViewState, event: EventOf<"session_end">): ViewState {
  const next = {
    ...flushAnswers(flushStream(state)),
    hooks: [],
    tools: [],
    subagents: [],
    turn: null,
  };
  if (event.reason === "user_exit" || event.reason === "completed" || event.reason === "clear")
    return next;
  return push(next, {
    kind: "banner",
    text: `session ended: ${event.reason.replace("_", " ")}`,
    tone: event.reason === "aborted" ? "warn" : "error",
  });
}
