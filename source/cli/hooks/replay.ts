/**
 * `acai hooks replay <transcript|session-id>`: feeds the agent events recorded
 * in a session transcript through the real hook interceptor with the CURRENT
 * hook set — no model, no tools — and compares the verdict each gate gets now
 * with the verdict the agent applied then (the transcript records those).
 *
 * Hooks run for real (they may have side effects, and see today's files);
 * `ask` is denied as in a headless run unless --yes.
 */
import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import type { HookDefinition } from "../../hooks/contract/definition.js";
import type { ProcessRunner } from "../../process/types.js";
import type { CommandContext } from "../command-context.js";
import { runToolkitCommand } from "../commands/run-command.js";
import { CliError } from "../errors.js";
import { EXIT } from "../exit-codes.js";
import type { Inventory } from "./inventory.js";
import { type ReplayOutcome, replayedEvents, replayJson, replayText } from "./replay-report.js";
import { replayEvents } from "./replay-run.js";
import { parseTranscript, resolveTranscript } from "./replay-transcript.js";

/** The root program's flags replay honours, with its own --json. */
interface ReplayFlags {
  json?: boolean;
  yes?: boolean;
  trustProjectHooks?: boolean;
  trustProject?: boolean;
  projectHooks?: boolean;
  project?: boolean;
}

export function registerHooksReplay(hooks: Command, ctx: CommandContext): void {
  hooks
    .command("replay")
    .description(
      "re-run the current hooks against the events of a recorded session (no model, no tools) and show what they decide differently",
    )
    .argument(
      "<transcript>",
      "transcript file (<ACAI_HOME>/transcripts/*.jsonl) or session id (its start is enough, as `acai hooks log` prints it)",
    )
    .option("--json", "print JSON", false)
    .addHelpText(
      "after",
      "\nacai's own flags apply: --trust-project (run untrusted project hooks this once), --no-project, -y/--yes (approve `ask`; denied otherwise, as in acai -p).",
    )
    .action((target: string, _options: unknown, command: Command) =>
      runToolkitCommand(ctx, async () => {
        // --trust-project, --no-project (and their older names) and --yes belong to the root program.
        const flags = command.optsWithGlobals() as ReplayFlags;
        const outcome = await replay(ctx, target, flags);
        ctx.io.stdout.write(flags.json ? replayJson(outcome) : replayText(outcome));
        return EXIT.ok;
      }),
    );
}

async function replay(
  ctx: CommandContext,
  target: string,
  flags: ReplayFlags,
): Promise<ReplayOutcome> {
  const noProject = flags.project === false || flags.projectHooks === false;
  const { io } = ctx;
  const [{ withInventory }, { hookProcessRunner }] = await Promise.all([
    import("./inventory.js"),
    import("../commands/hook-runner.js"),
  ]);
  const runner = await hookProcessRunner();
  const where = {
    cwd: io.cwd,
    env: io.env,
    homeDir: io.homeDir,
    runner,
    loadUntrustedProject: flags.trustProject === true || flags.trustProjectHooks === true,
    skipProject: noProject,
  };
  // The plugins' workers run the replay, and are stopped once it is over.
  const done = await withInventory(where, (inventory) =>
    replayWith(inventory, { ctx, target, runner, noProject, assumeYes: flags.yes === true }),
  );
  const { HOOK_EVENT_OF } = await import("../../hooks/contract/events/names.js");
  return { ...done, results: replayedEvents(done, HOOK_EVENT_OF) };
}

async function replayWith(
  inventory: Inventory,
  how: {
    ctx: CommandContext;
    target: string;
    runner: ProcessRunner;
    noProject: boolean;
    assumeYes: boolean;
  },
): Promise<Omit<ReplayOutcome, "results">> {
  if (inventory.projectTrust === "untrusted" && !inventory.projectLoaded && !how.noProject) {
    throw new CliError(
      `This project's hooks are not trusted, and replay runs them. Review them (\`acai hooks list\`), then run \`acai hooks trust\`; or pass --trust-project (this run only) or --no-project.`,
      EXIT.untrustedHooks,
    );
  }
  const hookSet: HookDefinition[] = inventory.entries.flatMap((entry) =>
    entry.status === "ok" && (entry.hook.scope === "user" || inventory.projectLoaded)
      ? [entry.hook]
      : [],
  );
  const { io } = how.ctx;
  const file = await resolveTranscript(how.target, io.cwd, inventory.paths.transcriptsDir);
  const recorded = parseTranscript(await readFile(file, "utf8"), file);
  const heard = await replayEvents({
    inventory,
    hookSet,
    recorded,
    io,
    runner: how.runner,
    assumeYes: how.assumeYes,
  });
  return { inventory, hookSet, file, recorded, ...heard };
}
