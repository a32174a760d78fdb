/**
 * Sends what the model addresses to other agents: a session's events pass
 * through, and the `@relay:` lines of each model response are sent as that
 * response is seen. Each sent message is raised as `message_sent` (its hooks
 * run beside the loop); a message that cannot be sent is a `warning` for the
 * user and a note for the model with its next request (`tell`): it wrote the
 * line, it should not believe the message went.
 */
import type { SentMessage } from "../agent/event-data.js";
import type { InterceptedEvent } from "../hooks/run/activity.js";
import { relayLines } from "./outgoing.js";
import type { SessionRelay } from "./session-relay.js";

export interface RelayOutputOptions {
  relay: SessionRelay;
  /** Raises `message_sent` beside the loop (the interceptor's side channel). */
  sent: (message: SentMessage) => void;
  /** A note for the model, delivered with its next request (a system reminder). */
  tell?: (note: string) => void;
}

export async function* sendingRelayLines(
  events: AsyncGenerator<InterceptedEvent, void, undefined>,
  options: RelayOutputOptions,
): AsyncGenerator<InterceptedEvent, void, undefined> {
  for await (const event of events) {
    yield event;
    if (event.type !== "model_response" || !mentionsRelay(event.text)) continue;
    const { lines, dropped } = relayLines(event.text);
    for (const line of lines) {
      try {
        options.sent(await options.relay.send(line.to, line.content));
      } catch (error) {
        const why = (error as Error).message;
        options.tell?.(notSentNote(line.to, why));
        yield {
          type: "warning",
          source: "relay",
          message: `message to ${line.to} not sent: ${why}`,
        };
      }
    }
    if (dropped > 0) {
      yield {
        type: "warning",
        source: "relay",
        message: `${dropped} more @relay: lines in one response were not sent (at most ${lines.length} per response)`,
      };
    }
  }
}

/** What the model is told of its own `@relay:` line that did not go out. */
function notSentNote(to: string, why: string): string {
  const line = to === "*" ? "@broadcast:" : `@relay:${to}`;
  return `Your message to ${to === "*" ? "every agent" : to} (the ${line} line of your last reply) was NOT sent: ${why}. The recipient did not receive it.`;
}

function mentionsRelay(text: string): boolean {
  return text.includes("@relay:") || text.includes("@broadcast:");
}
