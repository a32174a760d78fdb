/**
 * `acai agents [--json]`: the agents running now on the relay (this machine's
 * store, or every machine on the NATS server of `relay.url`).
 */
import type { Command } from "commander";
import type { AgentSummary } from "../../relay/transport.js";
import { inertText, jsonForTerminal } from "../../terminal/inert-text.js";
import type { CommandContext } from "../command-context.js";
import { EXIT } from "../exit-codes.js";
import { relayFailure } from "./relay-errors.js";
import { relayForCommand } from "./relay-settings.js";
import { runToolkitCommand } from "./run-command.js";

export function formatAgents(agents: readonly AgentSummary[], now: number): string {
  if (agents.length === 0) {
    return "No agent is running. Start one with acai --name NAME (or acai -p --listen --name NAME).\n";
  }
  const lines = agents.map((agent) => {
    const mode = agent.listening ? "listening" : "session";
    return `  ${inertText(agent.name)}  ${mode}${details(agent, now)}`;
  });
  return `${["Running agents:", ...lines].join("\n")}\n`;
}

/** Pid, host, age and folder, where the agent shares them (NATS: `relay.shareDetails`). */
function details(agent: AgentSummary, now: number): string {
  const { pid, host, startedAt, cwd } = agent;
  if (pid === undefined || host === undefined || startedAt === undefined || cwd === undefined)
    return "";
  const age = Math.max(0, Math.round((now - startedAt) / 1000));
  return `  pid ${pid} on ${inertText(host)}  up ${age}s  ${inertText(cwd)}`;
}

export function registerAgentsCommand(program: Command, ctx: CommandContext): Command {
  return program
    .command("agents")
    .description("list the agents running now (their names for @relay:NAME and acai send)")
    .option("--json", "print JSON for scripts", false)
    .action((raw: { json: boolean }) =>
      runToolkitCommand(ctx, async () => {
        const { transport, settings } = await relayForCommand(ctx);
        try {
          const agents = await transport.agents().catch(relayFailure(settings));
          ctx.io.stdout.write(
            raw.json ? `${jsonForTerminal({ agents }, 2)}\n` : formatAgents(agents, Date.now()),
          );
          return EXIT.ok;
        } finally {
          await transport.close();
        }
      }),
    );
}
