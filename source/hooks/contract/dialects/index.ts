/**
 * Answer decoding: which dialect a JSON answer is written in is decided by the
 * fields it has (the first row whose `detect` says yes), whatever the hook's
 * payload dialect. Adding a dialect = one file and one row here. agent-relay's
 * answers (`inject`, `suppress`, `stop: true`, `sendMessage`) are recognised last.
 */
import { jsonTextTooDeep, MAX_JSON_DEPTH, valueTooDeep } from "../../../config/json-depth.js";
import { type Decision, failed } from "../decision.js";
import type { HookEventName } from "../events/table.js";
import { a3sDialect } from "./a3s.js";
import { acaiDialect } from "./acai.js";
import { agentHooksDialect } from "./agenthooks.js";
import { claudeDialect } from "./claude.js";
import type { AnswerDialect } from "./common.js";
import { relayDialect } from "./relay.js";

export type { AnswerDialect } from "./common.js";

/**
 * Checked in order. An A3S action (`Block`, or `continue` with `modified`) is
 * A3S's; any other explicit `action` is acai's; an answer no row claims is read as acai's.
 */
const ANSWER_DIALECTS: readonly AnswerDialect[] = [
  a3sDialect,
  acaiDialect,
  claudeDialect,
  agentHooksDialect,
  relayDialect,
];

const FALLBACK: AnswerDialect = acaiDialect;

/** How deep a hook's JSON answer may nest (objects and arrays, the answer itself counting 1). */
export const MAX_ANSWER_DEPTH = MAX_JSON_DEPTH;

const TOO_DEEP = `answered JSON nested more than ${MAX_ANSWER_DEPTH} levels deep (acai's limit for hook answers); the answer is not read`;

export function pickDialect(answer: Readonly<Record<string, unknown>>): AnswerDialect {
  for (const dialect of ANSWER_DIALECTS) if (dialect.detect(answer)) return dialect;
  return FALLBACK;
}

/**
 * Decode a parsed JSON value into a Decision; anything but an object, or a
 * value nested too deep, is a failure. `event`: the event it answers, when known.
 */
export function decodeAnswer(answer: unknown, event?: HookEventName): Decision {
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) {
    return failed("answered JSON that is not an object");
  }
  const record = answer as Record<string, unknown>;
  // "Nothing to say", the answer most hooks give most of the time: no dialect to pick.
  if (isEmpty(record)) return { action: "continue" };
  if (valueTooDeep(answer, MAX_ANSWER_DEPTH)) return failed(TOO_DEEP);
  return pickDialect(record).decode(record, event);
}

function isEmpty(record: Record<string, unknown>): boolean {
  for (const _ in record) return false;
  return true;
}

/**
 * Decode stdout text that starts with `{`. Invalid JSON, or JSON nested deeper
 * than MAX_ANSWER_DEPTH (measured before parsing), is a failure. `JSON.parse`
 * makes every key an own data property, `__proto__` included: plain data.
 */
export function decodeAnswerText(text: string, event?: HookEventName): Decision {
  if (jsonTextTooDeep(text, MAX_ANSWER_DEPTH)) return failed(TOO_DEEP);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return failed(`printed invalid JSON on stdout (${(error as Error).message})`);
  }
  return decodeAnswer(parsed, event);
}
