/**
 * A settings file's `hooks` section as a whole, before its entries are read
 * (settings.ts): whether it holds anything, and what refuses the file — a
 * section of the wrong type, an event name acai does not know, a key of a
 * matcher group it does not know. A refusal names the file, the key and the
 * nearest name.
 */
import { nearestName } from "../../../shared/nearest.js";
import { claudeOnlyNames, geminiOnlyNames } from "../../contract/events/names.js";
import { HOOK_EVENTS } from "../../contract/events/table.js";
import { normalizeEventName } from "../../contract/schemas/metadata.js";

/** True when the section holds anything at all (so a project has hooks to trust). */
export function hasSettingsHooks(hooks: unknown): boolean {
  if (hooks === undefined || hooks === null) return false;
  if (typeof hooks === "object" && !Array.isArray(hooks)) return Object.keys(hooks).length > 0;
  return true;
}

/**
 * Why a settings file's `hooks` field as a whole has the wrong type (a number,
 * a string, an array…), or undefined when it is absent or an object. That is a
 * bad settings file, like any other field of the wrong type, not a broken hook.
 */
export function settingsHooksTypeError(file: { path: string; hooks: unknown }): string | undefined {
  const hooks = file.hooks;
  if (hooks === undefined || hooks === null || isPlainObject(hooks)) return undefined;
  const got = Array.isArray(hooks) ? "an array" : `${typeof hooks} ${JSON.stringify(hooks)}`;
  const shown = got.length > 70 ? `${got.slice(0, 67)}...` : got;
  return `Settings file ${file.path}: field "hooks" is invalid: expected an object keyed by event name, e.g. {"PreToolUse": [...]} (got ${shown}). Fix or remove "hooks".`;
}

/**
 * An event name acai does not know in an acai settings file: a bad settings
 * file naming the file, the key and the nearest event (a typo'd guard must
 * not quietly never run). Claude Code's own files may name Claude Code events
 * acai lacks: those are broken hooks there, listed, not a refusal to start.
 */
export function settingsHooksEventError(file: {
  path: string;
  hooks: unknown;
  dialect?: "claude";
}): string | undefined {
  if (file.dialect === "claude" || !isPlainObject(file.hooks)) return undefined;
  for (const [key, groups] of Object.entries(file.hooks)) {
    if (normalizeEventName(key) !== undefined) {
      const bad = groupKeyError(file.path, key, groups);
      if (bad !== undefined) return bad;
      continue;
    }
    const near = nearestName(key, [...HOOK_EVENTS, ...claudeOnlyNames(), ...geminiOnlyNames()]);
    const hint = near === undefined ? "" : `Did you mean "${near}"? `;
    return `Settings file ${file.path}: "hooks.${key}" is not an event acai knows. ${hint}Events: ${HOOK_EVENTS.join(", ")} (or Claude Code's names: ${claudeOnlyNames().join(", ")}; Gemini CLI's: ${geminiOnlyNames().join(", ")}).`;
  }
  return undefined;
}

/** The keys of a matcher group, `{"matcher": …, "hooks": […]}` (Gemini CLI's `sequential` too). */
const GROUP_KEYS = ["matcher", "hooks", "sequential"] as const;

/**
 * A key of a matcher group acai does not know (`"macher": "Bash"`): the
 * group would otherwise match every call, so the file is refused, naming the
 * key and the nearest one.
 */
function groupKeyError(file: string, event: string, groups: unknown): string | undefined {
  if (!Array.isArray(groups)) return undefined;
  for (const [index, group] of groups.entries()) {
    if (!isPlainObject(group)) continue;
    const unknown = Object.keys(group).find(
      (key) => !(GROUP_KEYS as readonly string[]).includes(key),
    );
    if (unknown === undefined) continue;
    const near = nearestName(unknown, GROUP_KEYS);
    const hint = near === undefined ? "" : `Did you mean "${near}"? `;
    return `Settings file ${file}: "hooks.${event}[${index}].${unknown}" is not a key of a hook group. ${hint}A group is {"matcher": "Bash", "hooks": [...]}; an ignored key would make its hooks run on every event.`;
  }
  return undefined;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
