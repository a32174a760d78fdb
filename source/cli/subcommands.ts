/**
 * acai's subcommands, one row each: the line `--help` lists, and the module
 * that registers it, imported only when that command (or `help`) is asked
 * for, so `acai -p` start-up pays for none of them.
 */
import type { Command } from "commander";
import type { CommandContext } from "./command-context.js";

type Registrar = (program: Command, ctx: CommandContext) => unknown;

interface Subcommand {
  name: string;
  /** Listed in --help when the command is not loaded; never dispatched to. */
  summary: string;
  load: () => Promise<Registrar>;
}

const SUBCOMMANDS: readonly Subcommand[] = [
  {
    name: "hooks",
    summary: "inspect and manage hooks (see acai hooks --help)",
    load: async () => (await import("./hooks/command.js")).registerHooksCommand,
  },
  {
    name: "tools",
    summary: "list the tools the model gets (acai tools list)",
    load: async () => (await import("./commands/tools-list.js")).registerToolsCommand,
  },
  {
    name: "sessions",
    summary: "list this project's earlier sessions (acai sessions)",
    load: async () => (await import("./commands/sessions.js")).registerSessionsCommand,
  },
  {
    name: "agents",
    summary: "list the running agents (acai agents)",
    load: async () => (await import("./commands/agents.js")).registerAgentsCommand,
  },
  {
    name: "send",
    summary: "send a message to a running agent (acai send NAME MESSAGE)",
    load: async () => (await import("./commands/send.js")).registerSendCommand,
  },
  {
    name: "mcp",
    summary: "list, add and remove MCP servers (acai mcp list | add | remove)",
    load: async () => (await import("./commands/mcp-list.js")).registerMcpCommand,
  },
  {
    name: "doctor",
    summary: "a short health report: settings, project trust, the OS sandbox in force",
    load: async () => (await import("./commands/doctor.js")).registerDoctorCommand,
  },
  {
    name: "acp",
    summary: "run as an Agent Client Protocol agent on stdio, for editors (docs/acp.md)",
    load: async () => (await import("./commands/acp.js")).registerAcpCommand,
  },
  {
    name: "memory",
    summary: "list, search, forget, export saved memories (acai memory --help)",
    load: async () => (await import("./commands/memory.js")).registerMemoryCommand,
  },
];

/** Registers the command `operand` names (all of them for `help`); the others only as help lines. */
export async function registerSubcommands(
  program: Command,
  ctx: CommandContext,
  operand: string | undefined,
): Promise<void> {
  for (const subcommand of SUBCOMMANDS) {
    if (operand === subcommand.name || operand === "help") {
      const register = await subcommand.load();
      register(program, ctx);
    } else {
      program.command(subcommand.name).description(subcommand.summary);
    }
  }
}
