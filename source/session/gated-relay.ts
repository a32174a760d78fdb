/**
 * The session's relay with every outgoing message passing its
 * `before_message_send` gate first (OpenClaw's `message-sending`): the `@relay:`
 * lines of the model's replies and a hook's `sendMessage` alike. A cancelled
 * message is not sent; the sender's caller reports the error (a warning
 * naming the recipient, the hook that cancelled it and its reason; for the
 * model's own lines, a note to the model too: relay/session-output.ts).
 */
import type { OutgoingMessage } from "../agent/event-data.js";
import { RAISES } from "../agent/raises.js";
import type { SendGateEvent, SendVerdict } from "../hooks/run/send-gate.js";
import type { SessionRelay } from "../relay/session-relay.js";

export type SendGate = (event: SendGateEvent) => Promise<SendVerdict>;

/** A message a before_message_send hook cancelled. */
class MessageCancelled extends Error {
  override readonly name = "MessageCancelled";
}

/** Why a message was not sent, naming the hook that cancelled it when one did. */
export function cancelledText(verdict: Extract<SendVerdict, { send: false }>): string {
  return verdict.hook === undefined
    ? `a before_message_send hook cancelled it (${verdict.reason})`
    : `hook "${verdict.hook}" (before_message_send) cancelled it: ${verdict.reason}`;
}

export function gatedRelay(relay: SessionRelay, gate: SendGate): SessionRelay {
  return {
    name: relay.name,
    transport: relay.transport,
    inbox: relay.inbox,
    deliverAsTurns: (push) => relay.deliverAsTurns(push),
    onNote: (listener) => relay.onNote(listener),
    async send(to, content, metadata) {
      const message: OutgoingMessage = { from: relay.name, to, content };
      const verdict = await gate({ type: RAISES.before_message_send, message });
      if (!verdict.send) throw new MessageCancelled(cancelledText(verdict));
      return relay.send(to, verdict.content, metadata);
    },
    close: () => relay.close(),
  };
}
