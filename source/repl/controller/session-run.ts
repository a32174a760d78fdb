import type { SessionEndReason } from "../../agent/event-data.js";
import type { InterceptedEvent } from "../../hooks/run/activity.js";
import type { PreparedSession } from "../../session/types.js";
import type { PromptQueue } from "../prompt-queue.js";
import type { TurnInput } from "../types.js";
import { errorText, type UiStore } from "./store.js";

export interface StreamSessionOptions {
  queue: PromptQueue<TurnInput>;
  /** Queues an async hook's wake-up turn like a prompt (Turns.wake). */
  wake: (prompt: string) => TurnInput | undefined;
  /** Aborting it ends the session without waiting for session_end hooks. */
  signal: AbortSignal;
  /** Asked when the prompts run out: why the session ends. */
  endReason: () => SessionEndReason;
  /** `clear`: this session follows a /clear (session_start's source). */
  source?: "clear";
  store: UiStore;
  now: () => number;
  /** What idle hooks injected: true when a turn was started with it (see `Turns.idle`). */
  onIdle?: (text: string) => boolean;
  /** Sees each event after the view took it. */
  onEvent?: (event: InterceptedEvent) => void;
}

/**
 * Runs one session to its end, every event into the view. Resolves why it
 * ended: the `session_end` reason, "error" when the loop failed, or nothing.
 */
export async function streamSession(
  session: PreparedSession,
  options: StreamSessionOptions,
): Promise<SessionEndReason | undefined> {
  const { store, now } = options;
  let reason: SessionEndReason | undefined;
  try {
    const events = session.run({
      prompts: options.queue,
      wake: options.wake,
      signal: options.signal,
      endReason: options.endReason,
      ...(options.onIdle === undefined
        ? {}
        : { onIdle: (idle) => options.onIdle?.(idle.context.join("\n\n")) === true }),
      ...(options.source === undefined ? {} : { source: options.source }),
    });
    for await (const event of events) {
      store.dispatch({ type: "event", event, at: now() });
      options.onEvent?.(event);
      if (event.type === "session_end") reason = event.reason;
    }
  } catch (error) {
    reason = "error";
    store.item({ kind: "error", text: `The agent loop stopped: ${errorText(error)}` });
  }
  return reason;
}

/** The REPL's exit code once a session ended and no other one follows. */
export function exitCodeAfter(
  reason: SessionEndReason | undefined,
  exitRequested: boolean,
): number {
  if (exitRequested) return reason === "error" ? 1 : 0;
  // The session ended by itself: a hook stopped it or the loop failed.
  return reason === "completed" || reason === "user_exit" || reason === "clear" ? 0 : 1;
}
