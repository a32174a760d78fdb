/**
 * `acai -p --listen`: the turns of a headless agent that keeps running — the
 * prompt, if one was given, then one turn per message from another agent, in
 * the order they arrive (queued while a turn runs). It ends only when the run
 * is aborted (SIGINT/SIGTERM) or a hook stops the session.
 */
import type { IncomingMessage } from "../agent/event-data.js";
import type { TurnInput } from "../agent/types.js";
import type { SessionRelay } from "../relay/session-relay.js";

export interface ListenTurns extends AsyncIterable<TurnInput> {
  /** Lets the process exit again (the listener held it open). */
  close(): void;
}

export function listenTurns(prompt: string | undefined, relay: SessionRelay): ListenTurns {
  const queue: TurnInput[] = prompt === undefined ? [] : [{ prompt }];
  let wake: (() => void) | undefined;
  // Receiving holds no handle of its own (relay/wake.ts): a listener keeps the process alive.
  const alive = setInterval(() => {}, 1 << 30);
  relay.deliverAsTurns((message: IncomingMessage) => {
    queue.push({ prompt: message.text, message });
    wake?.();
  });
  return {
    close: () => clearInterval(alive),
    async *[Symbol.asyncIterator]() {
      try {
        for (;;) {
          const next = queue.shift();
          if (next) {
            yield next;
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
