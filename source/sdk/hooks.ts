/**
 * `acai-agent/hooks` — the typed helper for hooks written in TypeScript or JavaScript.
 *
 * ```ts
 * #!/usr/bin/env node
 * import { defineHook } from "acai-agent/hooks";
 *
 * defineHook({ name: "no-secrets", events: ["before_tool"], matcher: { tool: "Write" } }, (event) => {
 *   if (String(event.tool_input.content).includes("BEGIN PRIVATE KEY"))
 *     return { action: "block", reason: "that looks like a private key" };
 * });
 * ```
 *
 * `defineHook` implements the whole executable protocol: `HOOK_ACTION=describe`
 * prints the metadata; otherwise it reads stdin to the end, validates the event
 * JSON, calls the handler and prints its answer (nothing for "continue"), exit
 * 0. A handler that throws, or input that does not validate, ends with a
 * message on stderr and exit 1 — a failed hook, handled by its `failure` policy.
 * With `mode: "persistent"` acai starts it once per session with
 * `HOOK_ACTION=serve`, and it answers one request per line (serve.ts).
 *
 * Kept light on purpose: hook processes start often. It imports zod and the
 * schemas, nothing else of acai.
 */
import type { z } from "zod";
import type { HookEventName, HookMatcher } from "../hooks/contract/definition.js";
import { acaiAnswerSchema } from "../hooks/contract/dialects/acai.js";
import { ExecutableMetadataSchema, formatZodError } from "../hooks/contract/schemas/metadata.js";
import { type HookPayload, PAYLOAD_SCHEMAS } from "./payload-schemas.js";
import { serveRequests } from "./serve.js";

export type {
  HookEventName,
  /** acai's matcher (`tool`, `pattern`, `command`, `path`, …); `HookMatcher` is A3S's builder. */
  HookMatcher as AcaiHookMatcher,
} from "../hooks/contract/definition.js";
/** A3S's engine and builders with A3S's names (docs/plugins.md "Coming from A3S"). */
export {
  type GenerateEndEvent,
  type GenerateStartEvent,
  Hook,
  type HookAction,
  type HookConfig,
  HookEngine,
  type HookEvent,
  type HookEventPayload,
  HookEventType,
  type HookHandler as A3sHookHandler,
  HookMatcher,
  HookResponse,
  type HookResult as A3sHookResult,
  type HookShape,
  type PostToolUseEvent,
  type PreToolUseEvent,
  type SessionEndEvent,
  type SessionStartEvent,
  type ToolArgs,
  type ToolCallInfo,
} from "./a3s/index.js";
export type { HookPayload, HookPayloads } from "./payload-schemas.js";
export { HookPayloadSchema, PAYLOAD_SCHEMAS } from "./payload-schemas.js";
export {
  definePlugin,
  type PluginApi,
  type PluginHookOptions,
  type PluginResult,
} from "./plugins.js";

/** The JSON answer (hooks.md §4). Every field is optional; returning nothing means continue. */
export type HookAnswer = z.input<typeof acaiAnswerSchema>;

export interface HookMetadata<E extends HookEventName = HookEventName> {
  name: string;
  description?: string;
  events: readonly E[];
  matcher?: HookMatcher;
  /** 0–1000, higher runs first; default 100. */
  priority?: number;
  /** 100–600000; default 30000. */
  timeout_ms?: number;
  /** Started and not waited for; cannot block or modify. */
  async?: boolean;
  /** What a crash/timeout/bad answer means: "open" (default) goes on, "closed" blocks. */
  failure?: "open" | "closed";
  /** Secret-looking environment variables this hook needs (otherwise scrubbed). */
  env?: readonly string[];
  /**
   * "persistent": one process per session serving every event (requests may
   * overlap: keep per-request state local); default "spawn", a process per event.
   */
  mode?: "spawn" | "persistent";
  /**
   * With `mode: "persistent"`: may be asked at the same time as the hooks
   * before it in a chain (decision 0012), for hooks whose answer depends only
   * on the event. It may be asked about a call an earlier hook then blocks
   * or rewrites (then it is asked again). No effect on spawned hooks.
   */
  ask_ahead?: boolean;
}

/** Returning nothing (`undefined`, or `async () => {}`) means continue. */
// biome-ignore lint/suspicious/noConfusingVoidType: handlers without a return statement return void
export type HookResult = HookAnswer | undefined | void;

export type HookHandler<E extends HookEventName> = (
  event: HookPayload<E>,
) => HookResult | Promise<HookResult>;

/** Tool inputs of the built-in tools, with Claude Code's field names. */
export interface ToolInputs {
  Bash: { command: string; timeout?: number; description?: string };
  Read: { file_path: string; offset?: number; limit?: number };
  Write: { file_path: string; content: string };
  Edit: { file_path: string; old_string: string; new_string: string; replace_all?: boolean };
  Glob: { pattern: string; path?: string };
  Grep: { pattern: string; path?: string; glob?: string; [key: string]: unknown };
}

type ToolEvent = HookPayload<"before_tool" | "after_tool" | "after_tool_failure">;

/** Narrows `tool_input` when the event is a call of built-in tool `name`. */
export function isTool<T extends keyof ToolInputs, P extends ToolEvent>(
  event: P,
  name: T,
): event is P & { tool_name: T; tool_input: ToolInputs[T] } {
  return event.tool_name === name;
}

/** Where `runHook` reads and writes; `defineHook` uses the real process. */
export interface HookIO {
  env: Readonly<Record<string, string | undefined>>;
  stdin: AsyncIterable<string | Uint8Array>;
  stdout: (text: string) => Promise<void>;
  stderr: (text: string) => Promise<void>;
}

/** A hook made by `createHook` (A3S's `Hook` builder is the other `Hook` of this module). */
export interface ExecutableHook<E extends HookEventName> {
  /** The metadata as printed for describe (validated, defaults not filled in). */
  metadata: HookMetadata<E>;
  /** Validates `payload` and calls the handler: for unit tests of a hook. */
  handle(payload: unknown): Promise<HookAnswer | undefined>;
}

export class HookInputError extends Error {}

export function createHook<const E extends HookEventName>(
  metadata: HookMetadata<E>,
  handler: HookHandler<E>,
): ExecutableHook<E> {
  const checked = ExecutableMetadataSchema.safeParse(metadata);
  if (!checked.success) {
    throw new HookInputError(
      `invalid metadata for hook "${metadata.name}": ${formatZodError(checked.error)}`,
    );
  }
  return {
    metadata,
    async handle(payload) {
      const event = parsePayload(payload, metadata.events);
      const answer = await handler(event);
      if (answer === undefined || answer === null) return undefined;
      const parsed = acaiAnswerSchema.safeParse(answer);
      if (!parsed.success) {
        throw new HookInputError(
          `hook "${metadata.name}" returned an invalid answer: ${formatZodError(parsed.error)}`,
        );
      }
      return answer as HookAnswer;
    },
  };
}

function parsePayload<E extends HookEventName>(
  payload: unknown,
  events: readonly E[],
): HookPayload<E> {
  const name =
    typeof payload === "object" && payload !== null && "event" in payload
      ? (payload as { event: unknown }).event
      : undefined;
  if (typeof name !== "string" || !(name in PAYLOAD_SCHEMAS)) {
    throw new HookInputError(`stdin has no known "event" field (got ${JSON.stringify(name)})`);
  }
  if (!events.includes(name as E)) {
    throw new HookInputError(
      `received event "${name}", but this hook only handles ${events.join(", ")}`,
    );
  }
  const parsed = PAYLOAD_SCHEMAS[name as E].safeParse(payload);
  if (!parsed.success) {
    throw new HookInputError(`invalid ${name} payload on stdin: ${formatZodError(parsed.error)}`);
  }
  return parsed.data as HookPayload<E>;
}

async function readAll(stdin: AsyncIterable<string | Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stdin) {
    text += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}

/** Runs the protocol once against `io`; resolves to the exit code. */
export async function runHook<E extends HookEventName>(
  hook: ExecutableHook<E>,
  io: HookIO,
): Promise<number> {
  const name = hook.metadata.name;
  if ((io.env.HOOK_ACTION ?? "execute") === "describe") {
    await io.stdout(`${JSON.stringify(hook.metadata)}\n`);
    return 0;
  }
  if (io.env.HOOK_ACTION === "serve") return serveRequests({ name, handle: hook.handle }, io);
  try {
    const text = await readAll(io.stdin);
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch (error) {
      throw new HookInputError(`stdin is not JSON (${(error as Error).message})`);
    }
    const answer = await hook.handle(payload);
    if (answer !== undefined) await io.stdout(`${JSON.stringify(answer)}\n`);
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const detail =
      io.env.ACAI_HOOK_DEBUG && error instanceof Error && error.stack ? `\n${error.stack}` : "";
    const prefix = error instanceof HookInputError ? "" : "handler threw: ";
    await io.stderr(`${name}: ${prefix}${message}${detail}\n`);
    return 1;
  }
}

function writer(stream: NodeJS.WriteStream): (text: string) => Promise<void> {
  return (text) =>
    new Promise((resolve) => {
      stream.write(text, () => resolve());
    });
}

/**
 * Defines the hook and runs it for this process: prints metadata for
 * `HOOK_ACTION=describe`, otherwise handles the event on stdin and exits.
 */
export function defineHook<const E extends HookEventName>(
  metadata: HookMetadata<E>,
  handler: HookHandler<E>,
): Promise<never> {
  const io: HookIO = {
    env: process.env,
    stdin: process.stdin,
    stdout: writer(process.stdout),
    stderr: writer(process.stderr),
  };
  let hook: ExecutableHook<E>;
  try {
    hook = createHook(metadata, handler);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
  // Exit explicitly: a handler's leftover timers or sockets must not keep the hook alive.
  return runHook(hook, io).then((code) => process.exit(code));
}
