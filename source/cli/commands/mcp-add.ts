/**
 * `acai mcp add` and `acai mcp remove`, shaped like `claude mcp add`:
 *
 *   acai mcp add [-s local|project|user] [-e KEY=value]… NAME -- COMMAND [ARGS…]
 *   acai mcp add -t http|sse [-H "Name: value"]… NAME URL
 *   acai mcp remove [-s scope] NAME
 *
 * Scopes: `local` (default) is `.acai/settings.local.json` of the project,
 * `project` is the project's `.mcp.json` (shared through git), `user` is
 * `$ACAI_HOME/settings.json`. The entry is validated with the schema sessions
 * read it with, and the file is rewritten whole and atomically, keeping its
 * other fields. A project file that changes revokes the project's trust.
 */
import path from "node:path";
import type { Command } from "commander";
import { type McpServerConfig, McpServerSchema, SERVER_NAME } from "../../config/mcp-servers.js";
import { resolveAcaiPaths, resolveProjectPaths } from "../../config/paths.js";
import { readSettingsObject, writeSettingsObject } from "../../config/settings-file.js";
import { describeIssues } from "../../mcp/config.js";
import { findProjectRoot } from "../../project/root.js";
import { inertText } from "../../terminal/inert-text.js";
import type { CommandContext } from "../command-context.js";
import { UsageError } from "../errors.js";
import { EXIT } from "../exit-codes.js";
import { runToolkitCommand } from "./run-command.js";

const SCOPES = ["local", "project", "user"] as const;
type Scope = (typeof SCOPES)[number];
const TRANSPORTS = ["stdio", "http", "sse"] as const;

interface AddOptions {
  scope: string;
  transport: string;
  env: string[];
  header: string[];
}

/** The file a scope writes, for this working directory. */
function fileOf(scope: Scope, ctx: CommandContext): string {
  const { io } = ctx;
  const acaiHome = resolveAcaiPaths({ env: io.env, homeDir: io.homeDir, cwd: io.cwd }).home;
  if (scope === "user") return path.join(acaiHome, "settings.json");
  const root = findProjectRoot({ cwd: io.cwd, acaiHome }).dir;
  return scope === "project"
    ? path.join(root, ".mcp.json")
    : resolveProjectPaths(root).localSettingsFile;
}

function scopeOf(value: string): Scope {
  if ((SCOPES as readonly string[]).includes(value)) return value as Scope;
  throw new UsageError(`--scope must be one of ${SCOPES.join(", ")} (got ${inertText(value)})`);
}

/** `KEY=value` pairs (`-e`) or `Name: value` pairs (`-H`) as an object. */
function pairs(
  values: readonly string[],
  separator: "=" | ":",
  flag: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf(separator);
    const key = at > 0 ? value.slice(0, at).trim() : "";
    if (key === "") {
      const shape = separator === "=" ? "KEY=value" : '"Name: value"';
      throw new UsageError(`${flag} ${inertText(value)}: write it as ${shape}`);
    }
    out[key] = value.slice(at + 1).trim();
  }
  return out;
}

/** The entry the flags and operands describe, validated as a session would read it. */
function entryOf(
  target: string | undefined,
  args: readonly string[],
  options: AddOptions,
): McpServerConfig {
  if (!(TRANSPORTS as readonly string[]).includes(options.transport)) {
    throw new UsageError(
      `--transport must be one of ${TRANSPORTS.join(", ")} (got ${inertText(options.transport)})`,
    );
  }
  if (target === undefined) {
    const what =
      options.transport === "stdio" ? "a command: acai mcp add NAME -- COMMAND [ARGS…]" : "a URL";
    throw new UsageError(`acai mcp add needs ${what}`);
  }
  const env = pairs(options.env, "=", "--env");
  const headers = pairs(options.header, ":", "--header");
  const entry =
    options.transport === "stdio"
      ? {
          command: target,
          ...(args.length > 0 ? { args: [...args] } : {}),
          ...(options.env.length > 0 ? { env } : {}),
        }
      : { type: options.transport, url: target, ...(options.header.length > 0 ? { headers } : {}) };
  const parsed = McpServerSchema.safeParse(entry);
  if (!parsed.success)
    throw new UsageError(`the server entry is invalid: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

/** The file's JSON object, `{}` when it does not exist; anything else is an error naming the file. */
function readObject(file: string): Record<string, unknown> {
  const read = readSettingsObject(file);
  if (!read.ok) throw new UsageError(`${read.error}; nothing was changed.`);
  return read.value;
}

function serversOf(settings: Record<string, unknown>, file: string): Record<string, unknown> {
  const servers = settings.mcpServers ?? {};
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) {
    throw new UsageError(
      `${file}: "mcpServers" is not an object: fix it first; nothing was changed.`,
    );
  }
  return servers as Record<string, unknown>;
}

/** Written whole; a project's file (local, project scope) never through a link. */
function writeObject(file: string, scope: Scope, value: Record<string, unknown>): void {
  const written = writeSettingsObject(file, value, { refuseLinks: scope !== "user" });
  if (!written.ok) throw new UsageError(`${written.error}; nothing was changed.`);
}

function trustNote(scope: Scope): string {
  return scope === "user"
    ? ""
    : "\nThe project's configuration changed: acai asks you to trust it again before it uses it (review it with `acai mcp list`, then `acai hooks trust`).";
}

async function add(
  ctx: CommandContext,
  name: string,
  target: string | undefined,
  args: string[],
  options: AddOptions,
) {
  if (!SERVER_NAME.test(name)) {
    throw new UsageError(
      `server name ${inertText(name)}: use letters, digits, _ and - (at most 48)`,
    );
  }
  const scope = scopeOf(options.scope);
  const entry = entryOf(target, args, options);
  const file = fileOf(scope, ctx);
  const settings = readObject(file);
  const servers = serversOf(settings, file);
  if (name in servers) {
    throw new UsageError(
      `${file} already has an MCP server ${inertText(name)}: remove it first (acai mcp remove ${inertText(name)} --scope ${scope}) or choose another name`,
    );
  }
  writeObject(file, scope, { ...settings, mcpServers: { ...servers, [name]: entry } });
  ctx.io.stdout.write(`Added MCP server ${name} (${scope}) to ${file}.${trustNote(scope)}\n`);
  return EXIT.ok;
}

async function remove(ctx: CommandContext, name: string, scopeFlag: string) {
  const scope = scopeOf(scopeFlag);
  const file = fileOf(scope, ctx);
  const settings = readObject(file);
  const servers = serversOf(settings, file);
  if (!(name in servers)) {
    throw new UsageError(
      `${file} has no MCP server ${inertText(name)} (acai mcp list shows every server and its file)`,
    );
  }
  const { [name]: _gone, ...rest } = servers;
  writeObject(file, scope, { ...settings, mcpServers: rest });
  ctx.io.stdout.write(`Removed MCP server ${name} from ${file}.${trustNote(scope)}\n`);
  return EXIT.ok;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** `acai mcp add` and `acai mcp remove`, under the `mcp` command. */
export function registerMcpAdd(mcp: Command, ctx: CommandContext): void {
  mcp
    .command("add")
    .description("add an MCP server: acai mcp add NAME -- COMMAND [ARGS…], or -t http NAME URL")
    .argument("<name>", "the server's name (letters, digits, _ and -)")
    .argument("[commandOrUrl]", "the command to run (stdio), or the URL (http, sse)")
    .argument("[args...]", "the command's arguments (after --)")
    .option(
      "-s, --scope <scope>",
      "local (.acai/settings.local.json), project (.mcp.json) or user ($ACAI_HOME/settings.json)",
      "local",
    )
    .option("-t, --transport <transport>", "stdio, http or sse", "stdio")
    .option(
      "-e, --env <KEY=value>",
      "an environment variable for a stdio server (repeatable)",
      collect,
      [],
    )
    .option(
      "-H, --header <Name: value>",
      "an HTTP header for an http or sse server (repeatable)",
      collect,
      [],
    )
    .action((name: string, target: string | undefined, args: string[], options: AddOptions) =>
      runToolkitCommand(ctx, () => add(ctx, name, target, args, options)),
    );
  mcp
    .command("remove")
    .description("remove an MCP server from the file of one scope")
    .argument("<name>", "the server's name")
    .option("-s, --scope <scope>", "local, project or user", "local")
    .action((name: string, options: { scope: string }) =>
      runToolkitCommand(ctx, () => remove(ctx, name, options.scope)),
    );
}
