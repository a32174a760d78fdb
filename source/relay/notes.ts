/**
 * Lines for the user that the relay produces while a session runs (a message
 * dropped by acceptFrom, a malformed row moved aside): kept until the session's
 * output listens (up to a cap), then handed over as they come. They never
 * reach the model.
 */
import type { OnNote } from "./transport.js";

/** Notes kept for a listener that has not come yet; past it the oldest are dropped. */
const MAX_WAITING_NOTES = 50;
/** Different notes said in one session; past it one line says the rest are not shown. */
export const MAX_NOTES = 100;

export interface NoteBuffer {
  readonly note: OnNote;
  /** From now on every note goes to `listener` (the waiting ones at once). */
  listen(listener: OnNote): void;
}

/**
 * A note said before is not said again (a client that sends the same refused
 * message over and over does not flood the terminal), and at most MAX_NOTES are.
 */
export function noteBuffer(): NoteBuffer {
  const waiting: string[] = [];
  const said = new Set<string>();
  let listener: OnNote | undefined;
  return {
    note(text) {
      if (said.has(text) || said.size > MAX_NOTES) return;
      said.add(text);
      const line =
        said.size > MAX_NOTES
          ? `more than ${MAX_NOTES} relay notes in this session; the rest are not shown`
          : text;
      if (listener) return listener(line);
      waiting.push(line);
      if (waiting.length > MAX_WAITING_NOTES) waiting.shift();
    },
    listen(to) {
      listener = to;
      for (const line of waiting.splice(0)) to(line);
    },
  };
}
