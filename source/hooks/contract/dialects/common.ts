import { z } from "zod";
import { type Decision, failed } from "../decision.js";
import type { HookEventName } from "../events/table.js";

/** One answer dialect: how to recognize it and how to turn it into a Decision. */
export interface AnswerDialect {
  name: string;
  /** True when the answer's fields say it is written in this dialect. */
  detect(answer: Readonly<Record<string, unknown>>): boolean;
  /** `event`, when known: the event answered (A3S's `modified` means what that event can change). */
  decode(answer: Readonly<Record<string, unknown>>, event?: HookEventName): Decision;
}

export function hasAny(
  answer: Readonly<Record<string, unknown>>,
  keys: readonly string[],
): boolean {
  for (const key of keys) if (answer[key] !== undefined) return true;
  return false;
}

/**
 * `null` is treated as absent: hooks in Python or jq often print `"reason": null`.
 * Keys are copied as own data properties: a `__proto__` key stays plain data
 * (an assignment would make it the copy's prototype).
 */
export function withoutNulls<T extends Record<string, unknown>>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (v !== null) defineData(out, key, v);
  return out as T;
}

/** Sets an own, enumerable data property, also for keys like `__proto__`. */
function defineData(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A JSON object, kept as parsed (unlike `z.record`, which rebuilds it by
 * assignment and so drops or misreads keys like `__proto__`). Exported JSON
 * Schemas show it as an object.
 */
export const jsonObjectSchema = z.lazy(
  () =>
    z
      .unknown()
      .refine(isPlainObject, { message: "expected an object" })
      .meta({ type: "object" }) as z.ZodType<Record<string, unknown>>,
);
function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join(".")}: ` : "") + issue.message)
    .join("; ");
}

/** Parse with `schema`, or a failed decision naming the dialect and the bad fields. */
export function decodeWith<T>(
  dialect: string,
  schema: z.ZodType<T>,
  answer: Readonly<Record<string, unknown>>,
  toDecision: (parsed: T) => Decision,
): Decision {
  const parsed = schema.safeParse(answer);
  if (!parsed.success) {
    return failed(`answered ${dialect} JSON with invalid fields (${describeIssues(parsed.error)})`);
  }
  return toDecision(parsed.data);
}

/** Copies the optional common fields that are set. */
export function common(fields: {
  context?: string | undefined;
  message?: string | undefined;
  log?: string | undefined;
  reason?: string | undefined;
}): { context?: string; message?: string; log?: string; reason?: string } {
  const out: { context?: string; message?: string; log?: string; reason?: string } = {};
  if (fields.context !== undefined && fields.context !== "") out.context = fields.context;
  if (fields.message !== undefined && fields.message !== "") out.message = fields.message;
  if (fields.log !== undefined && fields.log !== "") out.log = fields.log;
  if (fields.reason !== undefined && fields.reason !== "") out.reason = fields.reason;
  return out;
}

/** Claude Code's `watchPaths`: absolute paths to watch (at most 256 listed; the session keeps fewer). */
export const watchPathsSchema = z.lazy(() => z.array(z.string().min(1).max(4096)).max(256));

/** `{watchPaths}` when the answer set it (an empty list too: it stops the watching). */
export function watchPathsOf(paths: string[] | null | undefined): { watchPaths?: string[] } {
  return paths === undefined || paths === null ? {} : { watchPaths: paths };
}
