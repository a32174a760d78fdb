/** `acai hooks replay`'s report: each recorded event's verdict then and now, as text or JSON. */
import type { AgentEvent } from "../../agent/events.js";
import type { Verdict } from "../../agent/verdicts.js";
import type { HookDefinition } from "../../hooks/contract/definition.js";
import type { AuditEntry } from "../../hooks/run/audit.js";
import { inertText, jsonForTerminal } from "../../terminal/inert-text.js";
import type { Inventory } from "./inventory.js";
import type { Heard } from "./replay-run.js";
import { runText, summarize, verdictDiff, verdictText } from "./replay-text.js";
import type { RecordedEvent } from "./replay-transcript.js";

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

/** A replay done: the hooks it ran, the transcript, what they did, and the events compared. */
export interface ReplayOutcome extends Heard {
  inventory: Inventory;
  hookSet: HookDefinition[];
  file: string;
  recorded: RecordedEvent[];
  results: ReplayedEvent[];
}

/** The recorded events that reached hooks or carried a verdict, then and now. */
export function replayedEvents(
  heard: Heard & { recorded: RecordedEvent[] },
  hookEventOf: Partial<Record<AgentEvent["type"], string>>,
): ReplayedEvent[] {
  const { runs, warnings, now } = heard;
  const results: ReplayedEvent[] = [];
  for (const item of heard.recorded) {
    const hookEvent = hookEventOf[item.event.type];
    if (hookEvent === undefined) continue;
    const itemRuns = runs.get(item.index) ?? [];
    const applied = item.applied ?? CONTINUE;
    const nowVerdict = now.get(item.index) ?? CONTINUE;
    if (itemRuns.length === 0 && item.applied === undefined && now.get(item.index) === undefined)
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
  return results;
}

export function replayJson(outcome: ReplayOutcome): string {
  const { recorded, results, hookSet } = outcome;
  const sessionId = recorded.find((r) => r.event.type === "session_start");
  return `${jsonForTerminal(
    {
      transcript: outcome.file,
      session: sessionId?.event.type === "session_start" ? sessionId.event.sessionId : undefined,
      hooks: hookSet.map((h) => ({
        name: h.name,
        scope: h.scope,
        source: h.sourceKind,
        file: h.file,
      })),
      events: recorded.length,
      replayed: results,
      differences: results.filter((r) => r.differs.length > 0).length,
    },
    2,
  )}\n`;
}

export function replayText(outcome: ReplayOutcome): string {
  const { recorded, results, hookSet, inventory } = outcome;
  const changed = results.filter((r) => r.differs.length > 0);
  const out: string[] = [
    `Replaying ${recorded.length} recorded events of ${outcome.file}`,
    `against the current hooks (${hookSet.length}: ${hookSet.map((h) => h.name).join(", ") || "none"}). Hooks run for real; no model, no tools.`,
  ];
  if (inventory.projectTrust === "untrusted" && !inventory.projectLoaded)
    out.push("Project hooks left out (--no-project).");
  for (const r of results) out.push("", ...replayedLines(r));
  out.push(
    "",
    changed.length === 0
      ? `No differences: the current hooks decide as the session's did (${results.length} event${results.length === 1 ? "" : "s"} reached hooks or had verdicts).`
      : `${changed.length} of ${results.length} event(s) would be decided differently now: ${changed.map((r) => `#${r.index} ${r.hook_event}`).join(", ")}.`,
  );
  // Hook names, reasons and recorded inputs are project and model text: each line inert.
  return `${out.map(inertText).join("\n")}\n`;
}

function replayedLines(r: ReplayedEvent): string[] {
  const lines = [`#${r.index} ${r.hook_event} — ${r.summary}`];
  for (const run of r.runs) lines.push(`    ${runText(run)}`);
  for (const warning of r.warnings) lines.push(`    warning: ${warning}`);
  if (r.differs.length === 0) lines.push(`    same as then: ${verdictText(r.now)}`);
  else {
    lines.push(`    then: ${verdictText(r.applied)}`);
    lines.push(`    now:  ${verdictText(r.now)}   ← differs (${r.differs.join(", ")})`);
  }
  return lines;
}
