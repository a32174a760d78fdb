/**
 * A message on the NATS wire: the message's JSON, signed with the sender's
 * ACAI_HOME key (identity.ts) over the subject it was sent to. A receiver
 * learns from it which key sent the message, and that nobody changed it or
 * re-addressed it on the way. What the key may say (which names it holds,
 * whether it is taken at all) is for the receiver to decide (accept.ts).
 */
import { createPublicKey, sign, verify } from "node:crypto";
import { z } from "zod";
import type { RelayIdentity } from "./identity.js";
import { type RelayMessage, relayMessageSchema } from "./message.js";

const KEY = /^[A-Za-z0-9_-]{43}$/;

const envelopeSchema = z
  .object({
    v: z.literal(1),
    body: z.string().max(48 * 1024),
    key: z.string().regex(KEY),
    sig: z.string().regex(/^[A-Za-z0-9_-]{86}$/),
  })
  .strict();

export type Opened = { ok: true; message: RelayMessage; key: string } | { ok: false; why: string };

function signedBytes(subject: string, body: string): Buffer {
  return Buffer.from(`acai-relay-v1\n${subject}\n${body}`, "utf8");
}

/** The envelope of `message` for `subject`, signed by `identity`. */
export function seal(message: RelayMessage, subject: string, identity: RelayIdentity): string {
  const body = JSON.stringify(message);
  const sig = sign(null, signedBytes(subject, body), identity.privateKey).toString("base64url");
  return JSON.stringify({ v: 1, body, key: identity.key, sig });
}

/** Checks an envelope that arrived on `subject`: well formed, signed by its key, for that subject. */
export function unseal(data: unknown, subject: string): Opened {
  const envelope = envelopeSchema.safeParse(data);
  if (!envelope.success)
    return { ok: false, why: "it is not signed (not an acai message envelope)" };
  const { body, key, sig } = envelope.data;
  let good = false;
  try {
    const publicKey = createPublicKey({
      key: { kty: "OKP", crv: "Ed25519", x: key },
      format: "jwk",
    });
    good = verify(null, signedBytes(subject, body), publicKey, Buffer.from(sig, "base64url"));
  } catch {
    good = false;
  }
  if (!good) return { ok: false, why: "its signature does not match" };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, why: "its body is not JSON" };
  }
  const message = relayMessageSchema.safeParse(json);
  if (!message.success) return { ok: false, why: "it is not a valid message" };
  return { ok: true, message: message.data, key };
}
