/**
 * What the audit log says about one tool call's hooks (pure): its run lines
 * and `considered` lines (hooks/run/considered.ts) read back as untrusted
 * data, folded per event into every hook that was considered — which ran and
 * what it answered, which did not and why — and what the chain decided.
 * `acai hooks why` prints it (why-text.ts), `acai sessions show` too.
 */
import { z } from "zod";

/** The fields of a hook run line that the explanation reads. */
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

/** One parsed audit line about some tool call, or undefined (no tool call, another kind, malformed). */
export function toolCallLineOf(value: unknown): WhyLine | undefined {
  const considered = ConsideredLineSchema.safeParse(value);
  if (considered.success) return { kind: "considered", line: considered.data };
  const run = RunLineSchema.safeParse(value);
  return run.success ? { kind: "run", line: run.data } : undefined;
}

/** One parsed audit line about `toolCallId`, or undefined. */
export function whyLineOf(value: unknown, toolCallId: string): WhyLine | undefined {
  const line = toolCallLineOf(value);
  return line?.line.tool_call_id === toolCallId ? line : undefined;
}

/** What a hook answered, as the log says (text as the hook wrote it: untrusted). */
export interface RanHook {
  status: "ran";
  hook: string;
  file?: string;
  answered: string;
  /** What took effect after validation and the failure policy, when different. */
  effect?: string;
  async: boolean;
  reason?: string;
  error?: string;
  exit_code?: number;
  duration_ms?: number;
  timed_out: boolean;
}

/** A hook the plan held that has no run: the chain ended first, or a change made its matcher miss. */
interface UnreachedHook {
  status: "not_reached";
  hook: string;
  file: string;
  /** The hook whose answer ended the chain; absent: the input changed and no longer matched. */
  ended_by?: { hook: string; effect: string };
}

/** A configured hook that was not planned: disabled, once, `if`, matcher. */
interface NotRunHook {
  status: "not_run";
  hook: string;
  file: string;
  why: string;
  detail: string;
}

export type ConsideredHookView = RanHook | UnreachedHook | NotRunHook;

export interface EventExplanation {
  event: string;
  hooks: ConsideredHookView[];
  /** The chain's outcome, in words (hook text inside is untrusted). */
  decided: string;
}

/** What took effect of a run: the failure policy's effect, else the answer. */
const effectOf = (run: RunLine): string => run.effect ?? run.decision;

const ENDS_CHAIN = new Set(["block", "stop", "skip"]);

/** The chain's outcome of one event, in words. */
function decided(runs: readonly RunLine[]): string {
  const sync = runs.filter((r) => r.async !== true);
  const ender = sync.find((r) => ENDS_CHAIN.has(effectOf(r)));
  if (ender !== undefined) {
    const because = ender.reason === undefined ? "" : `: ${flat(ender.reason)}`;
    return `${effectOf(ender)} by ${ender.hook}${because}`;
  }
  const changed = sync.filter((r) => effectOf(r) === "modify").map((r) => r.hook);
  if (changed.length > 0) return `go on, with the input changed by ${changed.join(", ")}`;
  const asked = sync.find((r) => effectOf(r) === "ask" || effectOf(r) === "allow");
  if (asked !== undefined) return `${effectOf(asked)} (${asked.hook})`;
  return sync.length === 0 ? "nothing ran: go on" : "go on";
}

function flat(text: string, max = 160): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

function ranView(run: RunLine, file: string | undefined): RanHook {
  const effect = effectOf(run);
  return {
    status: "ran",
    hook: run.hook,
    ...(file === undefined ? {} : { file }),
    answered: run.decision,
    ...(effect === run.decision ? {} : { effect }),
    async: run.async === true,
    ...(run.reason === undefined ? {} : { reason: run.reason }),
    ...(run.error === undefined ? {} : { error: run.error }),
    ...(typeof run.exit_code === "number" ? { exit_code: run.exit_code } : {}),
    ...(run.duration_ms === undefined ? {} : { duration_ms: run.duration_ms }),
    timed_out: run.timed_out === true,
  };
}

function unreachedView(hook: string, file: string, runs: readonly RunLine[]): UnreachedHook {
  const ender = runs.find((r) => r.async !== true && ENDS_CHAIN.has(effectOf(r)));
  return ender === undefined
    ? { status: "not_reached", hook, file }
    : {
        status: "not_reached",
        hook,
        file,
        ended_by: { hook: ender.hook, effect: effectOf(ender) },
      };
}

function eventExplanation(
  event: string,
  considered: ConsideredLine | undefined,
  runs: RunLine[],
): EventExplanation {
  const ranBy = new Map(runs.map((r) => [r.hook_id, r]));
  const listed = new Set<string>();
  const hooks: ConsideredHookView[] = [];
  for (const hook of considered?.hooks ?? []) {
    listed.add(hook.hook_id);
    const run = ranBy.get(hook.hook_id);
    if (run !== undefined) hooks.push(ranView(run, hook.file));
    else if (hook.status === "planned") hooks.push(unreachedView(hook.hook, hook.file, runs));
    else {
      const why = hook.why ?? "?";
      hooks.push({
        status: "not_run",
        hook: hook.hook,
        file: hook.file,
        why,
        detail: hook.detail ?? "",
      });
    }
  }
  // Runs with no considered line (a log written before acai recorded them).
  for (const run of runs) if (!listed.has(run.hook_id)) hooks.push(ranView(run, undefined));
  return { event, hooks, decided: decided(runs) };
}

/** One tool call's hooks, event by event in the order they came. */
export function explainToolCall(lines: readonly WhyLine[]): EventExplanation[] {
  const events: string[] = [];
  const considered = new Map<string, ConsideredLine>();
  const runs = new Map<string, RunLine[]>();
  for (const entry of lines) {
    const { event } = entry.line;
    if (!events.includes(event)) events.push(event);
    if (entry.kind === "considered") considered.set(event, entry.line);
    else runs.set(event, [...(runs.get(event) ?? []), entry.line]);
  }
  return events.map((event) =>
    eventExplanation(event, considered.get(event), runs.get(event) ?? []),
  );
}
