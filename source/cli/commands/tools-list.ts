/**
 * `acai tools list [--json]`: the built-in tools and every dynamic tool a
 * session here would see — name, description, file, scope (user or project)
 * and trust. User tools and a trusted project's tools are described (their
 * `TOOL_ACTION=describe` runs, as at session start); an untrusted project's
 * tools are listed by file only: nothing of an untrusted project runs.
 */
import path from "node:path";
import type { Command } from "commander";
import { inertText, jsonForTerminal } from "../../terminal/inert-text.js";
import type { DynamicTool } from "../../tools/dynamic.js";
import type { CommandContext } from "../command-context.js";
import { UsageError } from "../errors.js";
import { EXIT } from "../exit-codes.js";
import { runToolkitCommand } from "./run-command.js";

export type ToolTrust = "user" | "trusted" | "untrusted";

export interface ListedTool {
  name: string;
  scope: "user" | "project";
  file: string;
  trust: ToolTrust;
  /** `described`: loaded as a session loads it; `not-described`: untrusted, not run. */
  status: "described" | "not-described" | "shadowed";
  description?: string;
  timeout_ms?: number;
  /** Secret-looking variables it asks for. */
  env?: string[];
  note?: string;
}

export interface ToolListing {
  project: string;
  project_trust: "no-project-hooks" | "trusted" | "untrusted";
  builtin: string[];
  tools: ListedTool[];
  warnings: string[];
}

function described(tool: DynamicTool, scope: "user" | "project", trust: ToolTrust): ListedTool {
  return {
    name: tool.name,
    scope,
    file: tool.dynamic.file,
    trust,
    status: "described",
    description: tool.description,
    ...(tool.dynamic.env.length > 0 ? { env: [...tool.dynamic.env] } : {}),
  };
}

async function listTools(ctx: CommandContext): Promise<ToolListing> {
  const { io } = ctx;
  const [{ assessProject }, { SettingsError }, dynamic, { builtinTools }, { hookProcessRunner }] =
    await Promise.all([
      import("../../session/assessment.js"),
      import("../../config/settings.js"),
      import("../../tools/dynamic.js"),
      import("../../tools/registry.js"),
      import("./hook-runner.js"),
    ]);
  const project = await assessProject({ cwd: io.cwd, env: io.env, homeDir: io.homeDir }).catch(
    (error: unknown) => {
      throw error instanceof SettingsError ? new UsageError(error.message) : error;
    },
  );
  const projectDir = project.root.dir;
  const trusted = project.status === "trusted";
  const builtin = [...builtinTools().map((tool) => tool.name), "Task"];
  const runner = await hookProcessRunner();
  const load = (dir: string) =>
    dynamic.loadDynamicTools({ dirs: [dir], projectDir, runner, env: io.env, reserved: builtin });
  const projectDirTools = dynamic.projectToolsDir(projectDir);
  const [user, projectTools] = await Promise.all([
    load(path.join(project.paths.home, "tools")),
    trusted ? load(projectDirTools) : undefined,
  ]);
  const tools: ListedTool[] = [];
  if (projectTools !== undefined) {
    tools.push(...projectTools.tools.map((tool) => described(tool, "project", "trusted")));
  } else {
    for (const file of await dynamic.executablesIn(projectDirTools)) {
      tools.push({
        name: path.basename(file),
        scope: "project",
        file,
        trust: "untrusted",
        status: "not-described",
        note: "not described: nothing of an untrusted project runs (review it, then `acai hooks trust`)",
      });
    }
  }
  const projectNames = new Set(
    projectTools?.tools.map((tool) => tool.name) ?? ([] as readonly string[]),
  );
  for (const tool of user.tools) {
    const listed = described(tool, "user", "user");
    if (projectNames.has(tool.name)) {
      listed.status = "shadowed";
      listed.note = `not used: the project's tool of the same name is (${tool.name})`;
    }
    tools.push(listed);
  }
  return {
    project: projectDir,
    project_trust: project.status === "nothing" ? "no-project-hooks" : project.status,
    builtin,
    tools,
    warnings: [...(projectTools?.warnings ?? []), ...user.warnings],
  };
}

function formatListing(listing: ToolListing): string {
  const out = [
    `Tools for the project root ${inertText(listing.project)}`,
    `Built-in: ${listing.builtin.join(", ")}`,
    "",
  ];
  if (listing.tools.length === 0) {
    out.push(
      "No dynamic tools. Put executables in .acai/tools/ (project) or $ACAI_HOME/tools/ (user); see docs/tools.md.",
    );
  }
  for (const tool of listing.tools) {
    const trust = tool.trust === "untrusted" ? "  [untrusted]" : "";
    out.push(`  ${inertText(tool.name)}  (${tool.scope})${trust}`);
    if (tool.description !== undefined) out.push(`      ${inertText(tool.description)}`);
    out.push(`      file:  ${inertText(tool.file)}`);
    if (tool.env !== undefined) out.push(`      env:   ${inertText(tool.env.join(", "))}`);
    if (tool.note !== undefined) out.push(`      note:  ${inertText(tool.note)}`);
  }
  for (const warning of listing.warnings) out.push("", `warning: ${inertText(warning)}`);
  return `${out.join("\n")}\n`;
}

/** `acai tools …` (lazy: registered only when the first operand is `tools`). */
export function registerToolsCommand(program: Command, ctx: CommandContext): Command {
  const tools = program
    .command("tools")
    .description("inspect the tools the model gets")
    .configureHelp({ showGlobalOptions: false });
  tools
    .command("list")
    .description(
      "list the built-in and dynamic tools: name, description, file, scope, trust (an untrusted project's tools are listed, not run)",
    )
    .option("--json", "print JSON for scripts", false)
    .action((raw: { json: boolean }) =>
      runToolkitCommand(ctx, async () => {
        const listing = await listTools(ctx);
        ctx.io.stdout.write(raw.json ? `${jsonForTerminal(listing, 2)}\n` : formatListing(listing));
        return EXIT.ok;
      }),
    );
  return tools;
}
