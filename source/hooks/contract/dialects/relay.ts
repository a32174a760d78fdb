/**
 * agent-relay's answer (hooks.md §4): `inject` (context, capped at
 * RELAY_INJECT_CAP characters unless the `capabilities.unlimitedInjection`
 * setting is on), `suppress` (the event's default delivery is dropped:
 * message_received), `stop: true` (= skip: no further hooks run for this
 * event), `sendMessage: {to, content, metadata?}` (one per answer, content at
 * most RELAY_MESSAGE_CAP characters, metadata a bounded JSON object handed to
 * the receiver's hooks; the interceptor hands it to messaging), `log`.
 *
 * What cannot be read is a hook failure naming the field and the limit, never
 * a silent continue: a `sendMessage` list, an empty `to`, content past the cap.
 */
import { z } from "zod";
import type { Decision } from "../decision.js";
import { relayMetadataSchema } from "../relay-metadata.js";
import { type AnswerDialect, common, decodeWith, withoutNulls } from "./common.js";

/** agent-relay's cap on one `inject` (characters), lifted by `capabilities.unlimitedInjection`. */
export const RELAY_INJECT_CAP = 2000;
/** agent-relay's cap on one `sendMessage.content` (characters): past it the answer fails. */
export const RELAY_MESSAGE_CAP = 5000;
/** Longest agent name `sendMessage.to` may carry (`*` is everyone). */
const RELAY_TO_CAP = 200;

const sendMessageSchema = z.lazy(() =>
  z.object({
    to: z
      .string()
      .trim()
      .min(1, { error: "sendMessage.to must name an agent (or * for everyone)" })
      .max(RELAY_TO_CAP, { error: `sendMessage.to is longer than ${RELAY_TO_CAP} characters` }),
    content: z.string().max(RELAY_MESSAGE_CAP, {
      error: `sendMessage.content is longer than agent-relay's limit of ${RELAY_MESSAGE_CAP} characters`,
    }),
    metadata: relayMetadataSchema.optional(),
  }),
);

const relayAnswerSchema = z.lazy(() =>
  z.object({
    inject: z.string().optional(),
    suppress: z.boolean().optional(),
    stop: z.boolean().optional(),
    sendMessage: z
      .unknown()
      .refine((value) => !Array.isArray(value), {
        error: "one sendMessage per answer (agent-relay's limit), not a list",
      })
      .pipe(sendMessageSchema)
      .optional(),
    log: z.string().optional(),
  }),
);

type RelayAnswer = z.infer<typeof relayAnswerSchema>;

/** The relay fields that make an answer relay's, in the order they are named. */
const RELAY_FIELDS = ["inject", "suppress", "sendMessage", "stop"] as const;

function isRelay(answer: Readonly<Record<string, unknown>>): boolean {
  return RELAY_FIELDS.some((key) =>
    // acai's own `stop` is an action; relay's is a boolean field.
    key === "stop" ? typeof answer.stop === "boolean" : answer[key] !== undefined,
  );
}

function toDecision(answer: RelayAnswer): Decision {
  const base = common({ context: answer.inject, log: answer.log });
  const decision: Decision = { ...base, action: answer.stop === true ? "skip" : "continue" };
  if (base.context !== undefined) decision.contextCap = RELAY_INJECT_CAP;
  if (answer.suppress === true) decision.suppress = true;
  if (answer.sendMessage !== undefined) {
    const { to, content, metadata } = answer.sendMessage;
    decision.sendMessage = { to, content, ...(metadata === undefined ? {} : { metadata }) };
  }
  return decision;
}

export const relayDialect: AnswerDialect = {
  name: "agent-relay",
  detect: isRelay,
  decode: (answer) =>
    decodeWith("agent-relay", relayAnswerSchema, withoutNulls({ ...answer }), toDecision),
};
