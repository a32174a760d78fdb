import { anySignal } from "./abort.js";
import { compactSession } from "./compaction/session-compaction.js";
import type { SessionEndReason } from "./event-data.js";
import type { AgentEvent } from "./events.js";
import { receiveMessage } from "./message-received.js";
import type { SessionContext } from "./session-context.js";
import type { TurnInput } from "./types.js";
import type { Verdict } from "./verdicts.js";

/** What a prompt from the queue becomes. */
export type TakenInput =
  /** A turn with this prompt. */
  | { kind: "turn"; prompt: string }
  /** No turn: a `/compact` done between turns, or a message a hook suppressed. */
  | { kind: "none" }
  /** The session ends. */
  | { kind: "end"; reason: SessionEndReason };

/**
 * Reads one `TurnInput` between turns: `/compact` compacts now; a message
 * from another agent goes through `message_received` first, which may
 * replace its text, suppress it or stop the session. `turn` is the number
 * the turn would get.
 */
export async function* takeTurnInput(
  session: SessionContext,
  input: TurnInput,
  turn: number,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, TakenInput, Verdict | undefined> {
  if (input.command === "compact") {
    // `/compact [instructions]`: between turns, not a turn of its own.
    yield* compactSession(session, "manual", input.prompt, anySignal([signal, input.signal]));
    return signal.aborted ? { kind: "end", reason: "aborted" } : { kind: "none" };
  }
  if (!input.message) return { kind: "turn", prompt: input.prompt };
  const received = yield* receiveMessage(session, input.message, turn, signal);
  switch (received.kind) {
    case "end":
      return { kind: "end", reason: received.end.stopReason };
    case "suppressed":
      return { kind: "none" };
    case "text":
      return { kind: "turn", prompt: received.text };
    default:
      return received satisfies never;
  }
}
