/**
 * A message between agents, as it is stored and as it travels. Everything in
 * it came from another process (or machine): parsed with zod when read, capped,
 * and never executed — to the model it is the text of a user message.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { agentNameProblem, agentNameSchema } from "./names.js";

/** agent-relay's cap on a message's content. */
export const MAX_MESSAGE_CHARS = 5000;
/** The recipient that means "every other running agent". */
export const BROADCAST = "*";

export const relayMessageSchema = z.object({
  id: z.string().min(1).max(100),
  from: agentNameSchema,
  /** The recipient's name (a broadcast is one copy per recipient, `broadcast` set). */
  to: agentNameSchema,
  content: z.string().max(MAX_MESSAGE_CHARS),
  broadcast: z.boolean(),
  /** ms since the epoch, the sender's clock. */
  sentAt: z.number().int().nonnegative(),
});

export type RelayMessage = z.infer<typeof relayMessageSchema>;

/** What a sender asks for: a name or `*`, and the content. */
export interface Outgoing {
  from: string;
  to: string;
  content: string;
}

export class RelayError extends Error {
  override name = "RelayError";
}

/** Checks an outgoing message; throws a RelayError that says what is wrong. */
export function checkOutgoing(out: Outgoing): void {
  const fromProblem = agentNameProblem(out.from);
  if (fromProblem)
    throw new RelayError(`invalid sender name ${JSON.stringify(out.from)}: ${fromProblem}`);
  if (out.to !== BROADCAST) {
    const toProblem = agentNameProblem(out.to);
    if (toProblem)
      throw new RelayError(
        `invalid recipient ${JSON.stringify(out.to.slice(0, 80))}: ${toProblem} (or * for every running agent)`,
      );
  }
  if (out.content.length > MAX_MESSAGE_CHARS) {
    throw new RelayError(
      `the message is ${out.content.length} characters; messages are capped at ${MAX_MESSAGE_CHARS} characters (shorten it or send it in parts)`,
    );
  }
  if (out.content.trim() === "") throw new RelayError("the message is empty");
}

/** One stored copy of an outgoing message for `to`. */
export function messageFor(out: Outgoing, to: string, now: number): RelayMessage {
  return {
    id: randomUUID(),
    from: out.from,
    to,
    content: out.content,
    broadcast: out.to === BROADCAST,
    sentAt: now,
  };
}

/** The text the model gets for a message (a hook on message_received may replace it). */
export function messageText(message: RelayMessage): string {
  const kind = message.broadcast ? "Broadcast message" : "Message";
  return `${kind} from agent ${message.from} (reply with @relay:${message.from} <text>):\n${message.content}`;
}
