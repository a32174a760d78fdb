/**
 * The model's text as the user sees it (printer, REPL, JSON `result`, ACP):
 * agent-relay's `\@namespace:` escape shown without its backslash
 * (patterns/escape.ts). Runs after the `@relay:` lines were sent, so an
 * escaped line is never routed; the history, the transcript and the hooks
 * keep what the model wrote.
 */
import type { AgentEvent } from "../agent/events.js";
import type { InterceptedEvent } from "../hooks/run/activity.js";
import { createUnescaper, type Unescaper, unescapePatterns } from "../patterns/escape.js";

type TextDelta = Extract<AgentEvent, { type: "text_delta" }>;

interface Stream {
  unescaper: Unescaper;
  /** The stream's last delta: what a flushed remainder is sent as. */
  last: TextDelta;
}

function keyOf(event: TextDelta): string {
  const agent = (event as { agentId?: unknown }).agentId;
  return `${typeof agent === "string" ? agent : ""}:${event.turn}:${event.step}`;
}

/** Held-back text of the streams other than `keep`, as deltas (their streams ended). */
function* flushed(streams: Map<string, Stream>, keep?: string): Generator<TextDelta> {
  for (const [key, stream] of streams) {
    if (key === keep) continue;
    streams.delete(key);
    const rest = stream.unescaper.flush();
    if (rest !== "") yield { ...stream.last, text: rest };
  }
}

export async function* unescapingPatterns(
  events: AsyncGenerator<InterceptedEvent, void, undefined>,
): AsyncGenerator<InterceptedEvent, void, undefined> {
  const streams = new Map<string, Stream>();
  for await (const event of events) {
    if (event.type === "text_delta") {
      const key = keyOf(event);
      yield* flushed(streams, key);
      const stream = streams.get(key) ?? { unescaper: createUnescaper(), last: event };
      stream.last = event;
      streams.set(key, stream);
      const text = stream.unescaper.push(event.text);
      if (text !== "") yield text === event.text ? event : { ...event, text };
      continue;
    }
    yield* flushed(streams);
    // A step's whole text (the REPL shows it when nothing streamed) and the turn's (the JSON `result`).
    if (
      (event.type === "model_response" || event.type === "turn_end") &&
      event.text.includes("\\")
    ) {
      yield { ...event, text: unescapePatterns(event.text) };
      continue;
    }
    yield event;
  }
  // The run ended in the middle of a line: nothing held back is lost.
  yield* flushed(streams);
}
