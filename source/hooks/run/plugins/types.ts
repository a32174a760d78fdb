/**
 * The seam between running one hook (run.ts) and the session's plugins
 * (hooks.md §6.3, host.ts): run.ts only knows this interface.
 */
import type { HookDefinition, HookEventName, PluginLaunch } from "../../contract/definition.js";
import type { HookRunRecord } from "../run-record.js";

export interface PluginCall {
  hook: HookDefinition;
  launch: PluginLaunch;
  event: HookEventName;
  /** The object a spawned hook would read on stdin: the handler's first argument. */
  payload: unknown;
  signal?: AbortSignal;
}

export interface PluginHooks {
  /** Calls the registered handler in its plugin's worker and waits for its answer (or its timeout). */
  call(call: PluginCall): Promise<HookRunRecord>;
}
