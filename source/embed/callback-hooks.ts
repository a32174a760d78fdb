/**
 * `query()`'s `hooks` option as hook definitions (docs/sdk.md): Claude Code's
 * settings shape with functions instead of commands —
 * `{ PreToolUse: [{ matcher: "Bash", hooks: [fn] }] }` — under Claude Code's
 * event names or acai's. Each function becomes a user-scope hook of type
 * `callback`, placed and ordered like any other hook. A name acai does not
 * know is an error naming the nearest one.
 */
import type {
  CallbackLaunch,
  HookDefinition,
  HookEventName,
} from "../hooks/contract/definition.js";
import { claudeOnlyNames, normalizeEventName } from "../hooks/contract/events/names.js";
import { HOOK_EVENTS } from "../hooks/contract/events/table.js";
import { matcherForEvent } from "../hooks/discover/sources/settings.js";
import { nearestName } from "../shared/nearest.js";

export type HookCallback = CallbackLaunch["callback"];

export interface CallbackMatcher {
  /** Claude Code's matcher: a tool name, `A|B`, a regular expression, or `*` / absent for all. */
  matcher?: string;
  hooks: HookCallback[];
  /** Seconds, as in Claude Code's settings (default 60). */
  timeout?: number;
  /** Higher runs first (acai's priority, default 100). */
  priority?: number;
}

/** Event name (Claude Code's or acai's) → matchers with their callbacks. */
export type CallbackHooks = Partial<Record<string, CallbackMatcher[]>>;

const DEFAULT_TIMEOUT_S = 60;

export function callbackDefinitions(hooks: CallbackHooks | undefined): HookDefinition[] {
  const definitions: HookDefinition[] = [];
  for (const [name, groups] of Object.entries(hooks ?? {})) {
    const event = eventOf(name);
    (groups ?? []).forEach((group, g) => {
      group.hooks.forEach((callback, h) => {
        definitions.push(definition(event, name, group, callback, `${name}[${g}].hooks[${h}]`));
      });
    });
  }
  return definitions;
}

function eventOf(name: string): HookEventName {
  const event = normalizeEventName(name);
  if (event !== undefined) return event;
  const near = nearestName(name, [...HOOK_EVENTS, ...claudeOnlyNames()]);
  const hint = near === undefined ? "" : ` Did you mean "${near}"?`;
  throw new TypeError(`query(): hooks.${name} is not an event acai knows.${hint}`);
}

function definition(
  event: HookEventName,
  name: string,
  group: CallbackMatcher,
  callback: HookCallback,
  where: string,
): HookDefinition {
  if (typeof callback !== "function") {
    throw new TypeError(`query(): hooks.${where} is not a function`);
  }
  const seconds = group.timeout ?? DEFAULT_TIMEOUT_S;
  return {
    id: `user:sdk:${where}`,
    name: callback.name || `${name} callback`,
    events: [event],
    matcher: matcherForEvent(event, group.matcher),
    priority: group.priority ?? 100,
    timeoutMs: Math.min(600_000, Math.max(100, Math.round(seconds * 1000))),
    async: false,
    failure: "open",
    env: [],
    scope: "user",
    sourceKind: "sdk",
    file: "query()",
    dialect: "acai",
    launch: { mode: "callback", command: `query() ${where}`, args: [], viaShell: false, callback },
  };
}
