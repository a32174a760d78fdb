/**
 * The model's text: streamed deltas, whose finished Markdown lines go to
 * `items` as they come (format.ts), and the step's response, shown whole
 * when nothing of it streamed.
 */

import { addUsage } from "../../agent/usage.js";
import { splitFinishedMarkdown } from "../format.js";
import { assistantItem, flushStream, push } from "./items.js";
import type { EventOf, StreamView, ViewState } from "./view.js";

export function reduceTextDelta(state: ViewState, event: EventOf<"text_delta">): ViewState {
  let next = state;
  const s = next.stream;
  if (s && (s.turn !== event.turn || s.step !== event.step)) next = flushStream(next);
  const stream: StreamView = next.stream ?? {
    turn: event.turn,
    step: event.step,
    text: "",
    continued: false,
  };
  const { done, rest, restFence } = splitFinishedMarkdown(stream.text + event.text, stream.fence);
  const streamedStep = `${event.turn}:${event.step}`;
  const { fence: _open, ...open } = stream;
  const live: StreamView = { ...open, text: rest, ...(restFence ? { fence: restFence } : {}) };
  if (done === undefined) return { ...next, streamedStep, stream: live };
  return push(
    { ...next, streamedStep, stream: { ...live, continued: true } },
    assistantItem(done, stream.continued, stream.fence),
  );
}

export function reduceModelResponse(state: ViewState, event: EventOf<"model_response">): ViewState {
  const streamed = state.streamedStep === `${event.turn}:${event.step}`;
  let next = flushStream(state);
  if (!streamed && event.text.trim()) {
    next = push(next, { kind: "assistant", text: event.text.trimEnd(), continued: false });
  }
  if (next.turn) {
    next = { ...next, turn: { ...next.turn, usage: addUsage(next.turn.usage, event.usage) } };
  }
  return { ...next, model: event.model || next.model };
}
