/**
 * How a settings hook runs, by its `type` (Claude Code's settings shape):
 * `command` (a shell line, or with `args` the executable itself), `http`
 * (POST to a URL the user allowed), `prompt` and `agent` (the model judges),
 * `mcp_tool` (a configured MCP server's tool). Runs nothing: it only checks
 * what can be checked at load (the URL against the user's
 * `allowedHttpHookUrls`, the variables a header names) and says why a hook
 * cannot run.
 */
import path from "node:path";
import type { HookDefinition, HookScope } from "../../contract/definition.js";
import type { SettingsHookEntry } from "../../contract/schemas/settings-hooks.js";
import { settingsHookName } from "./settings-name.js";

/** What the user's settings allow http hooks (a project's settings can only narrow it). */
export interface HttpHookPolicy {
  /** The user's `allowedHttpHookUrls`; undefined: the user's own hooks may post anywhere, a project's nowhere. */
  userUrls?: readonly string[];
  /** The project's own list: its hooks must match it too (it cannot widen the user's). */
  projectUrls?: readonly string[];
  /** The user's settings file, named in the message of a refused URL. */
  userSettingsFile?: string;
}

export type SettingsLaunch =
  | { ok: true; launch: HookDefinition["launch"]; name: string; warnings: string[] }
  | { ok: false; reason: string };

const EXEC_FORM_PATH =
  'with "args", "command" must be an absolute path to an executable (or start with $CLAUDE_PROJECT_DIR); it runs without a shell';

export function settingsLaunch(
  entry: SettingsHookEntry,
  context: { projectDir: string; scope: HookScope; http: HttpHookPolicy },
): SettingsLaunch {
  switch (entry.type) {
    case "command":
      return commandLaunch(entry, context.projectDir);
    case "http":
      return httpLaunch(entry, context);
    case "prompt":
    case "agent": {
      const model = entry.model === undefined ? {} : { model: entry.model };
      const launch = {
        mode: entry.type,
        command: entry.type,
        args: [] as [],
        viaShell: false as const,
        prompt: entry.prompt,
        ...model,
      };
      return { ok: true, launch, name: `${entry.type}: ${shortText(entry.prompt)}`, warnings: [] };
    }
    case "mcp_tool": {
      const command = `mcp__${entry.server}__${entry.tool}`;
      const launch = {
        mode: "mcp_tool" as const,
        command,
        args: [] as [],
        viaShell: false as const,
        server: entry.server,
        tool: entry.tool,
        ...(entry.input === undefined ? {} : { input: entry.input }),
      };
      return { ok: true, launch, name: command, warnings: [] };
    }
    default:
      return entry satisfies never;
  }
}

/** What the trust review shows a settings entry runs or reaches (all of it: a prompt in full). */
export function entryText(entry: SettingsHookEntry): string {
  switch (entry.type) {
    case "command":
      return entry.args === undefined ? entry.command : [entry.command, ...entry.args].join(" ");
    case "http":
      return `POST ${entry.url}${Object.keys(entry.headers).length > 0 ? ` with headers ${JSON.stringify(entry.headers)}` : ""}`;
    case "prompt":
    case "agent":
      return `${entry.type} hook${entry.model === undefined ? "" : ` (model ${entry.model})`}: ${entry.prompt}`;
    case "mcp_tool":
      return `MCP tool ${entry.tool} of server ${entry.server}${entry.input === undefined ? "" : ` with ${JSON.stringify(entry.input)}`}`;
    default:
      return entry satisfies never;
  }
}

/** What makes two entries the same hook (an identical one in two files runs once). */
export function launchIdentity(launch: HookDefinition["launch"]): string {
  return JSON.stringify(launch);
}

/**
 * A shell command line, or with `args` (Claude Code's exec form) the
 * executable itself with those arguments and no shell. The exec form's
 * project-directory variable is expanded here, as no shell will.
 */
function commandLaunch(
  entry: Extract<SettingsHookEntry, { type: "command" }>,
  projectDir: string,
): SettingsLaunch {
  const name = settingsHookName(entry.command);
  if (entry.args === undefined) {
    return {
      ok: true,
      launch: { command: entry.command, args: [], viaShell: true },
      name,
      warnings: [],
    };
  }
  const command = entry.command.replace(
    /^\$\{?(?:CLAUDE_PROJECT_DIR|ACAI_PROJECT_DIR)\}?(?=\/|$)/,
    projectDir,
  );
  if (!path.isAbsolute(command)) return { ok: false, reason: EXEC_FORM_PATH };
  return {
    ok: true,
    launch: { command, args: [...entry.args], viaShell: false },
    name,
    warnings: [],
  };
}

function httpLaunch(
  entry: Extract<SettingsHookEntry, { type: "http" }>,
  context: { scope: HookScope; http: HttpHookPolicy },
): SettingsLaunch {
  const refused = urlRefusal(entry.url, context.scope, context.http);
  if (refused !== undefined) return { ok: false, reason: refused };
  const allowed = new Set(entry.allowedEnvVars);
  const warnings: string[] = [];
  for (const [header, value] of Object.entries(entry.headers)) {
    for (const name of headerVariables(value)) {
      if (!allowed.has(name)) {
        warnings.push(
          `header "${header}" names $${name}, which "allowedEnvVars" does not list: it is sent empty (list it to send its value)`,
        );
      }
    }
  }
  const launch = {
    mode: "http" as const,
    command: entry.url,
    args: [] as [],
    viaShell: false as const,
    url: entry.url,
    headers: entry.headers,
    allowedEnvVars: entry.allowedEnvVars,
  };
  return { ok: true, launch, name: `http ${shortText(new URL(entry.url).host)}`, warnings };
}

/** `$VAR` and `${VAR}` in a header value, as Claude Code interpolates them. */
export const HEADER_VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

function headerVariables(value: string): string[] {
  return [...value.matchAll(HEADER_VARIABLE)].map((match) => match[1] ?? match[2] ?? "");
}

/** Why a URL may not be posted to, or undefined when it may. */
function urlRefusal(url: string, scope: HookScope, policy: HttpHookPolicy): string | undefined {
  const where = policy.userSettingsFile ?? "the user's settings (~/.acai/settings.json)";
  const fix = `add a pattern matching it (such as "${suggestedPattern(url)}") to "allowedHttpHookUrls" in ${where}`;
  if (policy.userUrls === undefined) {
    if (scope === "user") return undefined;
    return `a project's http hook posts only to URLs the user allowed, and "allowedHttpHookUrls" is not set: to let it post to ${url}, ${fix}`;
  }
  if (!policy.userUrls.some((pattern) => urlMatches(pattern, url))) {
    return `url ${url} matches no pattern of "allowedHttpHookUrls" in ${where}: ${fix}`;
  }
  if (scope === "project" && policy.projectUrls !== undefined) {
    if (!policy.projectUrls.some((pattern) => urlMatches(pattern, url))) {
      return `url ${url} matches no pattern of the project's own "allowedHttpHookUrls"`;
    }
  }
  return undefined;
}

/** Claude Code's URL patterns: the whole URL, `*` matching any run of characters. */
export function urlMatches(pattern: string, url: string): boolean {
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}$`).test(url);
}

function suggestedPattern(url: string): string {
  try {
    return `${new URL(url).origin}/*`;
  } catch {
    return url;
  }
}

function shortText(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 32 ? `${line.slice(0, 31)}…` : line;
}
