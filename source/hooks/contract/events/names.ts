/**
 * Lookups derived from the events table: an event's names in each dialect,
 * and back from any accepted spelling to acai's name, and from an agent event
 * to the hook event it raises.
 */
import type { AgentEventType } from "../../../agent/events.js";
import { otherSystemEventName } from "./system-names.js";
import { HOOK_EVENT_TABLE, HOOK_EVENTS, type HookEventName } from "./table.js";

/** Claude Code spelling of each event, sent as `hook_event_name`. Events Claude Code lacks keep acai's name. */
export const CLAUDE_EVENT_NAMES: Readonly<Record<HookEventName, string>> = Object.fromEntries(
  HOOK_EVENTS.map((event) => [event, HOOK_EVENT_TABLE[event].claude]),
) as Record<HookEventName, string>;

/**
 * The Agent Hooks spec's current name of an event; acai's name where the spec
 * has none. A HOOK.md hook receives its own trigger's spelling as `event_type`
 * instead (payload.ts `agentHooksEventType`).
 */
export function agentHooksEventName(event: HookEventName): string {
  return HOOK_EVENT_TABLE[event].agentHooks?.name ?? event;
}

/**
 * Agent Hooks spec names (HOOK.md `trigger`), current and older spellings →
 * acai's name. acai's own names are accepted anyway (the spec's subagent events
 * are spelled as acai's). Events acai does not emit are deliberately absent:
 * such a hook is reported as broken instead of silently never firing.
 */
export const AGENT_HOOKS_TRIGGERS: Readonly<Record<string, HookEventName>> = Object.fromEntries(
  HOOK_EVENTS.flatMap((event) => {
    const spec = HOOK_EVENT_TABLE[event].agentHooks;
    if (spec === undefined) return [];
    return [spec.name, ...(spec.aliases ?? [])].map((name) => [name, event]);
  }),
);

const CANONICAL: ReadonlySet<string> = new Set(HOOK_EVENTS);
const FROM_CLAUDE: ReadonlyMap<string, HookEventName> = new Map(
  HOOK_EVENTS.map((event) => [CLAUDE_EVENT_NAMES[event], event]),
);

/**
 * Gemini CLI's event names (its settings keys) → acai's event, from the rows'
 * `gemini` (SessionStart, SessionEnd and Notification are Claude Code's too,
 * with the same meaning). Gemini events acai lacks are absent: unknown.
 */
export const GEMINI_EVENTS: Readonly<Record<string, HookEventName>> = Object.fromEntries(
  HOOK_EVENTS.flatMap((event) =>
    (HOOK_EVENT_TABLE[event].gemini ?? []).map((name) => [name, event]),
  ),
);

/** Gemini CLI's names that are neither acai's nor Claude Code's, in table order (for messages). */
export function geminiOnlyNames(): string[] {
  return Object.keys(GEMINI_EVENTS).filter((n) => !CANONICAL.has(n) && !FROM_CLAUDE.has(n));
}

/** Whether `name` is acai's own name of an event. */
export function isHookEventName(name: string): name is HookEventName {
  return CANONICAL.has(name);
}

/**
 * Canonical snake_case, Claude Code, Gemini CLI, acai-ts or agent-relay
 * spelling → canonical name (system-names.ts); undefined when unknown.
 */
export function normalizeEventName(name: string): HookEventName | undefined {
  if (isHookEventName(name)) return name;
  const gemini = Object.hasOwn(GEMINI_EVENTS, name) ? GEMINI_EVENTS[name] : undefined;
  return FROM_CLAUDE.get(name) ?? gemini ?? otherSystemEventName(name);
}

/** Like `normalizeEventName`, also accepting the Agent Hooks spec names. */
export function normalizeAgentHooksEventName(name: string): HookEventName | undefined {
  return normalizeEventName(name) ?? AGENT_HOOKS_TRIGGERS[name];
}

/** Claude Code names that differ from acai's, in table order (for messages). */
export function claudeOnlyNames(): string[] {
  return HOOK_EVENTS.map((e) => CLAUDE_EVENT_NAMES[e]).filter((n) => !CANONICAL.has(n));
}

/** Agent events that reach hooks; every other agent event passes through with no hook work. */
export const HOOK_EVENT_OF: Readonly<Partial<Record<AgentEventType, HookEventName>>> =
  Object.fromEntries(HOOK_EVENTS.map((event) => [HOOK_EVENT_TABLE[event].agentEvent, event]));

/** Tool events: `tool`, `pattern`, `command`, `path` matchers apply. */
export function isToolEvent(event: HookEventName): boolean {
  return HOOK_EVENT_TABLE[event].subject === "tool";
}

/** Events with a kind (session_start source, notification type): `source` applies. */
export function hasSource(event: HookEventName): boolean {
  return HOOK_EVENT_TABLE[event].subject === "source";
}

/** The `pattern` event: `namespace` applies. */
export function hasNamespace(event: HookEventName): boolean {
  return HOOK_EVENT_TABLE[event].subject === "namespace";
}

/** Observe-only: their hooks run concurrently and cannot block or modify. */
export function isObserveOnly(event: HookEventName): boolean {
  return HOOK_EVENT_TABLE[event].kind === "observe";
}

/**
 * OpenClaw's hook names (kebab-case, as the rows give them) → acai's events
 * (after-tool-call: a tool that returned and one that failed).
 */
export const OPENCLAW_EVENTS: Readonly<Record<string, readonly HookEventName[]>> = (() => {
  const out: Record<string, HookEventName[]> = {};
  for (const event of HOOK_EVENTS) {
    for (const name of HOOK_EVENT_TABLE[event].plugins?.openclaw ?? []) {
      if (Object.hasOwn(out, name)) out[name]?.push(event);
      else out[name] = [event];
    }
  }
  return out;
})();

/**
 * A3S's event types (PascalCase) → acai's events: the rows that name it
 * (PostToolUse is two, after_tool and after_tool_failure: every call that ran).
 */
export const A3S_EVENTS: Readonly<Record<string, readonly HookEventName[]>> = Object.fromEntries(
  [...new Set(HOOK_EVENTS.map((event) => HOOK_EVENT_TABLE[event].plugins?.a3s?.name))]
    .filter((name) => name !== undefined)
    .map((name) => [
      name,
      HOOK_EVENTS.filter((event) => HOOK_EVENT_TABLE[event].plugins?.a3s?.name === name),
    ]),
);

/** A3S's snake_case event types → its PascalCase ones. */
export const A3S_SNAKE: Readonly<Record<string, string>> = Object.fromEntries(
  HOOK_EVENTS.flatMap((event) => {
    const a3s = HOOK_EVENT_TABLE[event].plugins?.a3s;
    return a3s === undefined ? [] : [[a3s.snake, a3s.name]];
  }),
);

/** A3S's name of an acai event (what an A3S handler sees as `event_type`). */
export function a3sEventName(event: HookEventName): string | undefined {
  return HOOK_EVENT_TABLE[event].plugins?.a3s?.name;
}
