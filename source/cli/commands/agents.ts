/**
 * `acai agents [--json]`: the agents running now on the relay (this machine's
 * store, or every machine on the NATS server of `relay.url`).
 */
import type { Command } from "commander";
import type { AgentRecord } from "../../relay/store.js";
import { inertText, jsonForTerminal } from "../../terminal/inert-text.js";
import type { CommandContext } from "../command-context.js";
import { EXIT } from "../exit-codes.js";
import { relayFailure } from "./relay-errors.js";
import { relayForCommand } from "./relay-settings.js";
import { runToolkitCommand } from "./run-command.js";

export function formatAgents(agents: readonly AgentRecord[], now: number): string {
  if (agents.length === 0) {
    return "No agent is running. Start one with acai --name NAME (or acai -p --listen --name NAME).\n";
  }
  const lines = agents.map((agent) => {
    const mode = agent.listening ? "listening" : "session";
    const age = Math.max(0, Math.round((now - agent.startedAt) / 1000));
    return `  ${inertText(agent.name)}  ${mode}  pid ${agent.pid} on ${inertText(agent.host)}  up ${age}s  ${inertText(agent.cwd)}`;
  });
  return `${["Running agents:", ...lines].join("\n")}\n`;
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
