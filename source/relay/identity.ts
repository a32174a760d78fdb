/**
 * This ACAI_HOME's relay identity: an Ed25519 key pair that signs every
 * message it sends over NATS (nats-envelope.ts). The private key lives in
 * `ACAI_HOME/relay/identity.pem` (mode 0600, refused when others may read or
 * write it); the public key, 43 characters of base64url, is what a receiver
 * sees as the sender's key. Agents of one ACAI_HOME share it: to a receiver
 * they are "the same user".
 */
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
} from "node:crypto";
import { existsSync, linkSync, lstatSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { FileOwner } from "./store-files.js";
import { UnsafeStoreError } from "./store-files.js";

export interface RelayIdentity {
  /** The public key, base64url of its 32 bytes. */
  readonly key: string;
  readonly privateKey: KeyObject;
}

export function identityFile(relayDir: string): string {
  return path.join(relayDir, "identity.pem");
}

/** Loads the identity of `relayDir`, creating it on first use. */
export function loadIdentity(relayDir: string, owner: FileOwner): RelayIdentity {
  const file = identityFile(relayDir);
  if (!existsSync(file)) {
    const { privateKey } = generateKeyPairSync("ed25519");
    // Written whole under another name, then linked: two agents starting together
    // keep the key linked first, and none reads a half-written file.
    const draft = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    writeFileSync(draft, privateKey.export({ type: "pkcs8", format: "pem" }), {
      mode: 0o600,
      flag: "wx",
    });
    try {
      linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      unlinkSync(draft);
    }
  }
  checkKeyFile(file, owner);
  const loaded = createPrivateKey(readFileSync(file, "utf8"));
  return { key: publicKeyText(loaded), privateKey: loaded };
}

function publicKeyText(privateKey: KeyObject): string {
  const jwk = createPublicKey(privateKey).export({ format: "jwk" });
  if (typeof jwk.x !== "string") throw new Error("not an Ed25519 key");
  return jwk.x;
}

function checkKeyFile(file: string, owner: FileOwner): void {
  const stats = lstatSync(file);
  const problem = !stats.isFile()
    ? "is not a regular file"
    : owner.uid !== undefined && stats.uid !== owner.uid
      ? `belongs to another user (uid ${stats.uid})`
      : (stats.mode & 0o077) !== 0
        ? `can be read or written by other users (mode ${(stats.mode & 0o777).toString(8).padStart(4, "0")})`
        : undefined;
  if (problem === undefined) return;
  throw new UnsafeStoreError(
    `the relay key ${file} ${problem}, so others could sign messages as you; messages between agents over NATS stay off until it is fixed (chmod 600 ${file}, or remove it to make a new key)`,
  );
}
