/**
 * Types of a plugin's `register(api)` (docs/plugins.md), for plugins written
 * in TypeScript: `definePlugin((api) => { api.on("before_tool", (event) => …) })`
 * types each handler's payload by its event.
 */
import type { HookEventName, HookMatcher } from "../hooks/contract/definition.js";
import type { HookPayload } from "./payload-schemas.js";

/** What a handler may return: an answer in any dialect acai reads, a string (read like stdout), or nothing. */
// biome-ignore lint/suspicious/noConfusingVoidType: handlers without a return statement return void
export type PluginResult = Record<string, unknown> | string | undefined | void;

export interface PluginHookOptions {
  name?: string;
  matcher?: HookMatcher;
  /** 0–1000, higher runs first; default 100. */
  priority?: number;
  /** 100–600000; default 30000. */
  timeoutMs?: number;
  async?: boolean;
  failure?: "open" | "closed";
  /** `retry` answers honoured in a row (default: the session's 3). */
  maxRetries?: number;
  /**
   * May be asked at the same time as the hooks before it in a gate's chain
   * (decision 0012): for handlers whose answer depends only on the event. Its
   * answer is used only if the chain reaches it with the values it saw;
   * otherwise it is asked again. It may see calls an earlier hook blocks.
   */
  askAhead?: boolean;
}

export interface PluginApi {
  on<E extends HookEventName>(
    event: E,
    handler: (event: HookPayload<E>, signal: AbortSignal) => PluginResult | Promise<PluginResult>,
    options?: PluginHookOptions,
  ): void;
  /** OpenClaw's shape; its priority: lower runs first. */
  registerHook(registration: {
    event: string;
    handler: (ctx: Record<string, unknown>) => unknown;
    priority?: number;
    name?: string;
  }): void;
  /** A3S's shape: a hook by id, then its handler. */
  register(hook: {
    id: string;
    event_type: string;
    matcher?: {
      tool?: string;
      path_pattern?: string;
      command_pattern?: string;
      session_id?: string;
    };
    config?: {
      priority?: number;
      timeout_ms?: number;
      async_execution?: boolean;
      max_retries?: number;
      /** acai's `askAhead` (decision 0012). */
      ask_ahead?: boolean;
    };
  }): void;
  register_handler(
    id: string,
    handler: { handle(event: { event_type: string; payload: Record<string, unknown> }): unknown },
  ): void;
  /** agent-relay's `relay.pattern(namespace, handler)`, on the `pattern` event. */
  pattern(
    namespace: string,
    handler: (
      event: Record<string, unknown>,
      signal: AbortSignal,
    ) => PluginResult | Promise<PluginResult>,
    options?: Omit<PluginHookOptions, "matcher">,
  ): void;
}

/** Returns `{ register }`; `export default definePlugin((api) => { … })`. */
export function definePlugin(register: (api: PluginApi) => void | Promise<void>): {
  register: (api: PluginApi) => void | Promise<void>;
} {
  return { register };
}
