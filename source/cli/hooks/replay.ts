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
import type { AgentEvent, Verdict } from "../../agent/events.js";
import type { HookDefinition } from "../../hooks/contract/definition.js";
import type { AuditEntry } from "../../hooks/run/audit.js";
import { inertText, jsonForTerminal } from "../../terminal/inert-text.js";
import type { CommandContext } from "../command-context.js";
import { runToolkitCommand } from "../commands/run-command.js";
import { CliError } from "../errors.js";
import { EXIT } from "../exit-codes.js";
import { replayEvents } from "./replay-run.js";
import { runText, summarize, verdictDiff, verdictText } from "./replay-text.js";
import { parseTranscript, resolveTranscript } from "./replay-transcript.js";

const CONTINUE: Verdict = { action: "continue" };

export interface ReplayedEvent {
  index: number;
  type: AgentEvent["type"];
  hook_event: string;
  summary: string;
  runs: AuditEntry[];
  warnings: string[];
  /** What the agent applied when the session ran (the transcript's verdict; continue when none). */
  applied: Verdict;
  /** What the current hooks decide. */
  now: Verdict;
  /** Fields of the verdict that differ (empty when the same). */
  differs: string[];
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
        const raw = command.optsWithGlobals() as {
          json?: boolean;
          yes?: boolean;
          trustProjectHooks?: boolean;
          trustProject?: boolean;
          projectHooks?: boolean;
          project?: boolean;
        };
        const trustOnce = raw.trustProject === true || raw.trustProjectHooks === true;
        const noProject = raw.project === false || raw.projectHooks === false;
        const { io } = ctx;
        const [{ withInventory }, { hookProcessRunner }] = await Promise.all([
          import("./inventory.js"),
          import("../commands/hook-runner.js"),
        ]);
        const runProcess = await hookProcessRunner();
        const where = {
          cwd: io.cwd,
          env: io.env,
          homeDir: io.homeDir,
          runner: runProcess,
          loadUntrustedProject: trustOnce,
          skipProject: noProject,
        };
        // The plugins' workers run the replay, and are stopped once it is over.
        const { inventory, hookSet, file, recorded, runs, warnings, now } = await withInventory(
          where,
          async (inventory) => {
            if (inventory.projectTrust === "untrusted" && !inventory.projectLoaded && !noProject) {
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
            const file = await resolveTranscript(target, io.cwd, inventory.paths.transcriptsDir);
            const recorded = parseTranscript(await readFile(file, "utf8"), file);
            const heard = await replayEvents({
              inventory,
              hookSet,
              recorded,
              io,
              runner: runProcess,
              assumeYes: raw.yes === true,
            });
            return { inventory, hookSet, file, recorded, ...heard };
          },
        );
        const { HOOK_EVENT_OF } = await import("../../hooks/contract/events/names.js");

        const results: ReplayedEvent[] = [];
        for (const item of recorded) {
          const hookEvent = HOOK_EVENT_OF[item.event.type];
          if (hookEvent === undefined) continue;
          const itemRuns = runs.get(item.index) ?? [];
          const applied = item.applied ?? CONTINUE;
          const nowVerdict = now.get(item.index) ?? CONTINUE;
          if (
            itemRuns.length === 0 &&
            item.applied === undefined &&
            now.get(item.index) === undefined
          )
            continue;
          results.push({
            index: item.index,
            type: item.event.type,
            hook_event: hookEvent,
            summary: summarize(item.event),
            runs: itemRuns,
            warnings: warnings.get(item.index) ?? [],
            applied,
            now: nowVerdict,
            differs: verdictDiff(applied, nowVerdict),
          });
        }
        const changed = results.filter((r) => r.differs.length > 0);
        const sessionId = recorded.find((r) => r.event.type === "session_start");

        if (raw.json) {
          io.stdout.write(
            `${jsonForTerminal(
              {
                transcript: file,
                session:
                  sessionId?.event.type === "session_start" ? sessionId.event.sessionId : undefined,
                hooks: hookSet.map((h) => ({
                  name: h.name,
                  scope: h.scope,
                  source: h.sourceKind,
                  file: h.file,
                })),
                events: recorded.length,
                replayed: results,
                differences: changed.length,
              },
              2,
            )}\n`,
          );
          return EXIT.ok;
        }
        const out: string[] = [
          `Replaying ${recorded.length} recorded events of ${file}`,
          `against the current hooks (${hookSet.length}: ${hookSet.map((h) => h.name).join(", ") || "none"}). Hooks run for real; no model, no tools.`,
        ];
        if (inventory.projectTrust === "untrusted" && !inventory.projectLoaded)
          out.push("Project hooks left out (--no-project).");
        for (const r of results) {
          out.push("", `#${r.index} ${r.hook_event} — ${r.summary}`);
          for (const run of r.runs) out.push(`    ${runText(run)}`);
          for (const warning of r.warnings) out.push(`    warning: ${warning}`);
          if (r.differs.length === 0) out.push(`    same as then: ${verdictText(r.now)}`);
          else {
            out.push(`    then: ${verdictText(r.applied)}`);
            out.push(`    now:  ${verdictText(r.now)}   ← differs (${r.differs.join(", ")})`);
          }
        }
        out.push(
          "",
          changed.length === 0
            ? `No differences: the current hooks decide as the session's did (${results.length} event${results.length === 1 ? "" : "s"} reached hooks or had verdicts).`
            : `${changed.length} of ${results.length} event(s) would be decided differently now: ${changed.map((r) => `#${r.index} ${r.hook_event}`).join(", ")}.`,
        );
        // Hook names, reasons and recorded inputs are project and model text: each line inert.
        io.stdout.write(`${out.map(inertText).join("\n")}\n`);
        return EXIT.ok;
      }),
    );
}
