/**
 * `acai hooks init <name> --type http|prompt|agent|mcp_tool`: a settings
 * entry of that type (Claude Code's shape) added to the project's
 * `.acai/settings.json`, with the fields a user fills in; nothing is
 * overwritten (an entry of the same name is refused without --force).
 */
import { CLAUDE_EVENT_NAMES, type HookEventName } from "../../hooks/contract/definition.js";
import { isToolEvent } from "../../hooks/contract/events/names.js";
import { SettingsHookEntrySchema } from "../../hooks/contract/schemas/settings-hooks.js";

export const SETTINGS_HOOK_TYPES = ["http", "prompt", "agent", "mcp_tool"] as const;
export type SettingsHookType = (typeof SETTINGS_HOOK_TYPES)[number];

/** The entry `init` writes for a type: every required field, with a value that runs as it is. */
export function settingsEntry(type: SettingsHookType, name: string): Record<string, unknown> {
  const entry = entryOf(type, name);
  // What init writes must load: checked against the schema the session uses.
  SettingsHookEntrySchema.parse(entry);
  return entry;
}

function entryOf(type: SettingsHookType, name: string): Record<string, unknown> {
  switch (type) {
    case "http":
      return {
        type,
        name,
        url: "http://127.0.0.1:8080/hooks/acai",
        headers: { Authorization: "Bearer $HOOK_TOKEN" },
        allowedEnvVars: ["HOOK_TOKEN"],
        timeout: 10,
      };
    case "prompt":
      return {
        type,
        name,
        prompt:
          'Does this event break a project rule? Event: $ARGUMENTS. Answer {"ok": true}, or {"ok": false, "reason": "..."} saying what to do instead.',
        timeout: 30,
      };
    case "agent":
      return {
        type,
        name,
        prompt:
          'Read the files this event touches and check it against CONTRIBUTING.md. Event: $ARGUMENTS. Answer {"ok": true} or {"ok": false, "reason": "..."}.',
        timeout: 120,
      };
    case "mcp_tool":
      return {
        type,
        name,
        server: "my-server",
        tool: "check",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code's placeholder syntax
        input: { payload: "${tool_input}" },
        timeout: 30,
      };
    default:
      return type satisfies never;
  }
}

/**
 * `settings` with the entry added under the event's Claude Code name (a
 * `matcher` of every tool on tool events); an error when a hook of that name
 * is there already and `force` is not given (with it, that one is replaced).
 */
export function withEntry(
  settings: Record<string, unknown>,
  event: HookEventName,
  entry: Record<string, unknown>,
  force: boolean,
): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  if (settings.hooks !== undefined && !isRecord(settings.hooks)) {
    return { ok: false, error: 'its "hooks" is not an object; fix it first' };
  }
  const hooks = isRecord(settings.hooks) ? { ...settings.hooks } : {};
  const key = CLAUDE_EVENT_NAMES[event];
  const groups = Array.isArray(hooks[key]) ? (hooks[key] as unknown[]) : [];
  const named = (e: unknown) => isRecord(e) && e.name === entry.name;
  const has = groups.some((g) => isRecord(g) && Array.isArray(g.hooks) && g.hooks.some(named));
  if (has && !force) {
    return { ok: false, error: `it has a hook named "${String(entry.name)}" on ${key} already` };
  }
  const kept = groups.flatMap((g) => {
    if (!isRecord(g) || !Array.isArray(g.hooks) || !g.hooks.some(named)) return [g];
    const rest = g.hooks.filter((e) => !named(e));
    return rest.length === 0 ? [] : [{ ...g, hooks: rest }];
  });
  const group = isToolEvent(event) ? { matcher: "*", hooks: [entry] } : { hooks: [entry] };
  hooks[key] = [...kept, group];
  return { ok: true, value: { ...settings, hooks } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
