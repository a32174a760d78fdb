/**
 * The hook events: one module each (`before-tool.ts` …) states everything
 * acai knows about its event; this file assembles them, and every other module
 * reads the table (payload, matching, plan, fold, the dialects' names, the SDK's
 * schemas and types, `acai hooks test` and `acai hooks init`). The module list
 * (modules.generated.ts) and the agent's names (agent/raises.ts) are generated
 * from the modules (scripts/generate-events.mjs, run by `npm run build`), so
 * adding an event is one module and the place the agent emits its AgentEvent
 * (CONTRIBUTING.md, "Adding a hook event").
 *
 * Codex's HOOK_EVENT_NAMES and per-event modules and gemini-cli's per-event
 * types were the models.
 */
import { EVENT_MODULES } from "./modules.generated.js";
import type { EventRow } from "./row.js";

export type { EventRow } from "./row.js";

export { EVENT_MODULES };

type EventModules = (typeof EVENT_MODULES)[number];

export type HookEventName = EventModules["name"];

/** Each event's module by its name, with its own types (the SDK's payload types come from these). */
export type EventModuleOf = { [M in EventModules as M["name"]]: M };

/**
 * Widens a module to a row: a row is only ever called with its own agent event
 * (`HOOK_EVENT_OF` picks it by that event's type), which the type system
 * cannot follow through a lookup.
 */
const asRow = (module: EventModules): EventRow => module as unknown as EventRow;

export const HOOK_EVENT_TABLE: Readonly<Record<HookEventName, EventRow>> = Object.fromEntries(
  EVENT_MODULES.map((module) => [module.name, asRow(module)]),
) as Record<HookEventName, EventRow>;

/** Every hook event, in the table's order (the order documentation and messages list them). */
export const HOOK_EVENTS: readonly HookEventName[] = EVENT_MODULES.map((module) => module.name);

/** The row of an event. */
export function eventRow(event: HookEventName): EventRow {
  return HOOK_EVENT_TABLE[event];
}
