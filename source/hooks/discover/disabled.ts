/**
 * Hooks the settings keep from running (hooks.md §6): `disableAllHooks` and
 * `disabledHooks` (names; `acai hooks disable NAME` writes them). A user's
 * setting reaches every hook; a project's only the project's own (a project
 * never switches off the user's guards). A disabled hook stays configured,
 * with the reason, so the audit log can say why it did not run.
 */
import type { HookDefinition, HookScope } from "../contract/definition.js";

export interface DisableSettings {
  /** `disableAllHooks: true`, per scope of the file that says it. */
  all?: Partial<Record<HookScope, boolean>>;
  /** `disabledHooks`, per scope of the file that lists them. */
  names?: Partial<Record<HookScope, readonly string[]>>;
}

const WHERE: Record<HookScope, string> = {
  user: "the user's settings",
  project: "the project's settings",
};

/** Why the settings disable this hook, or undefined. */
function disabledBy(hook: HookDefinition, settings: DisableSettings): string | undefined {
  for (const scope of ["user", "project"] as const) {
    if (scope === "project" && hook.scope !== "project") continue;
    if (settings.all?.[scope] === true) return `disableAllHooks is set in ${WHERE[scope]}`;
    if (settings.names?.[scope]?.includes(hook.name) === true) {
      return scope === "user"
        ? `disabledHooks in ${WHERE.user} names it (acai hooks enable ${hook.name})`
        : `disabledHooks in ${WHERE.project} names it (the project's own choice; edit that file to run it)`;
    }
  }
  return undefined;
}

/** Marks, in place, the hooks the settings disable (a hook already disabled keeps its reason). */
export function markDisabled(hooks: readonly HookDefinition[], settings: DisableSettings): void {
  if (settings.all === undefined && settings.names === undefined) return;
  for (const hook of hooks) {
    if (hook.disabled !== undefined) continue;
    const why = disabledBy(hook, settings);
    if (why !== undefined) hook.disabled = why;
  }
}
