/**
 * `acai hooks test <name|path> [--event E] [--input JSON|@file] [--tool T] [--json]`
 *
 * Runs ONE hook against a sample event, exactly as a session would (same
 * payload builder, same runner, same decoding), and shows everything: the
 * stdin sent, exit code, stdout, stderr, duration, the decision and what acai
 * would do with it. A hook whose matcher does not select the sample is not
 * run: a session would not run it either. Exit status: 0 acai would go on, 2 it would block (or
 * stop, or deny an `ask` headless), 1 the hook failed.
 *
 * The steps, one module each: the options (test-options.ts), which hook
 * (test-target.ts), the sample (test-payload.ts), the run
 * (test-run.ts) and the report (test-report.ts).
 */
import type { Command } from "commander";
import type { HookDefinition, HookEventName } from "../../hooks/contract/definition.js";
import type { MatchSubject } from "../../hooks/contract/match.js";
import type { ProcessRunner } from "../../process/types.js";
import { inertText } from "../../terminal/inert-text.js";
import type { CommandContext } from "../command-context.js";
import { runToolkitCommand } from "../commands/run-command.js";
import { EXIT } from "../exit-codes.js";
import { parseEventOption } from "./init.js";
import type { Inventory } from "./inventory.js";
import type { TestOptions } from "./test-options.js";
import type { Tested } from "./test-report.js";
import type { TestRun } from "./test-run.js";
import type { StderrOf, Target } from "./test-target.js";

export function registerHooksTest(hooks: Command, ctx: CommandContext): void {
  hooks
    .command("test")
    .description(
      "run one hook against a sample event and show exactly what happens (exit 0 go on, 2 would block, 1 failed)",
    )
    .argument("<hook>", "hook name (as in `acai hooks list`) or file path")
    .option(
      "--event <event>",
      "event to send (acai or Claude Code name; default: the hook's event when it has one)",
      parseEventOption,
    )
    .option(
      "--input <json>",
      "payload fields to set, as JSON or @file (merged over a realistic sample)",
    )
    .option(
      "--tool <name>",
      "tool of a tool event (default: the one the hook's matcher names, else Bash)",
    )
    .option("--json", "print one JSON object", false)
    .action((target: string, raw: TestOptions) =>
      runToolkitCommand(ctx, () => testHook(ctx, target, raw)),
    );
}

async function testHook(ctx: CommandContext, target: string, raw: TestOptions): Promise<number> {
  const { io } = ctx;
  const [
    { withInventory },
    { hookProcessRunner },
    { readInputOption },
    { recordingRunner },
    report,
  ] = await Promise.all([
    import("./inventory.js"),
    import("../commands/hook-runner.js"),
    import("./test-options.js"),
    import("./test-target.js"),
    import("./test-report.js"),
  ]);
  const extra = await readInputOption(raw.input, io.cwd);
  const runProcess = await hookProcessRunner();
  const describing = recordingRunner(runProcess);
  const where = { cwd: io.cwd, env: io.env, homeDir: io.homeDir, runner: describing.runner };
  // The plugins' workers are stopped before the report is printed: nothing is left running.
  const outcome = await withInventory(where, (inventory) =>
    testIn(inventory, { target, raw, extra, io, describing, runProcess }),
  );
  if (outcome.kind === "not selected") {
    io.stdout.write(report.notSelectedReport(outcome.tested, outcome.subject, raw.json));
    return EXIT.ok;
  }
  const { tested, run } = outcome;
  io.stdout.write(raw.json ? report.jsonReport(tested, run) : report.textReport(tested, run));
  return run.exitCode;
}

type Outcome =
  | { kind: "not selected"; tested: Tested; subject: MatchSubject }
  | { kind: "ran"; tested: Tested; run: TestRun };

/** Finds the hook, builds the sample and runs the hook on it, if a session would. */
async function testIn(
  inventory: Inventory,
  args: {
    target: string;
    raw: TestOptions;
    extra: Record<string, unknown>;
    io: CommandContext["io"];
    describing: { runner: ProcessRunner; stderrOf: StderrOf };
    runProcess: ProcessRunner;
  },
): Promise<Outcome> {
  const { raw, io, describing } = args;
  const [{ chooseEvent }, { findTarget }, { buildSample, unselectedSubject }, { runTestHook }] =
    await Promise.all([
      import("./test-options.js"),
      import("./test-target.js"),
      import("./test-payload.js"),
      import("./test-run.js"),
    ]);
  const found = await findTarget(inventory, args.target, raw.event, {
    runner: describing.runner,
    env: io.env,
    cwd: io.cwd,
    stderrOf: describing.stderrOf,
  });
  const { hook } = found;
  const event = chooseEvent(hook, raw.event);
  const sample = await buildSample({ hook, event, tool: raw.tool, extra: args.extra, inventory });
  const tested = {
    hook,
    event,
    notes: notesFor(found, event),
    untrusted: found.untrusted,
    payload: sample.payload,
  };
  if (hook.events.includes(event)) {
    const subject = unselectedSubject(hook, event, sample, inventory.projectDir);
    if (subject !== undefined) return { kind: "not selected", tested, subject };
  }
  const run = await runTestHook({
    hook,
    event,
    sample,
    inventory,
    runner: args.runProcess,
    env: io.env,
  });
  return { kind: "ran", tested, run };
}

/** What the user should know before reading the run: it is untrusted, or not on this event. */
function notesFor(found: Target, event: HookEventName): string[] {
  const hook: HookDefinition = found.hook;
  const notes: string[] = [];
  if (found.untrusted) {
    notes.push(
      found.adHoc
        ? "note: this file is not one of the hooks acai loads; running it anyway because you asked."
        : "note: this project's hooks are not trusted; running this one hook anyway because you asked (trust is not recorded).",
    );
  }
  if (!hook.events.includes(event)) {
    notes.push(
      `note: ${inertText(hook.name)} does not listen to ${event} (its events: ${inertText(hook.events.join(", "))}); running it anyway.`,
    );
  }
  return notes;
}
