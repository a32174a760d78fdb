/**
 * The bound on hooks per event (settings `hookDefaults.maxHooks`, the
 * original acai design's "Hook Exceeds Max Hooks"): past it, the hooks last
 * in run order are not loaded for that event, and a warning names them.
 */
import type { HookDefinition, HookEventName } from "../contract/definition.js";

/** Hooks per event when settings say nothing. */
export const DEFAULT_MAX_HOOKS = 100;
/** Names listed in one warning; the rest are counted. */
const NAMES_SHOWN = 10;

/**
 * `hooks` in run order → the same, each hook keeping the events where it is
 * among the first `max`; a hook left with no event is dropped.
 */
export function boundHooksPerEvent(
  hooks: readonly HookDefinition[],
  max: number,
): { hooks: HookDefinition[]; warnings: string[] } {
  const counts = new Map<HookEventName, number>();
  const cut = new Map<HookEventName, HookDefinition[]>();
  const kept: HookDefinition[] = [];
  for (const hook of hooks) {
    const events = hook.events.filter((event) => {
      const n = (counts.get(event) ?? 0) + 1;
      counts.set(event, n);
      if (n <= max) return true;
      cut.set(event, [...(cut.get(event) ?? []), hook]);
      return false;
    });
    if (events.length === hook.events.length) kept.push(hook);
    else if (events.length > 0) {
      // Narrowed in place: the registry's matchers are cached per definition object.
      hook.events = events;
      kept.push(hook);
    }
  }
  const warnings = [...cut].map(([event, dropped]) => {
    const names = dropped.slice(0, NAMES_SHOWN).map((h) => `${h.name} (${h.file})`);
    const more = dropped.length > NAMES_SHOWN ? ` and ${dropped.length - NAMES_SHOWN} more` : "";
    return `${event} has ${counts.get(event)} hooks, more than maxHooks (${max}): not loaded for it, last in run order: ${names.join(", ")}${more}; raise hookDefaults.maxHooks in ~/.acai/settings.json to load them`;
  });
  return { hooks: kept, warnings };
}
