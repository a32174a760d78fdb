/**
 * A3S's answers (`HookResponse`, hooks.md §4): `action` Continue / Block /
 * Retry / Skip in any letter case, `reason`, `modified` (Continue with a
 * replacement of the input) and `retry_delay_ms`. A lower-case `continue`,
 * `block`, `retry` or `skip` without A3S's fields means the same in acai's
 * own dialect, which reads it.
 */
import { z } from "zod";
import type { Decision } from "../decision.js";
import { DEFAULT_RETRY_AFTER_MS } from "./acai.js";
import {
  type AnswerDialect,
  common,
  decodeWith,
  hasAny,
  jsonObjectSchema,
  withoutNulls,
} from "./common.js";

const A3S_ACTIONS = ["continue", "block", "retry", "skip"] as const;
type A3sAction = (typeof A3S_ACTIONS)[number];

function a3sAction(value: unknown): A3sAction | undefined {
  if (typeof value !== "string") return undefined;
  const lower = value.toLowerCase();
  return (A3S_ACTIONS as readonly string[]).includes(lower) ? (lower as A3sAction) : undefined;
}

const a3sAnswerSchema = z.object({
  action: z.string().transform((value, ctx) => {
    const action = a3sAction(value);
    if (action === undefined) {
      ctx.addIssue({ code: "custom", message: "expected Continue, Block, Retry or Skip" });
      return z.NEVER;
    }
    return action;
  }),
  reason: z.string().optional(),
  modified: jsonObjectSchema.optional(),
  retry_delay_ms: z.number().int().min(0).max(600_000).optional(),
  context: z.string().optional(),
  message: z.string().optional(),
  log: z.string().optional(),
});

type A3sAnswer = z.output<typeof a3sAnswerSchema>;

function toDecision(answer: A3sAnswer): Decision {
  const base = common(answer);
  switch (answer.action) {
    case "continue":
      return answer.modified === undefined
        ? { ...base, action: "continue" }
        : { ...base, action: "modify", input: answer.modified };
    case "block":
      return { ...base, action: "block" };
    case "retry":
      return {
        ...base,
        action: "retry",
        retryAfterMs: answer.retry_delay_ms ?? DEFAULT_RETRY_AFTER_MS,
      };
    case "skip":
      return { ...base, action: "skip" };
    default:
      return answer.action satisfies never;
  }
}

export const a3sDialect: AnswerDialect = {
  name: "a3s",
  detect: (answer) => {
    const action = a3sAction(answer.action);
    if (action === undefined) return false;
    return answer.action !== action || hasAny(answer, ["modified", "retry_delay_ms"]);
  },
  decode: (answer) => decodeWith("A3S", a3sAnswerSchema, withoutNulls({ ...answer }), toDecision),
};
