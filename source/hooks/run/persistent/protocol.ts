/**
 * The persistent hook protocol's lines (hooks.md §6.4, docs/hooks.md):
 * a request is the object a spawned hook reads on stdin plus `"id"`, on one
 * line; an answer is a JSON answer (§4, any dialect) plus the same `"id"`, on
 * one line; `{"id":…,"error":"…"}` says that request failed. Pure.
 */
import { jsonTextTooDeep } from "../../../config/json-depth.js";
import { capText, type Decision, failed } from "../../contract/decision.js";
import type { HookDialect, HookEventName } from "../../contract/definition.js";
import { decodeAnswer, MAX_ANSWER_DEPTH } from "../../contract/dialects/index.js";
import { payloadText } from "../../contract/payload-text.js";

/**
 * `{"id":N,...payload}` and a newline, the payload written as its dialect's
 * home system writes JSON (payload-text.ts: `{"id": N, …}` for Agent Hooks);
 * throws when the payload cannot be serialized.
 */
export function requestLine(id: number, payload: unknown, dialect: HookDialect = "acai"): string {
  const body = serialized(payload, dialect);
  if (body === undefined || !body.startsWith("{")) {
    throw new Error("the payload is not a JSON object");
  }
  if (body === "{}") return `{"id":${id}}\n`;
  return dialect === "agenthooks"
    ? `{"id": ${id}, ${body.slice(1)}\n`
    : `{"id":${id},${body.slice(1)}\n`;
}

/**
 * The hooks of one chain asked together get the same payload object
 * (intercept/hook-runs.ts): it is serialized once per dialect. Payloads are
 * not changed once built.
 */
const bodies: Record<HookDialect, WeakMap<object, string>> = {
  acai: new WeakMap(),
  agenthooks: new WeakMap(),
};

function serialized(payload: unknown, dialect: HookDialect): string | undefined {
  if (typeof payload !== "object" || payload === null) return JSON.stringify(payload);
  let body = bodies[dialect].get(payload);
  if (body === undefined) {
    body = payloadText(payload, dialect).slice(0, -1);
    bodies[dialect].set(payload, body);
  }
  return body;
}

function onlyId(fields: Record<string, unknown>): boolean {
  for (const key in fields) if (key !== "id") return false;
  return true;
}

/**
 * `{"id":N}` or `{"id": N}` and nothing else, N a JSON integer that is a safe
 * integer (no leading zero, at most 15 digits): what the rest of
 * `readAnswerLine` reads as a plain continue.
 */
const ONLY_ID = /^\{"id": ?(0|[1-9][0-9]{0,14})\}$/;

/** What a line of a persistent hook's stdout is. */
export type AnswerLine =
  | { kind: "blank" }
  | { kind: "answer"; id: number; decision: Decision }
  /** Not an answer: the process is out of the protocol. */
  | { kind: "garbage"; why: string };

/** How much of a line that is not an answer is quoted in the error. */
const QUOTE_CHARS = 200;

/** One line of a persistent hook's stdout; `eventOf` names the event a request id asked about. */
export function readAnswerLine(
  line: string,
  eventOf: (id: number) => HookEventName | undefined = () => undefined,
): AnswerLine {
  // `{"id":N}` alone, the usual answer, as JSON.parse would read it: nothing more to read.
  const only = ONLY_ID.exec(line);
  if (only !== null)
    return { kind: "answer", id: Number(only[1]), decision: { action: "continue" } };
  if (line.trim() === "") return { kind: "blank" };
  const quoted = (): string => JSON.stringify(capText(line, QUOTE_CHARS, "line"));
  if (jsonTextTooDeep(line, MAX_ANSWER_DEPTH)) {
    return {
      kind: "garbage",
      why: `printed JSON nested more than ${MAX_ANSWER_DEPTH} levels deep`,
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return { kind: "garbage", why: `printed a line that is not JSON: ${quoted()}` };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return { kind: "garbage", why: `printed a line that is not a JSON object: ${quoted()}` };
  }
  const fields = parsed as Record<string, unknown>;
  const id = fields.id;
  const n = typeof id === "string" && /^\d{1,15}$/.test(id) ? Number(id) : id;
  if (typeof n !== "number" || !Number.isSafeInteger(n)) {
    return { kind: "garbage", why: `printed an answer without a request "id": ${quoted()}` };
  }
  // `{"id":N}` alone, the usual answer: nothing more to read.
  if (onlyId(fields)) return { kind: "answer", id: n, decision: { action: "continue" } };
  const { id: _id, ...answer } = fields;
  if (typeof answer.error === "string") {
    return { kind: "answer", id: n, decision: failed(`answered an error: ${answer.error}`) };
  }
  return { kind: "answer", id: n, decision: decodeAnswer(answer, eventOf(n)) };
}
