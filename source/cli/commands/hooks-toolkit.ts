/**
 * The hook author toolkit's subcommands of `acai hooks` (init, list, test,
 * replay, log, import), one module each. Registration is cheap: every module
 * imports its heavy parts (registry, runner) only when its command runs.
 */
import type { Command } from "commander";
import { CliError } from "../errors.js";
import type { CommandContext } from "../program.js";
import { inertLines } from "../terminal-text.js";
import { registerHooksImport } from "./hooks-import.js";
import { registerHooksInit } from "./hooks-init.js";
import { registerHooksList } from "./hooks-list.js";
import { registerHooksLog } from "./hooks-log.js";
import { registerHooksReplay } from "./hooks-replay.js";
import { registerHooksTest } from "./hooks-test.js";

export function registerHookToolkit(hooks: Command, ctx: CommandContext): void {
  registerHooksList(hooks, ctx);
  registerHooksTest(hooks, ctx);
  registerHooksReplay(hooks, ctx);
  registerHooksLog(hooks, ctx);
  registerHooksImport(hooks, ctx);
  registerHooksInit(hooks, ctx);
}

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
