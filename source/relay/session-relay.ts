/**
 * A session's place on the relay: its name, the messages that arrive for it
 * and how they reach the agent, and sending. Messages reach the agent either
 * at its next model request (`inbox.take()`, `acai -p`) or, once
 * `deliverAsTurns` is called (the REPL, `--listen`), as turns of their own.
 * Either way a message is settled (gone from the store) only after the agent
 * handled it: until then it stays, for this agent or the next of its name.
 */
import os from "node:os";
import type { IncomingMessage, SentMessage } from "../agent/events.js";
import type { Inbox } from "../agent/types.js";
import { messageText, type RelayMessage } from "./message.js";
import type { RelayTransport } from "./transport.js";

export interface SessionRelay {
  readonly name: string;
  readonly transport: RelayTransport["kind"];
  /** For `RunInput.inbox`. */
  readonly inbox: Inbox;
  /** From now on each message is handed to `push` (already waiting ones at once), not to `inbox.take()`. */
  deliverAsTurns(push: (message: IncomingMessage) => void): void;
  /** Sends a message as this agent; throws a RelayError (bad name, too long, unknown agent). */
  send(to: string, content: string): Promise<SentMessage>;
  close(): Promise<void>;
}

export interface JoinRelayOptions {
  transport: RelayTransport;
  name: string;
  sessionId: string;
  cwd: string;
  listening: boolean;
  now?: () => number;
}

/** Joins the relay as `name` (NameTakenError when a running agent holds it). */
export async function joinRelay(options: JoinRelayOptions): Promise<SessionRelay> {
  const { transport, name } = options;
  const now = options.now ?? Date.now;
  const waiting: IncomingMessage[] = [];
  let push: ((message: IncomingMessage) => void) | undefined;
  const arrived = (message: RelayMessage) => {
    const incoming = toIncoming(message);
    if (push) push(incoming);
    else waiting.push(incoming);
  };
  await transport.join(
    {
      name,
      sessionId: options.sessionId,
      pid: process.pid,
      host: os.hostname(),
      cwd: options.cwd,
      startedAt: now(),
      listening: options.listening,
    },
    arrived,
  );
  return {
    name,
    transport: transport.kind,
    inbox: {
      take: () => waiting.splice(0),
      settle: (id) => transport.settle(id),
    },
    deliverAsTurns(to) {
      push = to;
      for (const message of waiting.splice(0)) to(message);
    },
    async send(to, content) {
      const report = await transport.send({ from: name, to, content });
      return { from: name, to, content, delivered: report.delivered, kept: report.kept };
    },
    close: () => transport.close(),
  };
}

function toIncoming(message: RelayMessage): IncomingMessage {
  return {
    id: message.id,
    from: message.from,
    to: message.to,
    content: message.content,
    broadcast: message.broadcast,
    sentAt: message.sentAt,
    text: messageText(message),
  };
}
