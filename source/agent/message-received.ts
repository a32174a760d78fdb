/**
 * Messages from other agents (docs/messaging.md) as the loop takes them: the
 * `message_received` gate for each, then the message is settled with the
 * inbox (delivered or suppressed, it will not come again).
 */

import type { IncomingMessage } from "./event-data.js";
import type { AgentEvent } from "./events.js";
import { type GateEnd, gateFlow } from "./gate-flow.js";
import { RAISES } from "./raises.js";
import { isBareContinue, type SessionContext } from "./session-context.js";
import type { TurnOutcome } from "./turn-state.js";
import type { Verdict, VerdictFor } from "./verdicts.js";

/** What became of a message: its text for the model, suppressed, or the turn ends (gate-flow.ts). */
export type Received =
  | { kind: "text"; text: string }
  | { kind: "suppressed" }
  | { kind: "end"; end: GateEnd };

/**
 * The message_received gate for one message. Its verdict's context replaces
 * the text rather than going to the model beside it (agent-relay's `inject`),
 * so the verdict is recorded here, not through `emit`.
 */
export async function* receiveMessage(
  session: SessionContext,
  message: IncomingMessage,
  turn: number,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, Received, Verdict | undefined> {
  const event: AgentEvent = { type: RAISES.message_received, turn, message };
  session.transcript.event(event);
  const verdict = (yield event) as VerdictFor<"message_received"> | undefined;
  if (verdict !== undefined && !isBareContinue(verdict))
    session.transcript.verdict(verdict, event.type);
  session.inbox?.settle(message.id);
  const flow = gateFlow(verdict, signal);
  if (flow.kind !== "go_on") return { kind: "end", end: flow.end };
  switch (flow.verdict?.action) {
    case undefined:
      return { kind: "text", text: message.text };
    case "block":
      return { kind: "suppressed" };
    case "continue": {
      if (flow.verdict.suppress === true) return { kind: "suppressed" };
      const replaced = flow.verdict.prompt ?? flow.verdict.context?.join("\n\n");
      return { kind: "text", text: replaced?.trim() ? replaced : message.text };
    }
    default:
      return flow.verdict satisfies never;
  }
}

/**
 * Messages that arrived during the turn (`acai -p`) reach the model with its
 * next request. Returns how the turn ends when the user interrupted it or a
 * hook stopped the session; the messages after that one stay in the inbox.
 */
export async function* deliverInbox(
  session: SessionContext,
  turn: number,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, TurnOutcome | undefined, Verdict | undefined> {
  for (const message of session.inbox?.take() ?? []) {
    const received = yield* receiveMessage(session, message, turn, signal);
    if (received.kind === "end") return received.end;
    if (received.kind === "text") session.history.addUser(received.text);
  }
  return undefined;
}
