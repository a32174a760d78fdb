/**
 * Claude Code settings `hooks` → acai settings `hooks` (pure; the command
 * reads and writes the files).
 *
 * Both use Claude Code's shape, and acai's settings keep Claude Code's units
 * (timeouts in seconds) and matcher meaning, so most of a conversion is
 * carrying things over unchanged. What does change:
 * - event names become acai's canonical names (`PreToolUse` → `before_tool`);
 *   events acai does not have are left out and reported;
 * - an entry without `timeout` gets Claude Code's default written out (60 s),
 *   because acai's default is 30 s; timeouts beyond acai's 600 s are clamped;
 * - only `type: "command"` entries exist in acai; other types are reported;
 * - fields acai does not know are dropped and reported.
 * Matcher strings are kept as written; names of Claude Code tools acai lacks
 * are reported (the hook will simply never see those tools). Secret-looking
 * variables a hook reads (import-secrets.ts) are written into its `env`,
 * since acai removes them from hooks otherwise.
 */

import { isToolEvent, normalizeEventName } from "../../hooks/contract/events/names.js";
import { HOOK_EVENTS, type HookEventName } from "../../hooks/contract/events/table.js";
import { clampTimeoutSeconds } from "../../hooks/contract/schemas/settings-hooks.js";
import type { SecretsOfHook } from "./import-secrets.js";

/** Claude Code's default hook timeout, in seconds. */
const CLAUDE_DEFAULT_TIMEOUT_S = 60;

/** Claude Code tools acai has no counterpart for (as of writing). */
const CLAUDE_ONLY_TOOLS = new Set([
  "MultiEdit",
  "NotebookEdit",
  "NotebookRead",
  "WebFetch",
  "WebSearch",
  "Task",
  "TodoWrite",
  "TodoRead",
  "LS",
  "ExitPlanMode",
  "BashOutput",
  "KillShell",
  "SlashCommand",
  "Skill",
]);
const ACAI_SESSION_SOURCES = new Set(["startup", "resume"]);

interface SettingsHookEntryOut {
  type: "command";
  command: string;
  timeout: number;
  /** Secret-looking variables the hook reads, which acai passes only when listed. */
  env?: string[];
}

interface SettingsHookGroupOut {
  matcher?: string;
  hooks: SettingsHookEntryOut[];
}

export type SettingsHooksOut = Partial<Record<HookEventName, SettingsHookGroupOut[]>>;

export interface ConversionResult {
  hooks: SettingsHooksOut;
  /** What was changed on the way (shown to the user). */
  changes: string[];
  /** What could not be carried over, with where it was. */
  dropped: string[];
  /** Carried over, but worth knowing. */
  notes: string[];
  /** Secret-looking variables added to an entry's `env`, one line per entry. */
  secrets: string[];
  count: number;
}

export interface ConvertOptions {
  /** The secret-looking variables a command reads (itself and the scripts it names). */
  secretsOf?: (command: string) => SecretsOfHook;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function matcherNotes(event: HookEventName, matcher: string, where: string): string[] {
  const notes: string[] = [];
  const names = matcher.split("|").map((n) => n.trim());
  if (isToolEvent(event)) {
    const lacking = names.filter((n) => CLAUDE_ONLY_TOOLS.has(n) || n.startsWith("mcp__"));
    if (lacking.length > 0) {
      const rest = names.filter((n) => !lacking.includes(n));
      const missing = `${lacking.join(", ")}, which ${lacking.length === 1 ? "does" : "do"} not exist in acai`;
      notes.push(
        rest.length > 0
          ? `${where}: matcher ${JSON.stringify(matcher)} names ${missing}; kept as written: the rest of the matcher (${rest.join("|")}) still applies`
          : `${where}: matcher ${JSON.stringify(matcher)} names only ${missing}; kept as written, but this entry never fires in acai`,
      );
    }
  } else if (event === "session_start") {
    const lacking = names.filter((n) => /^[A-Za-z_]+$/.test(n) && !ACAI_SESSION_SOURCES.has(n));
    if (lacking.length > 0) {
      notes.push(
        `${where}: SessionStart source ${lacking.join(", ")} does not occur in acai (it has startup and resume); kept`,
      );
    }
  }
  return notes;
}

/** Converts the `hooks` section of a Claude Code settings file. Never throws on odd input: it reports. */
export function convertClaudeHooks(hooks: unknown, options: ConvertOptions = {}): ConversionResult {
  const result: ConversionResult = {
    hooks: {},
    changes: [],
    dropped: [],
    notes: [],
    secrets: [],
    count: 0,
  };
  if (hooks === undefined) return result;
  if (!isObject(hooks)) {
    result.dropped.push('hooks: not an object keyed by event name (e.g. {"PreToolUse": [...]})');
    return result;
  }
  for (const [eventKey, groups] of Object.entries(hooks)) {
    const event = normalizeEventName(eventKey);
    const where = `hooks.${eventKey}`;
    if (event === undefined) {
      result.dropped.push(
        `${where}: acai has no ${eventKey} event (its events: ${HOOK_EVENTS.join(", ")})`,
      );
      continue;
    }
    if (!Array.isArray(groups)) {
      result.dropped.push(`${where}: not an array of {"matcher", "hooks"} groups`);
      continue;
    }
    if (eventKey !== event) result.changes.push(`${eventKey} → ${event}`);
    groups.forEach((group, groupIndex) => {
      const out = convertGroup(result, event, group, `${where}[${groupIndex}]`, options);
      if (out !== undefined && out.hooks.length > 0) {
        const list = result.hooks[event] ?? [];
        list.push(out);
        result.hooks[event] = list;
      }
    });
  }
  return result;
}

/** One `{matcher, hooks}` group; what is left out or changed goes to `result`. */
function convertGroup(
  result: ConversionResult,
  event: HookEventName,
  group: unknown,
  groupWhere: string,
  options: ConvertOptions,
): SettingsHookGroupOut | undefined {
  if (!isObject(group) || !Array.isArray(group.hooks)) {
    result.dropped.push(`${groupWhere}: not a {"matcher", "hooks": [...]} group`);
    return undefined;
  }
  const out: SettingsHookGroupOut = { hooks: [] };
  if (typeof group.matcher === "string") {
    out.matcher = group.matcher;
    result.notes.push(...matcherNotes(event, group.matcher, groupWhere));
  } else if (group.matcher !== undefined) {
    result.dropped.push(
      `${groupWhere}.matcher: not a string; left out (the group matches everything)`,
    );
  }
  const otherGroupKeys = Object.keys(group).filter((k) => k !== "matcher" && k !== "hooks");
  if (otherGroupKeys.length > 0) {
    result.dropped.push(`${groupWhere}: fields acai does not use: ${otherGroupKeys.join(", ")}`);
  }
  group.hooks.forEach((entry, entryIndex) => {
    const converted = convertEntry(result, entry, `${groupWhere}.hooks[${entryIndex}]`, options);
    if (converted === undefined) return;
    out.hooks.push(converted);
    result.count++;
  });
  return out;
}

/** One hook entry; only `command` hooks with a command come over. */
function convertEntry(
  result: ConversionResult,
  entry: unknown,
  entryWhere: string,
  options: ConvertOptions,
): SettingsHookEntryOut | undefined {
  if (!isObject(entry)) {
    result.dropped.push(`${entryWhere}: not an object`);
    return undefined;
  }
  if (entry.type !== "command") {
    result.dropped.push(
      `${entryWhere}: type ${JSON.stringify(entry.type)} hooks do not exist in acai (only "command")`,
    );
    return undefined;
  }
  if (typeof entry.command !== "string" || entry.command.trim() === "") {
    result.dropped.push(`${entryWhere}: no command`);
    return undefined;
  }
  const timeout = entryTimeout(result, entry.timeout, entryWhere);
  const otherKeys = Object.keys(entry).filter(
    (k) => k !== "type" && k !== "command" && k !== "timeout",
  );
  if (otherKeys.length > 0) {
    result.dropped.push(`${entryWhere}: fields acai does not use: ${otherKeys.join(", ")}`);
  }
  const secrets = options.secretsOf?.(entry.command);
  if (secrets !== undefined && secrets.names.length > 0) {
    result.secrets.push(`${entryWhere}: ${secretsLine(secrets)}`);
  }
  return {
    type: "command",
    command: entry.command,
    timeout,
    ...(secrets !== undefined && secrets.names.length > 0 ? { env: secrets.names } : {}),
  };
}

/** The entry's timeout in seconds: Claude Code's default when absent or invalid, clamped as acai would. */
function entryTimeout(result: ConversionResult, timeout: unknown, entryWhere: string): number {
  if (timeout === undefined) {
    result.changes.push(
      `${entryWhere}: no timeout → ${CLAUDE_DEFAULT_TIMEOUT_S} (Claude Code's default, in seconds; acai's own default would be 30)`,
    );
    return CLAUDE_DEFAULT_TIMEOUT_S;
  }
  if (typeof timeout !== "number" || !Number.isFinite(timeout) || timeout <= 0) {
    result.changes.push(
      `${entryWhere}: invalid timeout ${JSON.stringify(timeout)} → ${CLAUDE_DEFAULT_TIMEOUT_S} s`,
    );
    return CLAUDE_DEFAULT_TIMEOUT_S;
  }
  // Seconds in both; clamped as acai would clamp it at load time, but written out.
  const clamped = clampTimeoutSeconds(timeout);
  if (clamped.note !== undefined) result.changes.push(`${entryWhere}: ${clamped.note}`);
  return clamped.seconds;
}

/** "reads X (in the command), Y (in scripts/tts.py): added to its env". */
function secretsLine(secrets: SecretsOfHook): string {
  const parts = secrets.names.map(
    (name) => `${name} (in ${(secrets.where.get(name) ?? []).join(", ")})`,
  );
  return `reads ${parts.join(", ")}: added to its "env", so acai passes ${secrets.names.length === 1 ? "it" : "them"} (hooks get no secret-looking variable they do not list)`;
}

function entryKey(event: string, matcher: string | undefined, command: string): string {
  return JSON.stringify([event, matcher?.trim() ?? "", command.trim()]);
}

/**
 * Adds the converted groups to an existing acai `hooks` section. An entry
 * already there (same event in either spelling, matcher and command) is not
 * added twice. Returns the new section and how many entries were skipped.
 */
export function mergeIntoSettingsHooks(
  existing: unknown,
  converted: SettingsHooksOut,
): { hooks: Record<string, unknown>; added: number; skipped: number } {
  const hooks: Record<string, unknown> = isObject(existing) ? structuredClone(existing) : {};
  const seen = new Set<string>();
  for (const [key, groups] of Object.entries(hooks)) {
    const event = normalizeEventName(key) ?? key;
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) continue;
      const matcher = typeof group.matcher === "string" ? group.matcher : undefined;
      for (const entry of group.hooks) {
        if (isObject(entry) && typeof entry.command === "string")
          seen.add(entryKey(event, matcher, entry.command));
      }
    }
  }
  let added = 0;
  let skipped = 0;
  for (const [event, groups] of Object.entries(converted)) {
    for (const group of groups ?? []) {
      const fresh = group.hooks.filter((entry) => {
        const key = entryKey(event, group.matcher, entry.command);
        if (seen.has(key)) {
          skipped++;
          return false;
        }
        seen.add(key);
        return true;
      });
      if (fresh.length === 0) continue;
      added += fresh.length;
      const target = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
      target.push({
        ...(group.matcher === undefined ? {} : { matcher: group.matcher }),
        hooks: fresh,
      });
      hooks[event] = target;
    }
  }
  return { hooks, added, skipped };
}
