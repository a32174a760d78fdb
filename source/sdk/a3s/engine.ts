/**
 * A3S's `HookEngine` with A3S's names, in process: `register`, `unregister`,
 * `register_handler`, `unregister_handler`, `fire`, `all_hooks`, `get_hook`,
 * `hook_count`. A program fires its own events through it; a plugin file
 * that exports one (`export default engine`) has its hooks run by acai on
 * acai's events, as any plugin's (docs/plugins.md "Coming from A3S").
 *
 * `fire` is A3S's execution flow: the matching hooks by priority (lower
 * first, then registration order), one after another; Continue applies its
 * `modified` and goes on, Block and Retry stop and are returned, Skip stops
 * and goes on. Async hooks are started and count as Continue. A handler that
 * throws, answers something that is not an answer, or passes its
 * `timeout_ms` counts as Continue (acai's `failure: "open"`, as for A3S
 * plugins); `failures()` lists what went wrong.
 */
import { a3sEventType } from "../../hooks/contract/a3s.js";
import { Hook, HookMatcher } from "./builders.js";
import { matches, type PreparedMatcher, prepareMatcher } from "./match.js";
import type {
  HookConfig,
  HookEvent,
  HookEventPayload,
  HookEventType,
  HookHandler,
  HookResponse,
  HookResult,
} from "./types.js";

/** A hook as A3S's docs register it: a `Hook`, or the same fields as plain data. */
export interface HookShape {
  id: string;
  event_type: HookEventType | string;
  matcher?: Partial<HookMatcher> | null;
  config?: Partial<HookConfig> | null;
}

const DEFAULT_PRIORITY = 100;
const DEFAULT_TIMEOUT_MS = 30_000;

interface Entry {
  hook: Hook;
  type: HookEventType;
  matcher: PreparedMatcher;
}

type Payload = Record<string, unknown>;

export class HookEngine {
  private readonly hooks = new Map<string, Entry>();
  private readonly handlers = new Map<string, HookHandler>();
  private readonly errors: string[] = [];

  static new(): HookEngine {
    return new HookEngine();
  }

  /** Registers (or replaces) a hook; throws naming the hook when its event type or matcher is invalid. */
  register(hook: Hook | HookShape): void {
    if (typeof hook?.id !== "string" || hook.id === "") {
      throw new TypeError("A3S hook without an id: register(Hook.new(id, event_type))");
    }
    const type = a3sEventType(hook.event_type);
    if (type === undefined) {
      throw new TypeError(
        `A3S hook "${hook.id}": unknown event_type ${JSON.stringify(hook.event_type)} (PreToolUse, PostToolUse, GenerateStart, GenerateEnd, SessionStart, SessionEnd)`,
      );
    }
    let built = hook instanceof Hook ? hook : Hook.new(hook.id, type);
    if (!(hook instanceof Hook)) {
      if (hook.matcher) built = built.with_matcher(hook.matcher);
      if (hook.config) built = built.with_config(hook.config);
    }
    const matcher = prepareMatcher(built.id, built.matcher ?? HookMatcher.new());
    this.hooks.delete(built.id);
    this.hooks.set(built.id, { hook: built, type, matcher });
  }

  unregister(hookId: string): Hook | null {
    const entry = this.hooks.get(hookId);
    this.hooks.delete(hookId);
    return entry?.hook ?? null;
  }

  register_handler(hookId: string, handler: HookHandler): void {
    this.handlers.set(hookId, handler);
  }

  unregister_handler(hookId: string): void {
    this.handlers.delete(hookId);
  }

  /** The handler of a hook (acai's plugin worker pairs each hook with it). */
  get_handler(hookId: string): HookHandler | undefined {
    return this.handlers.get(hookId);
  }

  all_hooks(): Hook[] {
    return [...this.hooks.values()].map((entry) => entry.hook);
  }

  get_hook(id: string): Hook | null {
    return this.hooks.get(id)?.hook ?? null;
  }

  hook_count(): number {
    return this.hooks.size;
  }

  /** What went wrong in handlers so far (thrown, timed out, not an answer), oldest first. */
  failures(): string[] {
    return [...this.errors];
  }

  async fire(event: HookEvent | { event_type: string; payload: object }): Promise<HookResult> {
    const type = a3sEventType(event.event_type);
    if (type === undefined) {
      throw new TypeError(`fire: unknown event_type ${JSON.stringify(event.event_type)}`);
    }
    let payload: Payload = { ...(event.payload as Payload) };
    let modified: Payload | undefined;
    for (const entry of await this.matching(type, payload)) {
      const handler = this.handlers.get(entry.hook.id);
      if (handler === undefined) continue;
      const current = { event_type: type, payload: payload as unknown as HookEventPayload };
      if (entry.hook.config.async_execution === true) {
        void this.call(entry.hook, handler, current);
        continue;
      }
      const answer = await this.call(entry.hook, handler, current);
      switch (answer?.action.toLowerCase()) {
        case "block":
          return {
            action: "Block",
            reason: answer?.reason ?? `blocked by hook "${entry.hook.id}"`,
          };
        case "retry":
          return { action: "Retry", retry_delay_ms: answer?.retry_delay_ms ?? 1000 };
        case "skip":
          return modified === undefined ? { action: "Skip" } : { action: "Skip", modified };
        default:
          if (answer?.modified !== undefined) {
            [payload, modified] = applyModified(type, payload, modified, answer.modified);
          }
      }
    }
    return modified === undefined ? { action: "Continue" } : { action: "Continue", modified };
  }

  /** The hooks of this event type whose matcher holds, lower priority first, then in registration order. */
  private async matching(type: HookEventType, payload: Payload): Promise<Entry[]> {
    const out: Entry[] = [];
    for (const entry of this.hooks.values()) {
      if (entry.type === type && (await matches(entry.matcher, payload))) out.push(entry);
    }
    const priority = (e: Entry) => e.hook.config.priority ?? DEFAULT_PRIORITY;
    return out.sort((a, b) => priority(a) - priority(b));
  }

  private async call(
    hook: Hook,
    handler: HookHandler,
    event: HookEvent,
  ): Promise<HookResponse | undefined> {
    const timeoutMs = hook.config.timeout_ms ?? DEFAULT_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
    });
    try {
      const run = typeof handler === "function" ? handler(event) : handler.handle(event);
      const answer = await Promise.race([Promise.resolve(run), timeout]);
      if (answer === "timeout") return this.failed(hook, `timed out after ${timeoutMs} ms`);
      if (!isResponse(answer))
        return this.failed(hook, "answered something that is not an A3S HookResponse");
      return answer;
    } catch (error) {
      return this.failed(hook, `threw ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      clearTimeout(timer);
    }
  }

  private failed(hook: Hook, what: string): undefined {
    this.errors.push(`A3S hook "${hook.id}" ${what}; counted as Continue`);
    return undefined;
  }
}

function isResponse(value: unknown): value is HookResponse {
  if (typeof value !== "object" || value === null) return false;
  const action = (value as { action?: unknown }).action;
  return (
    typeof action === "string" &&
    ["continue", "block", "retry", "skip"].includes(action.toLowerCase())
  );
}

/**
 * Continue's `modified`, as the next hook sees it: PreToolUse's new `args`
 * (the whole input), PostToolUse's new `result` (merged), other events' fields
 * (merged). Returns the payload and what `fire` reports as modified.
 */
function applyModified(
  type: HookEventType,
  payload: Payload,
  before: Payload | undefined,
  modified: Payload,
): [Payload, Payload] {
  switch (type) {
    case "PreToolUse":
      return [{ ...payload, args: modified }, modified];
    case "PostToolUse": {
      const result = { ...(payload.result as Payload | undefined), ...modified };
      return [{ ...payload, result }, result];
    }
    default:
      return [
        { ...payload, ...modified },
        { ...before, ...modified },
      ];
  }
}
