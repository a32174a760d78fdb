/**
 * A run's side of late registrations (contract/late-hooks.ts): hooks a plugin
 * registered after its `register(api)` returned join the run's index — each
 * event's list replaced by a new one in run order, so the candidate cache
 * (plan.ts) starts again for it — and registrations that could not be loaded
 * reach the user as warnings.
 */
import type { HookDefinition, HookEventName } from "../contract/definition.js";
import type { LateHook, LateHooks } from "../contract/late-hooks.js";
import { compareHooks } from "./plan.js";

type Index = Map<HookEventName, readonly HookDefinition[]>;

/** Adds a hook to an index (a new list per event it listens to). */
function addToIndex(index: Index, hook: HookDefinition): void {
  for (const event of new Set(hook.events)) {
    const list = index.get(event) ?? [];
    if (list.some((known) => known.id === hook.id)) continue;
    index.set(event, [...list, hook].sort(compareHooks));
  }
}

/** The late hooks that arrived before this run started, added to its index. */
export function withLateHooks(index: Index, late: LateHooks | undefined): Index {
  for (const one of late?.arrived ?? []) if (one.kind === "hook") addToIndex(index, one.hook);
  return index;
}

/**
 * Follows late registrations while the run goes on: hooks into `index`, then
 * to `added` (the run starts what a new event needs, e.g. the idle timer),
 * problems to `warn` (those no run has shown yet first). Returns the unsubscribe.
 */
export function followLateHooks(
  index: Index,
  late: LateHooks | undefined,
  warn: (message: string) => void,
  added: (hook: HookDefinition) => void = () => {},
): () => void {
  if (late === undefined) return () => {};
  for (const message of late.takeUnshown()) warn(message);
  return late.subscribe((one: LateHook) => {
    if (one.kind === "hook") {
      addToIndex(index, one.hook);
      added(one.hook);
    } else warn(one.message);
  });
}
