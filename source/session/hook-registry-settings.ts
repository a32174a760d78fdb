/**
 * What the settings say about loading hooks — the default timeout per scope
 * and the bound per event — for a session and for the toolkit alike:
 * `acai hooks list` and `acai hooks test` must show and use the timeouts a
 * session would.
 */
import { hookTimeouts } from "../config/effective-settings.js";
import type { MergedSettings } from "../config/settings.js";
import type { LoadOptions } from "../hooks/discover/registry.js";

type RegistrySettings = Pick<
  LoadOptions,
  "defaultTimeoutMs" | "projectDefaultTimeoutMs" | "maxHooks" | "httpHooks" | "disable"
>;

export function hookRegistrySettings(
  loaded: {
    user: MergedSettings;
    project: MergedSettings;
    settingsFiles?: readonly { path: string; scope: string; dialect?: string }[];
  },
  includeProject: boolean,
): RegistrySettings {
  const userFile = loaded.settingsFiles?.find(
    (file) => file.scope === "user" && file.dialect === undefined,
  )?.path;
  const httpHooks = {
    ...(loaded.user.allowedHttpHookUrls === undefined
      ? {}
      : { userUrls: loaded.user.allowedHttpHookUrls }),
    ...(loaded.project.allowedHttpHookUrls === undefined
      ? {}
      : { projectUrls: loaded.project.allowedHttpHookUrls }),
    ...(userFile === undefined ? {} : { userSettingsFile: userFile }),
  };
  const timeouts = hookTimeouts(loaded, includeProject);
  const maxHooks = loaded.user.hookDefaults?.maxHooks;
  return {
    ...(timeouts.userHookTimeoutMs === undefined
      ? {}
      : { defaultTimeoutMs: timeouts.userHookTimeoutMs }),
    ...(timeouts.projectHookTimeoutMs === undefined
      ? {}
      : { projectDefaultTimeoutMs: timeouts.projectHookTimeoutMs }),
    // acai's own resource limit: the user's settings only (a project's could leave out the user's guards).
    ...(maxHooks === undefined ? {} : { maxHooks }),
    // Where http hooks post: the user's list binds (a project's can only narrow it).
    httpHooks,
    disable: disableSettings(loaded, includeProject),
  };
}

/** disableAllHooks / disabledHooks per scope; a project's count once it is trusted, for its own hooks. */
function disableSettings(
  loaded: { user: MergedSettings; project: MergedSettings },
  includeProject: boolean,
): NonNullable<LoadOptions["disable"]> {
  const project = includeProject ? loaded.project : {};
  return {
    all: { user: allOff(loaded.user), project: allOff(project) },
    names: { user: namesOff(loaded.user), project: namesOff(project) },
  };
}

/** `disableAllHooks`, or Gemini CLI's `hooksConfig.enabled: false`. */
const allOff = (s: MergedSettings): boolean =>
  s.disableAllHooks === true || s.hooksConfig?.enabled === false;

/** `disabledHooks` and Gemini CLI's `hooksConfig.disabled`. */
const namesOff = (s: MergedSettings): string[] => [
  ...(s.disabledHooks ?? []),
  ...(s.hooksConfig?.disabled ?? []),
];
