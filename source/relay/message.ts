/**
 * A message between agents, as it is stored and as it travels. Everything in
 * it came from another process (or machine): parsed with zod when read, capped,
 * and never executed — to the model it is the text of a user message.
 */
import { createHash, randomUUID } from "node:crypto";
import path from "node:path";
import { z } from "zod";
import { relayMetadataSchema } from "../hooks/contract/relay-metadata.js";
import { agentNameProblem, agentNameSchema } from "./names.js";

/** agent-relay's cap on a message's content. */
export const MAX_MESSAGE_CHARS = 5000;
/** The recipient that means "every other running agent". */
export const BROADCAST = "*";

/** The sender's project: its folder's name, and an id that tells one project from another. */
const projectSchema = z.lazy(() =>
  z
    .object({
      name: z
        .string()
        .min(1)
        .max(100)
        .regex(/^[^\p{Cc}\p{Cf}]+$/u, "no control characters"),
      id: z.string().regex(/^[0-9a-f]{16}$/),
    })
    .strict(),
);
export type ProjectTag = z.infer<typeof projectSchema>;

export const relayMessageSchema = z.lazy(() =>
  z.object({
    id: z.string().min(1).max(100),
    from: agentNameSchema,
    /** The recipient's name (a broadcast is one copy per recipient, `broadcast` set). */
    to: agentNameSchema,
    content: z.string().max(MAX_MESSAGE_CHARS),
    broadcast: z.boolean(),
    /** ms since the epoch, the sender's clock. */
    sentAt: z.number().int().nonnegative(),
    /** The project the sending agent runs in (absent: `acai send` from a shell). */
    project: projectSchema.optional(),
    /** What the sender attached (agent-relay's `msg.metadata`): a bounded JSON object, data only. */
    metadata: relayMetadataSchema.optional(),
  }),
);

export type RelayMessage = z.infer<typeof relayMessageSchema>;

/** What a sender asks for: a name or `*`, and the content. */
export interface Outgoing {
  from: string;
  to: string;
  content: string;
  project?: ProjectTag;
  metadata?: Record<string, unknown>;
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
  if (out.metadata !== undefined) {
    const checked = relayMetadataSchema.safeParse(out.metadata);
    if (!checked.success)
      throw new RelayError(checked.error.issues[0]?.message ?? "the metadata is not valid");
  }
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
    ...(out.project ? { project: out.project } : {}),
    ...(out.metadata === undefined ? {} : { metadata: out.metadata }),
  };
}

/**
 * The text the model gets for a message (a hook on message_received may replace it).
 * A message from an agent of another project (than `ownProjectId`) says so, and which.
 */
export function messageText(message: RelayMessage, ownProjectId?: string): string {
  const kind = message.broadcast ? "Broadcast message" : "Message";
  const other =
    message.project !== undefined && message.project.id !== ownProjectId
      ? ` in another project, ${JSON.stringify(message.project.name)},`
      : "";
  return `${kind} from agent ${message.from}${other} (reply with @relay:${message.from} <text>):\n${message.content}`;
}

/** The tag of the project in `projectDir` on `host`, for the messages its agents send. */
export function projectTag(projectDir: string, host: string): ProjectTag {
  const id = createHash("sha256").update(`${host}\0${projectDir}`).digest("hex").slice(0, 16);
  const name = path
    .basename(projectDir)
    .replace(/[\p{Cc}\p{Cf}]/gu, "?")
    .slice(0, 100);
  return { name: name === "" ? "/" : name, id };
}
