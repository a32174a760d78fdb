import type { Command } from "commander";
import { formatHookList } from "../../session/hook-list.js";
import { reviewLines } from "../../session/review.js";
import { inertText } from "../../terminal/inert-text.js";
import type { CommandContext } from "../command-context.js";
import { runToolkitCommand } from "../commands/run-command.js";
import { UsageError } from "../errors.js";
import { EXIT } from "../exit-codes.js";
import { registerHookToolkit } from "./toolkit.js";

/**
 * `acai hooks …`. Each subcommand lazy-loads what it needs so that `acai -p`
 * and `acai --help` do not pay for it. Add further subcommands here.
 */
export function registerHooksCommand(program: Command, ctx: CommandContext): Command {
  const hooks = program
    .command("hooks")
    .description("inspect and manage hooks")
    .configureHelp({ showGlobalOptions: false });

  hooks
    .command("trust")
    .description("trust the current set of this project's hooks and tools (any change revokes it)")
    .action(() =>
      runToolkitCommand(ctx, async () => {
        const [{ checkProjectTrust }, { countHooksAndTools }, { SettingsError }] =
          await Promise.all([
            import("../../session/trust.js"),
            import("../../session/errors.js"),
            import("../../config/settings.js"),
          ]);
        const { io } = ctx;
        const state = await checkProjectTrust({
          cwd: io.cwd,
          env: io.env,
          homeDir: io.homeDir,
        }).catch((error: unknown) => {
          // A bad settings file is a usage error (exit 2), as for `acai -p`.
          throw error instanceof SettingsError ? new UsageError(error.message) : error;
        });
        const root = inertText(state.review.root);
        const review = reviewLines(state.review).join("\n");
        switch (state.status) {
          case "no-project-hooks":
            io.stdout.write(`No project hooks, tools or settings in ${root}: nothing to trust.\n`);
            break;
          case "trusted": {
            io.stdout.write(
              `Already trusted: the project hooks, tools and settings in ${root} have not changed.\n`,
            );
            const secrets = (await state.confirmEnvRequests?.()) ?? [];
            if (secrets.length > 0) io.stdout.write(`${secrets.join("\n")}\n`);
            break;
          }
          case "untrusted": {
            if (state.review.incomplete !== undefined) {
              io.stderr.write(`acai: error: ${review}\n`);
              return EXIT.untrustedHooks;
            }
            await state.trust();
            const list = state.untrusted.length > 0 ? `\n${formatHookList(state.untrusted)}` : "";
            const what =
              state.untrusted.length > 0
                ? countHooksAndTools(state.untrusted, "project")
                : "the project settings";
            io.stdout.write(
              `Trusted ${what} in ${root}:${list}\n${review}\nAny change to these files or settings revokes the trust.\n`,
            );
            // Describe runs only now (the set is trusted): the secrets it asks for are shown and confirmed.
            const secrets = (await state.confirmEnvRequests?.()) ?? [];
            if (secrets.length > 0) io.stdout.write(`${secrets.join("\n")}\n`);
            break;
          }
          default:
            return state.status satisfies never;
        }
        return EXIT.ok;
      }),
    );

  registerHookToolkit(hooks, ctx);
  return hooks;
}
