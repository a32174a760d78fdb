/**
 * `acai mcp list [--json]`: the MCP servers a session here would use — name,
 * scope, file, what it runs or reaches, state (connected, failed, not started)
 * and its tools (as the model sees them, `mcp__<server>__<tool>`) and
 * resources. The user's servers and a trusted project's are started (and
 * stopped again); an untrusted project's servers are listed, never started.
 */
import type { Command } from "commander";
import type { McpServerStatus } from "../../mcp/connect.js";
import { inertText, jsonForTerminal } from "../../terminal/inert-text.js";
import type { CommandContext } from "../command-context.js";
import { UsageError } from "../errors.js";
import { EXIT } from "../exit-codes.js";
import { registerMcpAdd } from "./mcp-add.js";
import { runToolkitCommand } from "./run-command.js";

export interface McpListing {
  project: string;
  project_trust: "no-project-hooks" | "trusted" | "untrusted";
  servers: McpServerStatus[];
  warnings: string[];
}

async function listServers(ctx: CommandContext): Promise<McpListing> {
  const { io } = ctx;
  const [{ assessProject }, { SettingsError }, { collectServers, serverTarget }] =
    await Promise.all([
      import("../../session/assessment.js"),
      import("../../config/settings.js"),
      import("../../mcp/config.js"),
    ]);
  const project = await assessProject({ cwd: io.cwd, env: io.env, homeDir: io.homeDir }).catch(
    (error: unknown) => {
      throw error instanceof SettingsError ? new UsageError(error.message) : error;
    },
  );
  const projectDir = project.root.dir;
  const collected = collectServers({
    settingsFiles: project.loaded.settingsFiles,
    projectDir,
    includeProject: project.status !== "untrusted",
  });
  const servers: McpServerStatus[] = [];
  const warnings = [...collected.warnings];
  if (collected.active.length > 0) {
    const { connectMcpServers } = await import("../../mcp/connect.js");
    const session = await connectMcpServers({ entries: collected.active, env: io.env, projectDir });
    await session.close();
    servers.push(...session.servers);
    warnings.push(...session.warnings.filter((warning) => !warning.startsWith("MCP server ")));
  }
  for (const entry of collected.untrusted) {
    servers.push({
      name: entry.name,
      scope: entry.scope,
      file: entry.file,
      target: serverTarget(entry.config),
      state: "not-started",
      error:
        "not started: nothing of an untrusted project runs (review it, then `acai hooks trust`)",
      tools: [],
      resources: [],
    });
  }
  return {
    project: projectDir,
    project_trust: project.status === "nothing" ? "no-project-hooks" : project.status,
    servers,
    warnings,
  };
}

function formatListing(listing: McpListing): string {
  const out = [`MCP servers for the project root ${inertText(listing.project)}`, ""];
  if (listing.servers.length === 0) {
    out.push(
      'No MCP servers. Add them to .mcp.json in the project root or to "mcpServers" in a settings file; see docs/mcp.md.',
    );
  }
  for (const server of listing.servers) {
    out.push(`  ${inertText(server.name)}  (${server.scope})  ${server.state}`);
    out.push(`      target: ${inertText(server.target)}`);
    out.push(`      file:   ${inertText(server.file)}`);
    if (server.error !== undefined) out.push(`      error:  ${inertText(server.error)}`);
    for (const tool of server.tools) {
      const description =
        tool.description === undefined ? "" : `  ${inertText(firstLine(tool.description))}`;
      out.push(
        `      tool:   mcp__${inertText(server.name)}__${inertText(tool.name)}${description}`,
      );
    }
    for (const resource of server.resources) {
      out.push(`      resource: ${inertText(resource.uri)}  ${inertText(resource.name)}`);
    }
  }
  for (const warning of listing.warnings) out.push("", `warning: ${inertText(warning)}`);
  return `${out.join("\n")}\n`;
}

function firstLine(text: string): string {
  return text.split("\n")[0] ?? "";
}

/** `acai mcp …` (lazy: registered only when the first operand is `mcp`). */
export function registerMcpCommand(program: Command, ctx: CommandContext): Command {
  const mcp = program
    .command("mcp")
    .description("list, add and remove the MCP servers a session uses")
    .configureHelp({ showGlobalOptions: false });
  mcp
    .command("list")
    .description(
      "list the MCP servers: scope, file, command or URL, state, tools and resources (an untrusted project's servers are listed, not started)",
    )
    .option("--json", "print JSON for scripts", false)
    .action((raw: { json: boolean }) =>
      runToolkitCommand(ctx, async () => {
        const listing = await listServers(ctx);
        ctx.io.stdout.write(raw.json ? `${jsonForTerminal(listing, 2)}\n` : formatListing(listing));
        return EXIT.ok;
      }),
    );
  registerMcpAdd(mcp, ctx);
  return mcp;
}
