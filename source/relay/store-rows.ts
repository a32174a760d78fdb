/**
 * The rows of the embedded store, read as untrusted data: another acai (an
 * older or a broken one) or a hand edit may have written anything. A row that
 * does not parse is never fatal: the store moves it to its `quarantine` table
 * and says so once, in one line (store.ts).
 */
import { z } from "zod";
import { type RelayMessage, relayMessageSchema } from "./message.js";
import { agentNameSchema } from "./names.js";

export interface AgentRecord {
  name: string;
  sessionId: string;
  pid: number;
  host: string;
  cwd: string;
  startedAt: number;
  /** `acai -p --listen`: answers messages until stopped. */
  listening: boolean;
}

const agentRowSchema = z.lazy(() =>
  z.object({
    rowid: z.number().int(),
    name: agentNameSchema,
    session_id: z.string().max(200),
    pid: z.number().int().positive(),
    host: z.string().max(300),
    cwd: z.string().max(4096),
    started_at: z.number(),
    listening: z.union([z.literal(0), z.literal(1)]),
  }),
);

const messageRowSchema = z.lazy(() => z.object({ seq: z.number().int(), body: z.string() }));

export const QUARANTINE_TABLE = `
  CREATE TABLE IF NOT EXISTS quarantine (
    id INTEGER PRIMARY KEY AUTOINCREMENT, from_table TEXT NOT NULL, reason TEXT NOT NULL,
    row TEXT NOT NULL, at INTEGER NOT NULL);`;

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

export function parseAgentRow(raw: unknown): Parsed<AgentRecord> {
  const parsed = agentRowSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: zodReason(parsed.error) };
  const row = parsed.data;
  return {
    ok: true,
    value: {
      name: row.name,
      sessionId: row.session_id,
      pid: row.pid,
      host: row.host,
      cwd: row.cwd,
      startedAt: row.started_at,
      listening: row.listening === 1,
    },
  };
}

/** A message row for `recipient`: its body must be a message to that recipient. */
export function parseMessageRow(
  raw: unknown,
  recipient: string,
): Parsed<{ seq: number; message: RelayMessage }> {
  const row = messageRowSchema.safeParse(raw);
  if (!row.success) return { ok: false, reason: zodReason(row.error) };
  let json: unknown;
  try {
    json = JSON.parse(row.data.body);
  } catch {
    return { ok: false, reason: "body: not JSON" };
  }
  const message = relayMessageSchema.safeParse(json);
  if (!message.success) return { ok: false, reason: `body.${zodReason(message.error)}` };
  if (message.data.to !== recipient)
    return { ok: false, reason: "body.to: not the row's recipient" };
  return { ok: true, value: { seq: row.data.seq, message: message.data } };
}

/** The first problem of a zod error, in a few words: `pid: expected number`. */
function zodReason(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return "malformed";
  const where = issue.path.length > 0 ? issue.path.join(".") : "row";
  return `${where}: ${issue.message}`.slice(0, 200);
}

/** A row as text for the quarantine table: every value kept, bytes as hex, capped. */
export function rowText(raw: unknown): string {
  const text = JSON.stringify(raw, (_key, value: unknown) => {
    if (value instanceof Uint8Array) return `<${value.byteLength} bytes>`;
    if (typeof value === "bigint") return value.toString();
    return value;
  });
  return (text ?? "null").slice(0, 20_000);
}

/** A short, printable name for a row in a report: `seq 12`, `agent "bob"`. */
export function rowLabel(raw: unknown, key: "seq" | "name"): string {
  const value = (raw as Record<string, unknown> | null)?.[key];
  if (typeof value === "number") return `${key} ${value}`;
  if (typeof value === "string") return `${key} ${JSON.stringify(value.slice(0, 64))}`;
  return `${key} unknown`;
}
