/**
 * `acai -p --listen`: the turns of a headless agent that keeps running — the
 * prompt, if one was given, then one turn per message from another agent, in
 * the order they arrive (queued while a turn runs). It ends only when the run
 * is aborted (SIGINT/SIGTERM) or a hook stops the session.
 */
import type { IncomingMessage } from "../agent/event-data.js";
import type { TurnInput } from "../agent/types.js";
import type { SessionRelay } from "../relay/session-relay.js";
import { IdleReminders } from "../session/idle-reminders.js";

export interface ListenTurns extends AsyncIterable<TurnInput> {
  /** Lets the process exit again (the listener held it open). */
  close(): void;
  /**
   * What idle hooks injected (agent-relay's onIdle) as a turn of its own.
   * The same text again while it is queued, or after it was the last idle
   * turn with no other turn since, is dropped: a reminder never stacks up or
   * loops. Always taken (true): nothing of it waits for a later request.
   */
  idle(text: string): boolean;
}

export function listenTurns(prompt: string | undefined, relay: SessionRelay): ListenTurns {
  const queue: TurnInput[] = prompt === undefined ? [] : [{ prompt }];
  let wake: (() => void) | undefined;
  const reminders = new IdleReminders<TurnInput>();
  // Receiving holds no handle of its own (relay/wake.ts): a listener keeps the process alive.
  const alive = setInterval(() => {}, 1 << 30);
  relay.deliverAsTurns((message: IncomingMessage) => {
    queue.push({ prompt: message.text, message });
    wake?.();
  });
  return {
    close: () => clearInterval(alive),
    idle(text) {
      const turn = reminders.turnFor(text, queue, (prompt) => ({ prompt }));
      if (turn === undefined) return true;
      queue.push(turn);
      wake?.();
      return true;
    },
    async *[Symbol.asyncIterator]() {
      try {
        for (;;) {
          const next = queue.shift();
          if (next) {
            reminders.taken(next);
            yield next;
            // Asked for the next turn: this one is over.
            reminders.settled();
            continue;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = undefined;
        }
      } finally {
        clearInterval(alive);
      }
    },
  };
}
