/**
 * `acai hooks why`'s explanation of one tool call, from its audit lines
 * (pure): per event, every hook that was considered — which ran and what it
 * answered, which did not and why — and what the chain decided.
 */
import { z } from "zod";
import { inertText } from "../../terminal/inert-text.js";

/** The fields of a hook run line that the explanation reads (the audit log is read as untrusted). */
const RunLineSchema = z.object({
  session: z.string(),
  event: z.string(),
  hook: z.string(),
  hook_id: z.string(),
  tool_call_id: z.string(),
  decision: z.string(),
  effect: z.string().optional(),
  exit_code: z.number().nullable().optional(),
  duration_ms: z.number().optional(),
  timed_out: z.boolean().optional(),
  async: z.boolean().optional(),
  reason: z.string().optional(),
  error: z.string().optional(),
});

const ConsideredLineSchema = z.object({
  kind: z.literal("considered"),
  session: z.string(),
  event: z.string(),
  tool_call_id: z.string(),
  hooks: z
    .array(
      z.object({
        hook: z.string(),
        hook_id: z.string(),
        file: z.string(),
        status: z.enum(["planned", "not_run"]),
        why: z.string().optional(),
        detail: z.string().optional(),
      }),
    )
    .max(10_000),
});

type RunLine = z.infer<typeof RunLineSchema>;
type ConsideredLine = z.infer<typeof ConsideredLineSchema>;

export type WhyLine = { kind: "run"; line: RunLine } | { kind: "considered"; line: ConsideredLine };

/** One parsed audit line about a tool call, or undefined (another call, another kind, or malformed). */
export function whyLineOf(value: unknown, toolCallId: string): WhyLine | undefined {
  const considered = ConsideredLineSchema.safeParse(value);
  if (considered.success) {
    return considered.data.tool_call_id === toolCallId
      ? { kind: "considered", line: considered.data }
      : undefined;
  }
  const run = RunLineSchema.safeParse(value);
  if (run.success && run.data.tool_call_id === toolCallId) return { kind: "run", line: run.data };
  return undefined;
}

/** What took effect of a run: the failure policy's effect, else the answer. */
const effectOf = (run: RunLine): string => run.effect ?? run.decision;

const ENDS_CHAIN = new Set(["block", "stop", "skip"]);

/** The chain's outcome of one event, in words. */
function decided(runs: readonly RunLine[]): string {
  const sync = runs.filter((r) => r.async !== true);
  const ender = sync.find((r) => ENDS_CHAIN.has(effectOf(r)));
  if (ender !== undefined) {
    const because = ender.reason === undefined ? "" : `: ${oneLine(ender.reason)}`;
    return `${effectOf(ender)} by ${ender.hook}${because}`;
  }
  const changed = sync.filter((r) => effectOf(r) === "modify").map((r) => r.hook);
  if (changed.length > 0) return `go on, with the input changed by ${changed.join(", ")}`;
  const asked = sync.find((r) => effectOf(r) === "ask" || effectOf(r) === "allow");
  if (asked !== undefined) return `${effectOf(asked)} (${asked.hook})`;
  return sync.length === 0 ? "nothing ran: go on" : "go on";
}

function oneLine(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return inertText(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
}

function ranText(run: RunLine): string {
  const effect = effectOf(run);
  const answered =
    effect === run.decision ? run.decision : `${run.decision} (took effect: ${effect})`;
  const parts = [`ran${run.async === true ? " (async)" : ""}, answered ${answered}`];
  if (run.reason !== undefined) parts.push(`reason: ${oneLine(run.reason)}`);
  if (run.error !== undefined) parts.push(`error: ${oneLine(run.error)}`);
  const facts = [
    run.exit_code === undefined || run.exit_code === null ? undefined : `exit ${run.exit_code}`,
    run.duration_ms === undefined ? undefined : `${run.duration_ms} ms`,
    run.timed_out === true ? "timed out" : undefined,
  ].filter((f) => f !== undefined);
  return `${parts.join("; ")}${facts.length > 0 ? ` [${facts.join(", ")}]` : ""}`;
}

/** Why a planned hook has no run line: the chain ended before it, or its matcher no longer matched. */
function unreachedText(runs: readonly RunLine[]): string {
  const ender = runs.find((r) => r.async !== true && ENDS_CHAIN.has(effectOf(r)));
  return ender === undefined
    ? "not run: matched at first, but not the input as earlier hooks changed it"
    : `not reached: the chain ended at ${ender.hook}'s ${effectOf(ender)}`;
}

/** One event's block of the explanation. */
function eventText(
  event: string,
  considered: ConsideredLine | undefined,
  runs: RunLine[],
): string[] {
  const out = [`${event}:`];
  const ranBy = new Map(runs.map((r) => [r.hook_id, r]));
  const listed = new Set<string>();
  for (const hook of considered?.hooks ?? []) {
    listed.add(hook.hook_id);
    const name = `  ${inertText(hook.hook)} (${inertText(hook.file)})`;
    const run = ranBy.get(hook.hook_id);
    if (run !== undefined) out.push(`${name}: ${ranText(run)}`);
    else if (hook.status === "planned") out.push(`${name}: ${unreachedText(runs)}`);
    else out.push(`${name}: not run (${hook.why ?? "?"}) — ${oneLine(hook.detail ?? "")}`);
  }
  // Runs with no considered line (a log written before acai recorded them).
  for (const run of runs) {
    if (!listed.has(run.hook_id)) out.push(`  ${inertText(run.hook)}: ${ranText(run)}`);
  }
  out.push(`  decided: ${decided(runs)}`);
  return out;
}

/** The explanation of one tool call in one session, event by event in the order they came. */
export function whyText(toolCallId: string, session: string, lines: readonly WhyLine[]): string {
  const events: string[] = [];
  const considered = new Map<string, ConsideredLine>();
  const runs = new Map<string, RunLine[]>();
  for (const entry of lines) {
    const { event } = entry.line;
    if (!events.includes(event)) events.push(event);
    if (entry.kind === "considered") considered.set(event, entry.line);
    else runs.set(event, [...(runs.get(event) ?? []), entry.line]);
  }
  const head = `Tool call ${inertText(toolCallId)} in session ${inertText(session)}:`;
  const body = events.flatMap((event) =>
    eventText(inertText(event), considered.get(event), runs.get(event) ?? []),
  );
  return [head, ...body].join("\n");
}
