/**
 * Messages from other agents (docs/messaging.md) as the loop takes them: the
 * `message_received` gate for each, then the message is settled with the
 * inbox (delivered or suppressed, it will not come again).
 */
import type { AgentEvent, IncomingMessage, Verdict, VerdictFor } from "./events.js";
import { isBareContinue, type SessionContext } from "./session-context.js";
import type { TurnOutcome } from "./turn-state.js";

/** What became of a message: its text for the model, suppressed, or a hook stopped the session. */
export type Received =
  | { kind: "text"; text: string }
  | { kind: "suppressed" }
  | { kind: "stop"; reason: string };

/**
 * The message_received gate for one message. Its verdict's context replaces
 * the text rather than going to the model beside it (agent-relay's `inject`),
 * so the verdict is recorded here, not through `emit`.
 */
export async function* receiveMessage(
  session: SessionContext,
  message: IncomingMessage,
  turn: number,
): AsyncGenerator<AgentEvent, Received, Verdict | undefined> {
  const event: AgentEvent = { type: "message_received", turn, message };
  session.transcript.event(event);
  const verdict = (yield event) as VerdictFor<"message_received"> | undefined;
  if (verdict !== undefined && !isBareContinue(verdict))
    session.transcript.verdict(verdict, event.type);
  session.inbox?.settle(message.id);
  switch (verdict?.action) {
    case undefined:
      return { kind: "text", text: message.text };
    case "block":
      return { kind: "suppressed" };
    case "stop":
      return { kind: "stop", reason: verdict.reason };
    case "continue": {
      if (verdict.suppress === true) return { kind: "suppressed" };
      const replaced = verdict.prompt ?? verdict.context?.join("\n\n");
      return { kind: "text", text: replaced?.trim() ? replaced : message.text };
    }
    default:
      return verdict satisfies never;
  }
}

/**
 * Messages that arrived during the turn (`acai -p`) reach the model with its
 * next request. Returns an outcome when a hook stopped the session.
 */
export async function* deliverInbox(
  session: SessionContext,
  turn: number,
): AsyncGenerator<AgentEvent, TurnOutcome | undefined, Verdict | undefined> {
  for (const message of session.inbox?.take() ?? []) {
    const received = yield* receiveMessage(session, message, turn);
    if (received.kind === "stop") return { stopReason: "hook_stop", message: received.reason };
    if (received.kind === "text") session.history.addUser(received.text);
  }
  return undefined;
}
