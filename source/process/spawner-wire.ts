/**
 * The spawner's stream connections as acai reads them (spawner.ts): each
 * starts with one header line "<secret> <conn id>\n"; the secret is 32
 * random hex digits given on the control channel only, so a process in the
 * sandbox that connects to the socket cannot pass for one of the spawner's
 * spares (and a run's connections are named by id on the control channel).
 */
import { randomBytes } from "node:crypto";
import type { Socket } from "node:net";

/**
 * The most of a CLAUDE_ENV_FILE acai reads (session/shell-env.ts: past this a
 * file is not read, a hook gone wrong, and that is said once); a spawner
 * that keeps one for a run (decision 0069) hands back one byte more, so that
 * a larger file is still seen to be too large.
 */
export const ENV_FILE_MAX_BYTES = 256 * 1024;

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

/** What acai asks a spawner (spawner-script.ts) or the Python helper (spawn-helper-python.ts). */
export type SpawnerRequest =
  | { op: "hello"; secret: string }
  | {
      op: "spawn";
      id: number;
      token: string;
      command: string;
      args: readonly string[];
      cwd: string;
      env: Readonly<Record<string, string>>;
      stdin: "socket" | "none" | "text";
      text?: string;
      /** Keep the run's CLAUDE_ENV_FILE in the sandbox, starting with this text (base64; decision 0069). */
      envFile?: string;
    }
  | { op: "kill"; pid: number; signal: NodeJS.Signals }
  | { op: "sweep" };

/** The Node spawner's framing: one JSON line. */
export function jsonLine(request: SpawnerRequest): string {
  return `${JSON.stringify(request)}\n`;
}

/**
 * The Python helper's framing (decision 0056): `<byte length>\n` then the
 * fields joined by NUL bytes, a spawn's stdin text last (it may hold NULs;
 * nothing else can: a C string ends at one), after the env file's field ("-":
 * none, "+<base64>": keep one, 0069). Undefined when a field that is not the
 * text holds a NUL (no process can be given it).
 */
export function nulRecord(request: SpawnerRequest): string | undefined {
  const fields = recordFields(request);
  const last = request.op === "spawn" ? fields.length - 1 : fields.length;
  if (fields.slice(0, last).some((field) => field.includes("\0"))) return undefined;
  const payload = fields.join("\0");
  return `${Buffer.byteLength(payload)}\n${payload}`;
}

function recordFields(request: SpawnerRequest): string[] {
  switch (request.op) {
    case "hello":
      return ["hello", request.secret];
    case "spawn": {
      const env = Object.entries(request.env).map(([name, value]) => `${name}=${value}`);
      const head = [request.stdin, request.command, request.cwd];
      const counted = [String(request.args.length), ...request.args, String(env.length), ...env];
      const envFile = request.envFile === undefined ? "-" : `+${request.envFile}`;
      const tail = [envFile, request.text ?? ""];
      return ["spawn", String(request.id), request.token, ...head, ...counted, ...tail];
    }
    case "kill":
      return ["kill", String(request.pid), request.signal];
    case "sweep":
      return ["sweep"];
    default:
      return request satisfies never;
  }
}
