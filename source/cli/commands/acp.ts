/** `acai acp`: run acai as an Agent Client Protocol agent over stdio (docs/acp.md). */
import type { Command } from "commander";
import type { CommandContext } from "../command-context.js";
import { runToolkitCommand } from "./run-command.js";

export function registerAcpCommand(program: Command, ctx: CommandContext): Command {
  return program
    .command("acp")
    .description(
      "run as an Agent Client Protocol agent on stdin/stdout, for editors (Zed, JetBrains, Neovim); see docs/acp.md",
    )
    .action(() =>
      runToolkitCommand(ctx, async () => {
        const { runAcp } = await import("../acp/server.js");
        return runAcp(ctx);
      }),
    );
}
