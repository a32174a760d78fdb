/**
 * What the settings say about loading hooks — the default timeout per scope
 * and the bound per event — for a session and for the toolkit alike:
 * `acai hooks list` and `acai hooks test` must show and use the timeouts a
 * session would.
 */
import { effectiveSettings } from "../config/effective-settings.js";
import type { MergedSettings } from "../config/settings.js";
import type { LoadOptions } from "../hooks/registry.js";

type RegistrySettings = Pick<
  LoadOptions,
  "defaultTimeoutMs" | "projectDefaultTimeoutMs" | "maxHooks"
>;

export function hookRegistrySettings(
  loaded: { user: MergedSettings; project: MergedSettings },
  includeProject: boolean,
): RegistrySettings {
  // Only the timeouts are read from it; the limits' defaults do not matter here.
  const settings = effectiveSettings(loaded, includeProject, {
    contextCapChars: 0,
    maxStopBlocks: 0,
    sessionEndBudgetMs: 0,
  });
  const maxHooks = loaded.user.hookDefaults?.maxHooks;
  return {
    ...(settings.userHookTimeoutMs === undefined
      ? {}
      : { defaultTimeoutMs: settings.userHookTimeoutMs }),
    ...(settings.projectHookTimeoutMs === undefined
      ? {}
      : { projectDefaultTimeoutMs: settings.projectHookTimeoutMs }),
    // acai's own resource limit: the user's settings only (a project's could leave out the user's guards).
    ...(maxHooks === undefined ? {} : { maxHooks }),
  };
}
