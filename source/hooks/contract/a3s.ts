/**
 * A3S's hook engine as acai reads it (docs/plugins.md "Coming from A3S"):
 * its six event types and the acai events behind each, its registration
 * (`{ id, event_type, matcher, config }`) and the event its handlers get,
 * `{ event_type, payload }` with every field of A3S's payload interfaces
 * (and acai's own payload beside it as `acai`). Pure.
 */
import { z } from "zod";
import { withoutUndefined } from "../../shared/defined.js";
import type { HookEventName, HookMatcher } from "./definition.js";
import { A3S_EVENTS, A3S_SNAKE, a3sEventName } from "./events/names.js";
import { AskAheadSchema, formatZodError, MaxRetriesSchema } from "./schemas/metadata.js";

/** A3S's six event types. */
const A3S_EVENT_TYPES = [
  "PreToolUse",
  "PostToolUse",
  "GenerateStart",
  "GenerateEnd",
  "SessionStart",
  "SessionEnd",
] as const;
type A3sEventType = (typeof A3S_EVENT_TYPES)[number];

function isA3sEventType(name: string | undefined): name is A3sEventType {
  return (A3S_EVENT_TYPES as readonly (string | undefined)[]).includes(name);
}

/** `PreToolUse` or `pre_tool_use` → `PreToolUse`; anything else: undefined. */
export function a3sEventType(name: unknown): A3sEventType | undefined {
  if (typeof name !== "string") return undefined;
  const type = Object.hasOwn(A3S_SNAKE, name) ? A3S_SNAKE[name] : name;
  return isA3sEventType(type) && Object.hasOwn(A3S_EVENTS, type) ? type : undefined;
}

/**
 * The acai events of an A3S event type (the rows that name it, events/*.ts),
 * or why there are none. PostToolUse is every tool call that ran: one that
 * returned (`after_tool`) and one that failed (`after_tool_failure`,
 * `result.success: false`); a call that never ran (blocked, denied) is not
 * A3S's PostToolUse and its handlers are not called for it (`a3sSees`).
 */
export function a3sEvents(name: unknown): readonly HookEventName[] | string {
  const type = a3sEventType(name);
  if (type !== undefined) return A3S_EVENTS[type] ?? [];
  return `A3S event type ${JSON.stringify(name)} is unknown; acai takes ${A3S_EVENT_TYPES.join(", ")} (or their snake_case forms)`;
}

/** Built at its first parse (a session without A3S plugins parses none). */
const A3sOptionsSchema = z.lazy(() =>
  z.looseObject({
    matcher: z
      .strictObject({
        tool: z.string().optional(),
        path_pattern: z.string().optional(),
        command_pattern: z.string().optional(),
        session_id: z.string().optional(),
      })
      .nullish(),
    config: z
      .looseObject({
        priority: z.number().optional(),
        timeout_ms: z.int().min(100).max(600_000).optional(),
        async_execution: z.boolean().optional(),
        max_retries: MaxRetriesSchema().optional(),
        ask_ahead: AskAheadSchema().optional(),
      })
      .nullish(),
  }),
);

/** An A3S registration's matcher and config in acai's terms; `priority` still on A3S's scale. */
export interface A3sOptions {
  /** A3S's own ("lower runs first"); undefined: A3S's default. */
  priority: number | undefined;
  matcher: HookMatcher;
  async: boolean;
  timeoutMs?: number;
  maxRetries?: number;
  askAhead?: boolean;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Reads `{ matcher, config }`; a string says what is wrong. */
export function parseA3sOptions(options: unknown): A3sOptions | string {
  const r = A3sOptionsSchema.safeParse(options ?? {});
  if (!r.success) return formatZodError(r.error);
  const m = r.data.matcher ?? {};
  const c = r.data.config ?? {};
  const matcher: HookMatcher = {};
  // A3S's tool matcher is an exact name.
  if (m.tool !== undefined) matcher.tool = escapeRegex(m.tool);
  if (m.path_pattern !== undefined) matcher.path = m.path_pattern;
  if (m.command_pattern !== undefined) matcher.command = m.command_pattern;
  if (m.session_id !== undefined) matcher.session_id = m.session_id;
  return {
    priority: c.priority,
    matcher,
    async: c.async_execution ?? false,
    ...(c.timeout_ms === undefined ? {} : { timeoutMs: c.timeout_ms }),
    ...(c.max_retries === undefined ? {} : { maxRetries: c.max_retries }),
    ...(c.ask_ahead === true ? { askAhead: true } : {}),
  };
}

type Fields = Readonly<Record<string, unknown>>;

function asFields(value: unknown): Fields {
  return typeof value === "object" && value !== null ? (value as Fields) : {};
}

/** A3S's `usage` (OpenAI's names) from acai's. */
function usage(value: unknown): Record<string, number> {
  const u = asFields(value);
  const n = (v: unknown) => (typeof v === "number" ? v : 0);
  return {
    prompt_tokens: n(u.input_tokens),
    completion_tokens: n(u.output_tokens),
    total_tokens: n(u.total_tokens),
  };
}

/** PostToolUse's `result`: what the model sees as `output`, Bash's exit code. */
function result(event: HookEventName, p: Fields): Record<string, unknown> {
  const response = asFields(p.tool_response);
  const exit = typeof response.exit_code === "number" ? response.exit_code : undefined;
  const failed = event === "after_tool_failure";
  return withoutUndefined({
    success: !failed && (exit === undefined || exit === 0),
    output: failed ? p.error : (p.tool_output ?? JSON.stringify(p.tool_response ?? null)),
    exit_code: exit,
    duration_ms: typeof p.duration_ms === "number" ? p.duration_ms : 0,
  });
}

function toolCall(call: unknown): Record<string, unknown> {
  const c = asFields(call);
  return { id: c.tool_use_id, name: c.tool_name, args: c.tool_input };
}

/** The fields of A3S's payload interface for this event (seed: "Event Payloads"). */
function payloadOf(type: A3sEventType, event: HookEventName, p: Fields): Record<string, unknown> {
  const tool = { tool: p.tool_name, args: p.tool_input, working_directory: p.cwd };
  const model = { model_provider: p.model_provider, model_name: p.model };
  switch (type) {
    case "PreToolUse":
      return { ...tool, recent_tools: Array.isArray(p.recent_tools) ? p.recent_tools : [] };
    case "PostToolUse":
      return { ...tool, result: result(event, p) };
    case "GenerateStart":
      return {
        prompt: p.prompt ?? "",
        system_prompt: p.system_prompt,
        ...model,
        available_tools: p.available_tools ?? [],
      };
    case "GenerateEnd":
      return {
        prompt: p.prompt ?? "",
        response_text: p.text,
        tool_calls: Array.isArray(p.tool_calls) ? p.tool_calls.map(toolCall) : [],
        usage: usage(p.usage),
        duration_ms: p.duration_ms,
        model_name: p.model,
      };
    case "SessionStart":
      return { system_prompt: p.system_prompt, ...model };
    case "SessionEnd":
      return {
        total_tokens: usage(p.usage).total_tokens,
        total_tool_calls: typeof p.total_tool_calls === "number" ? p.total_tool_calls : 0,
        duration_ms: typeof p.duration_ms === "number" ? p.duration_ms : 0,
        reason: p.reason,
      };
    default:
      return type satisfies never;
  }
}

/** What an A3S handler gets: `{ event_type, payload }`, and acai's payload as `acai`. */
export function a3sHookEvent(event: HookEventName, acaiPayload: unknown): Record<string, unknown> {
  const p = asFields(acaiPayload);
  const name = a3sEventName(event);
  const type = isA3sEventType(name) ? name : undefined;
  // An event A3S has no type for never reaches an A3S handler; shown (`acai hooks test`) with the common fields.
  const own = type === undefined ? { working_directory: p.cwd } : payloadOf(type, event, p);
  const payload = withoutUndefined({ session_id: p.session_id, ...own });
  return { event_type: type ?? event, payload, acai: acaiPayload };
}

/** A3S's PostToolUse is a call that ran: a call refused before it ran is not one. */
export function a3sSees(event: HookEventName, acaiPayload: unknown): boolean {
  return event !== "after_tool_failure" || asFields(acaiPayload).is_blocked !== true;
}
