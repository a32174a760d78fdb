/**
 * The spawner's stream connections as acai reads them (spawner.ts): each
 * starts with one header line "<secret> <conn id>\n"; the secret is 32
 * random hex digits given on the control channel only, so a process in the
 * sandbox that connects to the socket cannot pass for one of the spawner's
 * spares (and a run's connections are named by id on the control channel).
 */
import { randomBytes } from "node:crypto";
import type { Socket } from "node:net";

/** A header longer than this is not one of ours. */
const MAX_HEADER_BYTES = 80;
/** A connection that says nothing for this long is closed. */
const HEADER_TIMEOUT_MS = 5000;

export function newToken(): string {
  return randomBytes(16).toString("hex");
}

export interface Header {
  secret: string;
  conn: number;
}

function parseHeader(line: string): Header | undefined {
  const match = /^([0-9a-f]{32}) ([1-9][0-9]{0,14})$/.exec(line);
  if (match === null) return undefined;
  return { secret: match[1]!, conn: Number(match[2]) };
}

/**
 * Reads `conn`'s header line, then pauses it and calls `done` with the header
 * (undefined if it is not a valid one) and the bytes that came after it.
 */
export function readHeader(
  conn: Socket,
  done: (header: Header | undefined, rest: Buffer) => void,
): void {
  let head: Buffer = Buffer.alloc(0);
  conn.on("error", () => {});
  const timer = setTimeout(() => conn.destroy(), HEADER_TIMEOUT_MS);
  timer.unref();
  const onData = (chunk: Buffer): void => {
    head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
    const nl = head.indexOf(10);
    if (nl < 0) {
      if (head.length > MAX_HEADER_BYTES) finish(undefined, Buffer.alloc(0));
      return;
    }
    finish(parseHeader(head.subarray(0, nl).toString("latin1")), head.subarray(nl + 1));
  };
  const finish = (header: Header | undefined, rest: Buffer): void => {
    clearTimeout(timer);
    conn.off("data", onData);
    conn.off("close", onClose);
    conn.pause();
    done(header, rest);
  };
  const onClose = (): void => clearTimeout(timer);
  conn.on("data", onData);
  conn.once("close", onClose);
}
