/**
 * A3S's answers (`HookResponse`, hooks.md §4): `action` Continue / Block /
 * Retry / Skip in any letter case, `reason`, `modified` and
 * `retry_delay_ms`. `modified` is what A3S lets that event change: the tool's
 * `args` (PreToolUse), the tool's `result` (PostToolUse: its `output`
 * replaces what the model sees) or the generation's `prompt`
 * (GenerateStart). A lower-case `continue`, `block`, `retry` or `skip`
 * without A3S's fields means the same in acai's own dialect, which reads it.
 */
import { z } from "zod";
import { type Decision, failed } from "../decision.js";
import type { HookEventName } from "../events/table.js";
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

const a3sAnswerSchema = z.lazy(() =>
  z.object({
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
  }),
);

type A3sAnswer = z.output<typeof a3sAnswerSchema>;

/**
 * Continue with `modified`, on the event answered: PostToolUse's new result
 * (its `output`), GenerateStart's new `prompt`, else the new tool input
 * (PreToolUse's `args`; an event that cannot take an input ignores it, with a note).
 */
function modification(
  base: ReturnType<typeof common>,
  modified: Record<string, unknown>,
  event: HookEventName | undefined,
): Decision {
  switch (event) {
    case "after_tool":
      return typeof modified.output === "string"
        ? { ...base, action: "modify", output: modified.output }
        : failed(
            'answered A3S Continue with a modified PostToolUse result without an "output" string (the text the model sees)',
          );
    case "before_model":
      return typeof modified.prompt === "string"
        ? { ...base, action: "modify", prompt: modified.prompt }
        : failed('answered A3S Continue with a modified GenerateStart without a "prompt" string');
    default:
      return { ...base, action: "modify", input: modified };
  }
}

function toDecision(answer: A3sAnswer, event: HookEventName | undefined): Decision {
  const base = common(answer);
  switch (answer.action) {
    case "continue":
      return answer.modified === undefined
        ? { ...base, action: "continue" }
        : modification(base, answer.modified, event);
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
  decode: (answer, event) =>
    decodeWith("A3S", a3sAnswerSchema, withoutNulls({ ...answer }), (parsed) =>
      toDecision(parsed, event),
    ),
};
