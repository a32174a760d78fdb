/**
 * The hook author toolkit's subcommands of `acai hooks` (init, list, test,
 * replay, log, why, import, disable/enable), one module each. Registration is cheap: every module
 * imports its heavy parts (registry, runner) only when its command runs.
 */
import type { Command } from "commander";
import type { CommandContext } from "../command-context.js";
import { registerHooksDisable } from "./disable.js";
import { registerHooksImport } from "./import.js";
import { registerHooksInit } from "./init.js";
import { registerHooksList } from "./list.js";
import { registerHooksLog } from "./log.js";
import { registerHooksReplay } from "./replay.js";
import { registerHooksTest } from "./test.js";
import { registerHooksWhy } from "./why.js";

export function registerHookToolkit(hooks: Command, ctx: CommandContext): void {
  registerHooksList(hooks, ctx);
  registerHooksTest(hooks, ctx);
  registerHooksReplay(hooks, ctx);
  registerHooksLog(hooks, ctx);
  registerHooksWhy(hooks, ctx);
  registerHooksImport(hooks, ctx);
  registerHooksInit(hooks, ctx);
  registerHooksDisable(hooks, ctx);
}
