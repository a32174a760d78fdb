import { PARSED_ONCE } from "../../../shared/parsed-once.js";
import type {
  BrokenHook,
  HookDefinition,
  HookEventName,
  HookMatcher,
  HookScope,
} from "../../contract/definition.js";
import {
  geminiOnlyNames,
  hasNamespace,
  hasSource,
  isToolEvent,
} from "../../contract/events/names.js";
import {
  claudeMatcherToRegex,
  InvalidMatcherError,
  prepareHookMatcher,
} from "../../contract/match.js";
import {
  DEFAULT_HOOK_TIMEOUT_MS,
  formatZodError,
  normalizeEventName,
} from "../../contract/schemas/metadata.js";
import {
  clampTimeoutSeconds,
  parseSettingsHookEntry,
  type SettingsHookEntry,
  SettingsHookGroupSchema,
} from "../../contract/schemas/settings-hooks.js";
import {
  type HttpHookPolicy,
  launchIdentity,
  type SettingsLaunch,
  settingsLaunch,
} from "./settings-launch.js";
import { hasSettingsHooks, isPlainObject } from "./settings-section.js";

/** One settings file's raw `hooks` section, as the CLI's settings loader provides it. */
export interface SettingsHookFile {
  path: string;
  scope: "user" | "project";
  hooks: unknown;
  /** A Claude Code settings file (config/claude-settings.ts): its hooks default to Claude Code's 60 s. */
  dialect?: "claude";
}

/** Claude Code's default hook timeout, for hooks read from its own settings files. */
const CLAUDE_DEFAULT_TIMEOUT_MS = 60_000;

/** One valid command entry of a settings file. */
interface SettingsHookItem {
  file: string;
  scope: HookScope;
  event: HookEventName;
  /** The event's key as written (`PreToolUse`, `BeforeTool`, …). */
  eventKey: string;
  /** The Claude Code matcher string as written (undefined when absent). */
  matcher: string | undefined;
  entry: SettingsHookEntry;
  /** `hooks.PreToolUse[0].hooks[1]`: where the entry is in the file. */
  location: string;
  /** What acai changed to run the entry (a timeout clamped to its limits), for a warning. */
  note?: string;
}

/**
 * A Claude Code matcher string as an acai matcher for the event: the tool
 * name on tool events, the source/notification type on session_start and
 * notification, ignored elsewhere (as Claude Code does).
 */
export function matcherForEvent(
  event: HookEventName,
  matcher: string | undefined,
  ifRule?: string,
): HookMatcher {
  const regex = claudeMatcherToRegex(matcher);
  // `if` applies to tool events only, as in Claude Code.
  if (isToolEvent(event) && ifRule !== undefined) {
    return regex === undefined ? { if: ifRule } : { tool: regex, if: ifRule };
  }
  if (regex === undefined) return {};
  if (isToolEvent(event)) return { tool: regex };
  if (hasSource(event)) return { source: regex };
  if (hasNamespace(event)) return { namespace: regex };
  return {};
}

/** Why a group's matcher is refused: a regular expression that does not compile. */
function matcherError(matcher: string | undefined): string | undefined {
  if (claudeMatcherToRegex(matcher) === undefined) return undefined;
  try {
    // The raw string must compile on its own (our wrapper could mask an unbalanced group).
    new RegExp(matcher?.trim() ?? "");
    return undefined;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return `invalid regular expression ${JSON.stringify(matcher)}: ${detail}`;
  }
}

/** What parseSettingsHooks found in one file: valid entries and broken ones. */
export interface ParsedSettingsHooks {
  readonly items: readonly SettingsHookItem[];
  readonly broken: readonly BrokenHook[];
}

/**
 * Each file's parse, by the file object: the scan (the manifest's commands), the
 * registry and the trust review read the same file, which is validated once.
 * Taken only while the file still holds the same `hooks` value.
 */
const parsedByFile = new WeakMap<
  SettingsHookFile,
  { hooks: unknown; parsed: ParsedSettingsHooks }
>();

/** Validates a settings `hooks` section entry by entry: one bad entry never hides the others. */
export function parseSettingsHooks(file: SettingsHookFile): ParsedSettingsHooks {
  const known = parsedByFile.get(file);
  if (known !== undefined && known.hooks === file.hooks) return known.parsed;
  const parsed = validateSettingsHooks(file);
  parsedByFile.set(file, { hooks: file.hooks, parsed });
  return parsed;
}

function validateSettingsHooks(file: SettingsHookFile): ParsedSettingsHooks {
  const items: SettingsHookItem[] = [];
  const broken: BrokenHook[] = [];
  const fail = (location: string, reason: string): void => {
    broken.push({
      file: file.path,
      scope: file.scope,
      sourceKind: "settings",
      name: location,
      reason: `${location}: ${reason}`,
    });
  };
  if (!hasSettingsHooks(file.hooks)) return { items, broken };
  if (!isPlainObject(file.hooks)) {
    fail("hooks", 'must be an object keyed by event name, e.g. {"PreToolUse": [...]}');
    return { items, broken };
  }
  for (const [eventKey, groups] of Object.entries(file.hooks)) {
    const where = `hooks.${eventKey}`;
    const event = normalizeEventName(eventKey);
    if (event === undefined) {
      fail(where, `unknown event ${JSON.stringify(eventKey)}`);
      continue;
    }
    if (!Array.isArray(groups)) {
      fail(where, 'must be an array of {"matcher": ..., "hooks": [...]}');
      continue;
    }
    groups.forEach((group, groupIndex) => {
      const groupWhere = `${where}[${groupIndex}]`;
      const parsedGroup = SettingsHookGroupSchema.safeParse(group, PARSED_ONCE);
      if (!parsedGroup.success) {
        fail(groupWhere, formatZodError(parsedGroup.error));
        return;
      }
      const matcher = parsedGroup.data.matcher;
      const badMatcher = matcherError(matcher);
      if (badMatcher !== undefined) {
        fail(`${groupWhere}.matcher`, badMatcher);
        return;
      }
      parsedGroup.data.hooks.forEach((entry, entryIndex) => {
        const location = `${groupWhere}.hooks[${entryIndex}]`;
        const parsed = parseSettingsHookEntry(entry);
        if (!parsed.success) {
          // An unsupported type ("prompt", "agent") says all there is to say: its other fields are moot.
          const wrongType = parsed.error.issues.find((issue) => issue.path[0] === "type");
          fail(location, wrongType ? wrongType.message : formatZodError(parsed.error));
          return;
        }
        const item: SettingsHookItem = {
          file: file.path,
          scope: file.scope,
          event,
          eventKey,
          matcher,
          entry: parsed.data,
          location,
        };
        if (parsed.data.timeout !== undefined) {
          const clamped = clampTimeoutSeconds(parsed.data.timeout);
          item.entry = { ...parsed.data, timeout: clamped.seconds };
          if (clamped.note !== undefined) item.note = clamped.note;
        }
        items.push(item);
      });
    });
  }
  return { items, broken };
}

/**
 * Definitions for every entry of the given files, in file order. The same
 * hook for the same event and matcher runs once, wherever it is repeated
 * (the first occurrence wins, so list user files first). `warnings` says
 * what was changed to run a loaded hook, once per hook.
 */
export function loadSettingsHooks(
  files: readonly SettingsHookFile[],
  projectDir: string,
  /** A number, or per scope (a project's hookDefaults reach only its own hooks). */
  defaultTimeoutMs: number | ((scope: HookScope) => number | undefined) = DEFAULT_HOOK_TIMEOUT_MS,
  /** Where http hooks may post (the user's `allowedHttpHookUrls`). */
  http: HttpHookPolicy = {},
): { hooks: HookDefinition[]; broken: BrokenHook[]; warnings: string[] } {
  const fallbackTimeout = (scope: HookScope): number =>
    typeof defaultTimeoutMs === "function"
      ? (defaultTimeoutMs(scope) ?? DEFAULT_HOOK_TIMEOUT_MS)
      : defaultTimeoutMs;
  const hooks: HookDefinition[] = [];
  const broken: BrokenHook[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const file of files) {
    const parsed = parseSettingsHooks(file);
    const fileDefault = (scope: HookScope) =>
      file.dialect === "claude" ? CLAUDE_DEFAULT_TIMEOUT_MS : fallbackTimeout(scope);
    broken.push(...parsed.broken);
    for (const item of parsed.items) {
      const launched = settingsLaunch(item.entry, { projectDir, scope: item.scope, http });
      if (!launched.ok) {
        broken.push({ ...brokenAt(item), reason: `${item.location}: ${launched.reason}` });
        continue;
      }
      const matcher = matcherForEvent(item.event, item.matcher, item.entry.if);
      const key = JSON.stringify([
        item.event,
        matcher.tool ?? null,
        matcher.source ?? null,
        matcher.if ?? null,
        launchIdentity(launched.launch),
      ]);
      if (seen.has(key)) continue;
      seen.add(key);
      const hook = settingsDefinition(item, matcher, launched, fileDefault(item.scope));
      try {
        prepareHookMatcher(hook, projectDir);
      } catch (error) {
        if (!(error instanceof InvalidMatcherError)) throw error;
        broken.push({ ...brokenAt(item), reason: `${item.location}: ${error.message}` });
        continue;
      }
      hooks.push(hook);
      for (const note of [...(item.note === undefined ? [] : [item.note]), ...launched.warnings]) {
        warnings.push(`Settings file ${item.file}: hook ${item.location} (${hook.name}): ${note}.`);
      }
    }
  }
  return { hooks, broken, warnings };
}

function settingsDefinition(
  item: SettingsHookItem,
  matcher: HookMatcher,
  launched: Extract<SettingsLaunch, { ok: true }>,
  defaultTimeoutMs: number,
): HookDefinition {
  const { entry } = item;
  const hook: HookDefinition = {
    id: `${item.scope}:settings:${item.file}#${item.location}`,
    name: entry.name ?? launched.name,
    events: [item.event],
    matcher,
    priority: entry.priority,
    timeoutMs: entry.timeout === undefined ? defaultTimeoutMs : Math.round(entry.timeout * 1000),
    async: entry.async || entry.asyncRewake,
    failure: entry.onFailure === "block" ? "closed" : entry.failure,
    ...handlerFields(entry, item),
    env: entry.env,
    ...(entry.sandbox === undefined ? {} : { sandbox: entry.sandbox }),
    scope: item.scope,
    sourceKind: "settings",
    file: item.file,
    dialect: "acai",
    launch: launched.launch,
  };
  if (entry.description !== undefined) hook.description = entry.description;
  // Under a Gemini CLI name, the hook gets Gemini's payload (contract/gemini-payload.ts).
  if (geminiOnlyNames().includes(item.eventKey)) hook.trigger = item.eventKey;
  return hook;
}

/** `once`, `statusMessage`, `asyncRewake` and `enabled: false` as a definition's fields. */
function handlerFields(
  entry: SettingsHookEntry,
  item: { file: string; location: string },
): Pick<HookDefinition, "once" | "statusMessage" | "asyncRewake" | "disabled"> {
  return {
    ...(entry.once ? { once: true } : {}),
    ...(entry.statusMessage === undefined ? {} : { statusMessage: entry.statusMessage }),
    ...(entry.asyncRewake ? { asyncRewake: true } : {}),
    ...(entry.enabled ? {} : { disabled: `"enabled": false at ${item.location} in ${item.file}` }),
  };
}

function brokenAt(item: { file: string; scope: HookScope; location: string }) {
  return {
    file: item.file,
    scope: item.scope,
    sourceKind: "settings" as const,
    name: item.location,
  };
}
