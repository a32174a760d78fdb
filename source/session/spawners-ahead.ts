/**
 * The hooks of the events raised before a session's first model request
 * (session_start, instructions_loaded, user_prompt, before_model) run on the
 * way to it: the sandbox spawners their processes will run through start as
 * soon as the registry knows them, beside the rest of the set-up, instead of
 * at their first run (issue 25: each spawner is a bwrap and a Node, ~40–50 ms).
 * Nothing runs in them until a hook does; a hook whose matcher then does not
 * match leaves its spawner idle until acai exits.
 */
import {
  type HookDefinition,
  type HookEventName,
  runModeOf,
} from "../hooks/contract/definition.js";

const BEFORE_FIRST_REQUEST: ReadonlySet<HookEventName> = new Set<HookEventName>([
  "session_start",
  "instructions_loaded",
  "user_prompt",
  "before_model",
]);

/** Hooks that start a process (spawned or persistent) on an event before the first request. */
export function hooksBeforeFirstRequest(hooks: readonly HookDefinition[]): HookDefinition[] {
  return hooks.filter((hook) => {
    const mode = runModeOf(hook);
    if (mode !== "spawn" && mode !== "persistent") return false;
    return hook.events.some((event) => BEFORE_FIRST_REQUEST.has(event));
  });
}

/** Starts them: one `prepare` per hook, which starts each policy's spawner once. */
export function startSpawnersAhead(
  hooks: readonly HookDefinition[],
  sandbox: { prepareFor(hook: HookDefinition): void },
): void {
  for (const hook of hooksBeforeFirstRequest(hooks)) sandbox.prepareFor(hook);
}
