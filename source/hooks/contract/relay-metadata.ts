/**
 * agent-relay's message `metadata` (`msg.metadata?.urgent` in its
 * onMessageReceived examples): a JSON object a sender attaches to a message
 * (a hook's `sendMessage.metadata`, `acai send --metadata`), carried with it
 * and handed to the receiver's hooks. It comes from another agent, so it is
 * data only and bounded: an object of at most RELAY_METADATA_KEYS keys whose
 * JSON is at most RELAY_METADATA_CHARS characters. The relay's own keys
 * (`sender`, `broadcast`) are set by the receiver and cannot be forged.
 */
import { z } from "zod";

export const RELAY_METADATA_CHARS = 2000;
const RELAY_METADATA_KEYS = 20;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? Number.POSITIVE_INFINITY;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** A message's metadata, kept as parsed (keys like `__proto__` stay plain data). */
export const relayMetadataSchema = z.lazy(
  () =>
    z
      .unknown()
      .refine(isPlainObject, { message: "metadata must be a JSON object" })
      .refine((value) => Object.keys(value as object).length <= RELAY_METADATA_KEYS, {
        message: `metadata has more than ${RELAY_METADATA_KEYS} keys`,
      })
      .refine((value) => jsonLength(value) <= RELAY_METADATA_CHARS, {
        message: `metadata is longer than ${RELAY_METADATA_CHARS} characters as JSON`,
      })
      .meta({ type: "object" }) as z.ZodType<Record<string, unknown>>,
);
