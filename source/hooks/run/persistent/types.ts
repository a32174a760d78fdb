/**
 * The seam between running one hook (run.ts) and the session's persistent
 * hook processes (hooks.md §6.4, host.ts): run.ts only knows this interface.
 */
import type { HookDefinition, HookEventName } from "../../contract/definition.js";
import type { HookRunRecord } from "../run-record.js";

export interface PersistentRequest {
  hook: HookDefinition;
  event: HookEventName;
  /** The object a spawned hook would read on stdin; sent with an `id`. */
  payload: unknown;
  signal?: AbortSignal;
}

export interface PersistentHooks {
  /** Sends one request to the hook's process (started on first use) and waits for its answer. */
  request(request: PersistentRequest): Promise<HookRunRecord>;
}
