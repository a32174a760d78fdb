/**
 * The order hooks run in (hooks.md §5), and the hooks of a list indexed by the
 * events they listen to, each list in that order.
 */
import type { HookDefinition, HookEventName } from "./definition.js";

/**
 * Run order (hooks.md §5): priority high→low, user before project, then the
 * order they were configured (`order`, numbered by the registry; hooks without
 * one after those with one), then id — a total order.
 */
export function compareHooks(a: HookDefinition, b: HookDefinition): number {
  if (a.priority !== b.priority) return b.priority - a.priority;
  if (a.scope !== b.scope) return a.scope === "user" ? -1 : 1;
  const orderA = a.order ?? Number.POSITIVE_INFINITY;
  const orderB = b.order ?? Number.POSITIVE_INFINITY;
  if (orderA !== orderB) return orderA < orderB ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Hooks per event they listen to, each list in run order (`compareHooks`). */
export function indexHooksByEvent(
  hooks: readonly HookDefinition[],
): Map<HookEventName, HookDefinition[]> {
  const index = new Map<HookEventName, HookDefinition[]>();
  for (const hook of hooks) {
    for (const event of new Set(hook.events)) {
      const list = index.get(event);
      if (list) list.push(hook);
      else index.set(event, [hook]);
    }
  }
  for (const list of index.values()) list.sort(compareHooks);
  return index;
}
