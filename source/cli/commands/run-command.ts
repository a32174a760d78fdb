import { inertLines } from "../../terminal/inert-text.js";
import type { CommandContext } from "../command-context.js";
import { CliError } from "../errors.js";

/**
 * Runs a command body; a CliError becomes its message on stderr and its exit
 * code. Messages quote project files and hooks: inert on the terminal (line
 * breaks kept, the message's own layout; project parts are made inert, newlines
 * included, where the message is built).
 */
export async function runToolkitCommand(
  ctx: CommandContext,
  body: () => Promise<number>,
): Promise<void> {
  try {
    ctx.setExitCode(await body());
  } catch (error) {
    if (error instanceof CliError) {
      ctx.io.stderr.write(`acai: error: ${inertLines(error.message)}\n`);
      ctx.setExitCode(error.exitCode);
      return;
    }
    throw error;
  }
}
