/**
 * Where MCP servers come from and what a server entry is: `mcpServers` in the
 * settings files (the user's always; the project's once it is trusted) and
 * `<project root>/.mcp.json` (Claude Code's format, part of the trust set).
 * Nothing here starts a server or imports the MCP library.
 */
import { lstatSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { jsonTextTooDeep, MAX_JSON_DEPTH } from "../config/json-depth.js";
import { type McpServerConfig, McpServersSchema } from "../config/mcp-servers.js";
import { MAX_PROJECT_FILE_BYTES, readRegularFileSync } from "../config/read-regular-file.js";
import { variablesOf } from "./expand.js";

const McpJsonSchema = z.lazy(() => z.object({ mcpServers: McpServersSchema.optional() }));

type McpScope = "user" | "project";

/** One configured server, with the file that configures it. */
export interface McpServerEntry {
  name: string;
  scope: McpScope;
  file: string;
  config: McpServerConfig;
}

/** `<project root>/.mcp.json` */
export function mcpJsonPath(projectDir: string): string {
  return path.join(projectDir, ".mcp.json");
}

/** `.mcp.json` is there (any kind of file, a dangling link too): it is part of the trust set. */
export function hasMcpJson(projectDir: string): boolean {
  try {
    lstatSync(mcpJsonPath(projectDir));
    return true;
  } catch {
    return false;
  }
}

export type McpJsonRead = { ok: true; servers: McpServerEntry[] } | { ok: false; problem: string };

/** Reads `.mcp.json` like any project file before trust: regular file, capped, depth-checked, zod-validated. */
export function readMcpJson(projectDir: string): McpJsonRead {
  const file = mcpJsonPath(projectDir);
  const read = readRegularFileSync(file, MAX_PROJECT_FILE_BYTES);
  if (!read.ok) {
    if (read.problem === "missing") return { ok: true, servers: [] };
    return {
      ok: false,
      problem: `${file} cannot be read: ${read.reason}. Make it a regular JSON file or remove it.`,
    };
  }
  const text = read.data.toString("utf8");
  if (jsonTextTooDeep(text, MAX_JSON_DEPTH)) {
    return {
      ok: false,
      problem: `${file} nests deeper than ${MAX_JSON_DEPTH} levels: simplify it.`,
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      problem: `${file} is not valid JSON (${(error as Error).message}): fix it.`,
    };
  }
  const parsed = McpJsonSchema.safeParse(json);
  if (!parsed.success) return { ok: false, problem: `${file}: ${describeIssues(parsed.error)}` };
  return { ok: true, servers: entriesOf(parsed.data.mcpServers ?? {}, "project", file) };
}

/** "field "mcpServers.x.command" is invalid: …" for the first issue (and a count of the others). */
export function describeIssues(error: z.ZodError): string {
  const [first, ...rest] = error.issues;
  if (first === undefined) return "invalid";
  const field = first.path.map(String).join(".") || "(top level)";
  const more =
    rest.length > 0 ? ` (and ${rest.length} more problem${rest.length > 1 ? "s" : ""})` : "";
  return `field "${field}" is invalid: ${first.message}${more}. Fix or remove it.`;
}

function entriesOf(
  servers: Readonly<Record<string, McpServerConfig>>,
  scope: McpScope,
  file: string,
): McpServerEntry[] {
  return Object.entries(servers).map(([name, config]) => ({ name, scope, file, config }));
}

/** What a server runs or reaches, for lists and the trust review. */
export function serverTarget(config: McpServerConfig): string {
  if ("url" in config) return `${config.type} ${config.url}`;
  return [config.command, ...(config.args ?? [])].join(" ");
}

export interface McpSources {
  /** Settings files in load order, with their validated `mcpServers`. */
  settingsFiles: readonly {
    path: string;
    scope: McpScope;
    values: { mcpServers?: Record<string, McpServerConfig> };
  }[];
  projectDir: string;
  /** The project is trusted (or trusted once): its servers apply. */
  includeProject: boolean;
}

export interface CollectedServers {
  /** The servers a session starts, later sources winning by name. */
  active: McpServerEntry[];
  /** The project's servers left out because the project is not trusted. */
  untrusted: McpServerEntry[];
  /** Project servers refused because a user server has their name (each also a warning). */
  refused: { project: McpServerEntry; user: McpServerEntry }[];
  warnings: string[];
}

/**
 * User settings, then `.mcp.json`, then the project's settings files (a later
 * one wins by name, as settings do). The project's entries only when trusted.
 * A project server named like one of the user's is refused, never merged: it
 * would replace the user's server and inherit the user's rules for
 * `mcp__<name>__*` (projectNameClash).
 */
export function collectServers(sources: McpSources): CollectedServers {
  const byName = new Map<string, McpServerEntry>();
  const untrusted: McpServerEntry[] = [];
  const refused: CollectedServers["refused"] = [];
  const warnings: string[] = [];
  const add = (entry: McpServerEntry) => {
    const users = byName.get(entry.name);
    if (entry.scope === "project" && !sources.includeProject) untrusted.push(entry);
    else if (entry.scope === "project" && users?.scope === "user") {
      refused.push({ project: entry, user: users });
      warnings.push(projectNameClash(entry, users));
    } else byName.set(entry.name, entry);
  };
  const settingsEntries = (scope: McpScope) =>
    sources.settingsFiles
      .filter((file) => file.scope === scope)
      .flatMap((file) => entriesOf(file.values.mcpServers ?? {}, scope, file.path));
  for (const entry of settingsEntries("user")) add(entry);
  const mcpJson = readMcpJson(sources.projectDir);
  if (mcpJson.ok) for (const entry of mcpJson.servers) add(entry);
  else
    warnings.push(
      `MCP servers of ${mcpJsonPath(sources.projectDir)} are not used: ${mcpJson.problem}`,
    );
  for (const entry of settingsEntries("project")) add(entry);
  return { active: [...byName.values()], untrusted, refused, warnings };
}

/** Why a project server is not started: the user's own server has its name. */
export function projectNameClash(project: McpServerEntry, user: McpServerEntry): string {
  return `MCP server ${project.name} of ${project.file} is not started: your own server ${user.name} (${user.file}) has that name, and a project server never replaces yours nor gets your permission rules for mcp__${user.name}__*. Rename it in ${project.file} (or remove yours).`;
}

/** Trust-review lines for `.mcp.json`: each server and what it runs or reaches (project text, not yet inert). */
export function mcpJsonReviewLines(projectDir: string): string[] {
  if (!hasMcpJson(projectDir)) return [];
  const file = mcpJsonPath(projectDir);
  const read = readMcpJson(projectDir);
  if (!read.ok) return [`${file} is invalid (its servers would not start): ${read.problem}`];
  return read.servers.map((server) => {
    const verb = "url" in server.config ? "connects to" : "runs";
    const names = variablesOf(server.config).map((name) => `\${${name}}`);
    const reads =
      names.length > 0 ? `, and is given ${names.join(", ")} from your environment` : "";
    return `${file} starts MCP server ${server.name}: ${verb} ${serverTarget(server.config)}${reads}`;
  });
}

/**
 * The servers an ACP editor sent in `session/new` (docs/acp.md), added after
 * the configured ones as the user's own. One named like a configured server is
 * refused, never merged: it would replace that server and get the rules
 * written for `mcp__<name>__*`.
 */
export function withClientServers(
  collected: CollectedServers,
  client: readonly McpServerEntry[],
): CollectedServers {
  if (client.length === 0) return collected;
  const taken = new Map(collected.active.map((entry) => [entry.name, entry]));
  const active = [...collected.active];
  const warnings = [...collected.warnings];
  for (const entry of client) {
    const configured = taken.get(entry.name);
    if (configured === undefined) {
      taken.set(entry.name, entry);
      active.push(entry);
    } else {
      warnings.push(
        `MCP server ${entry.name} sent by ${entry.file} is not started: ${configured.file} configures a server of that name, which stays. Rename the editor's server.`,
      );
    }
  }
  return { ...collected, active, warnings };
}
