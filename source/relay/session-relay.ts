/**
 * A session's place on the relay: its name, the messages that arrive for it
 * and how they reach the agent, and sending. Messages reach the agent either
 * at its next model request (`inbox.take()`, `acai -p`) or, once
 * `deliverAsTurns` is called (the REPL, `--listen`), as turns of their own.
 * Either way a message is settled (gone from the store) only after the agent
 * handled it: until then it stays, for this agent or the next of its name.
 */
import os from "node:os";
import type { IncomingMessage, SentMessage } from "../agent/event-data.js";
import type { Inbox } from "../agent/types.js";
import { messageText, projectTag, type RelayMessage } from "./message.js";
import type { NoteBuffer } from "./notes.js";
import type { RelayTransport } from "./transport.js";

export interface SessionRelay {
  readonly name: string;
  readonly transport: RelayTransport["kind"];
  /** For `RunInput.inbox`. */
  readonly inbox: Inbox;
  /** From now on each message is handed to `push` (already waiting ones at once), not to `inbox.take()`. */
  deliverAsTurns(push: (message: IncomingMessage) => void): void;
  /** Lines for the user (dropped messages, malformed rows): to `listener` from now on; never to the model. */
  onNote(listener: (line: string) => void): void;
  /** Sends a message as this agent; throws a RelayError (bad name, too long, unknown agent). */
  send(to: string, content: string, metadata?: Record<string, unknown>): Promise<SentMessage>;
  close(): Promise<void>;
}

export interface JoinRelayOptions {
  transport: RelayTransport;
  name: string;
  sessionId: string;
  cwd: string;
  /** The project the agent runs in: its messages say so, and those from another project are marked. */
  projectDir: string;
  listening: boolean;
  notes: NoteBuffer;
  now?: () => number;
}

/** Joins the relay as `name` (NameTakenError when a running agent holds it). */
export async function joinRelay(options: JoinRelayOptions): Promise<SessionRelay> {
  const { transport, name } = options;
  const now = options.now ?? Date.now;
  const waiting: IncomingMessage[] = [];
  const host = os.hostname();
  const project = projectTag(options.projectDir, host);
  let push: ((message: IncomingMessage) => void) | undefined;
  const arrived = (message: RelayMessage) => {
    const incoming = toIncoming(message, project.id);
    if (push) push(incoming);
    else waiting.push(incoming);
  };
  await transport.join(
    {
      name,
      sessionId: options.sessionId,
      pid: process.pid,
      host,
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
    onNote: (listener) => options.notes.listen(listener),
    async send(to, content, metadata) {
      const report = await transport.send({
        from: name,
        to,
        content,
        project,
        ...(metadata === undefined ? {} : { metadata }),
      });
      return { from: name, to, content, delivered: report.delivered, kept: report.kept };
    },
    close: () => transport.close(),
  };
}

function toIncoming(message: RelayMessage, ownProjectId: string): IncomingMessage {
  return {
    id: message.id,
    from: message.from,
    to: message.to,
    content: message.content,
    broadcast: message.broadcast,
    sentAt: message.sentAt,
    text: messageText(message, ownProjectId),
    ...(message.metadata === undefined ? {} : { metadata: message.metadata }),
  };
}
