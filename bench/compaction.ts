/**
 * What compaction costs and frees on a long session: the real Agent (built
 * code) runs the same 60-turn session in one process — each turn reads a
 * 6,000-character file through a tool, then answers — without a context
 * window (the baseline, the session before compaction: the conversation only
 * grows; it ends with one `/compact`) and with a 100,000-token window
 * (automatic compaction at 80 %). One pair of sessions warms up untimed;
 * then three runs, each `--sessions N` pairs (default 5), the order
 * alternating pair by pair; a run's time of each kind is its median session.
 *
 * RESULT lines, no target: the session's time with the window vs without
 * (to the end of the last turn; acai's own work per compaction in the
 * detail); the input tokens sent in all, with vs without; the context after
 * `/compact` at the end of the baseline vs before it. `--turns N` for a
 * quick check (the window shrinks with it: N/60 of 100,000 tokens).
 *
 * Run (Node 24 strips the types itself; the bench uses the built code):
 *   npm run build && node bench/compaction.ts [--turns 60] [--sessions 5]
 *
 * The model is acai's replay model, which answers at once and reports usage
 * estimated from the prompt (4 characters a token): the times are acai's own
 * work (splitting, the transcript, hooks-free event flow), not a model's; with
 * a real model the summary request — one request over the older part of the
 * conversation — is what a compaction costs, and its tokens are printed.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Agent } from "../dist/agent/agent.js";
import type { AgentEvent } from "../dist/agent/events.js";
import type { TurnInput } from "../dist/agent/types.js";
import { replayModelFromScript } from "../dist/models/replay.js";
import { NO_RULES } from "../dist/permissions/rules.js";
import { NO_SHELL_PARSER } from "../dist/permissions/shell/analyze.js";
import type { Tool } from "../dist/tools/types.js";
import { within } from "./support/deadline.ts";
import { median, medianRunIndex, numberArg, printResult, threeRuns } from "./support/result.ts";

const TURNS = numberArg("turns", 60);
const SESSIONS = numberArg("sessions", 5);
const FILE_CHARS = 6_000;
/** 100,000 tokens for 60 turns: compaction at 80 % comes around turn 48. */
const WINDOW = Math.round((100_000 * TURNS) / 60);
/** A session (replay model, no processes) that takes longer than this has hung. */
const SESSION_DEADLINE_MS = 120_000;

const readTool: Tool = {
  name: "ReadLog",
  description: "Reads a log chunk (bench tool)",
  inputSchema: { type: "object", properties: { n: { type: "number" } } },
  validate: (input) => ({ ok: true, value: input }),
  execute: async (input) => {
    const n = (input as { n: number }).n;
    const output = `chunk ${n}: ${"log line with some content ".repeat(FILE_CHARS / 26)}`;
    return { ok: true, output, response: output };
  },
};

/** The session's model: tool call, answer, per turn; a summary when asked for one. */
function benchModel() {
  const turns = [];
  for (let n = 1; n <= TURNS; n++) {
    turns.push({ tool_calls: [{ name: "ReadLog", input: { n } }] });
    turns.push({ text: `Chunk ${n} shows nothing unusual; moving on.` });
  }
  const session = replayModelFromScript({ turns }, { label: "bench" });
  const summary =
    "Summary: the user is reading log chunks one by one; none showed anything unusual so far. ".repeat(
      8,
    );
  const summaries = replayModelFromScript(
    { turns: Array.from({ length: 50 }, () => ({ text: summary })) },
    { label: "bench" },
  );
  return {
    ...session,
    doStream: (call: Parameters<typeof session.doStream>[0]) =>
      JSON.stringify(call.prompt).includes("Summarise the conversation so far")
        ? summaries.doStream(call)
        : session.doStream(call),
  };
}

interface Compaction {
  trigger: "manual" | "auto";
  before: number;
  after: number;
  summaryTokens: number;
  ms: number;
}

interface SessionFigures {
  /** From the start to the end of turn TURNS. */
  ms: number;
  /** Model requests and input tokens up to the end of turn TURNS (summary requests included). */
  requests: number;
  inputTokens: number;
  lastRequestTokens: number;
  compactions: Compaction[];
}

function agentFor(dir: string, id: string, contextWindow: number | undefined): Agent {
  return new Agent({
    model: benchModel(),
    modelId: "bench",
    tools: [readTool],
    cwd: dir,
    env: {},
    runner: async () => {
      throw new Error("no processes in this bench");
    },
    permissions: {
      mode: "default",
      rules: NO_RULES,
      paths: { projectDir: dir, homeDir: dir },
      cwd: dir,
      shell: NO_SHELL_PARSER,
    },
    sessionId: `bench-${id}`,
    transcriptPath: path.join(dir, `${id}.jsonl`),
    maxModelRetries: 0,
    ...(contextWindow ? { contextWindow } : {}),
  });
}

/** One event into the figures; throws when a turn ends other than normally. */
function count(figures: SessionFigures, event: AgentEvent, turnsDone: number): void {
  const counting = turnsDone < TURNS;
  if (event.type === "model_response" && counting) {
    figures.requests++;
    figures.inputTokens += event.usage.inputTokens;
    figures.lastRequestTokens = event.usage.inputTokens;
  } else if (event.type === "compact_end") {
    figures.compactions.push({
      trigger: event.trigger,
      before: event.tokensBefore,
      after: event.tokensAfter,
      summaryTokens: event.usage.totalTokens,
      ms: event.durationMs,
    });
    if (counting) {
      figures.requests++;
      figures.inputTokens += event.usage.inputTokens;
    }
  } else if (event.type === "turn_end" && event.stopReason !== "end_turn") {
    throw new Error(
      `turn ${turnsDone + 1} ended ${event.stopReason}${event.message ? `: ${event.message}` : ""}`,
    );
  }
}

async function session(
  dir: string,
  id: string,
  contextWindow: number | undefined,
  prompts: TurnInput[],
): Promise<SessionFigures> {
  const agent = agentFor(dir, id, contextWindow);
  const figures: SessionFigures = {
    ms: 0,
    requests: 0,
    inputTokens: 0,
    lastRequestTokens: 0,
    compactions: [],
  };
  let turnsDone = 0;
  const started = performance.now();
  for await (const event of agent.run({ prompts }) as AsyncGenerator<AgentEvent>) {
    count(figures, event, turnsDone);
    if (event.type === "turn_end" && ++turnsDone === TURNS)
      figures.ms = performance.now() - started;
  }
  if (turnsDone < TURNS) throw new Error(`the session ended after ${turnsDone} of ${TURNS} turns`);
  return figures;
}

const PROMPTS: TurnInput[] = Array.from({ length: TURNS }, (_, i) => ({
  prompt: `Read log chunk ${i + 1} and tell me if anything is unusual.`,
}));
const WITH_COMPACT: TurnInput[] = [...PROMPTS, { prompt: "", command: "compact" as const }];

interface Pair {
  without: SessionFigures;
  with: SessionFigures;
}

let sessions = 0;
/** The session before compaction (ending with /compact) and the one with the window; `first` says which starts. */
async function pair(dir: string, first: "without" | "with"): Promise<Pair> {
  const run = (kind: "without" | "with") => {
    const id = `${kind}-${sessions++}`;
    const work =
      kind === "without"
        ? session(dir, id, undefined, WITH_COMPACT)
        : session(dir, id, WINDOW, PROMPTS);
    return within(work, SESSION_DEADLINE_MS, `session ${id}`);
  };
  const second = first === "without" ? "with" : "without";
  const a = await run(first);
  const b = await run(second);
  return first === "without" ? { without: a, with: b } : { without: b, with: a };
}

const n = (value: number) => Math.round(value).toLocaleString("en-US");
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const mean = (values: number[]) => sum(values) / values.length;

function report(runs: Pair[][], loads: number[]): void {
  const times = runs.map((pairs) => ({
    without: median(pairs.map((p) => p.without.ms)),
    with: median(pairs.map((p) => p.with.ms)),
    compactMs: mean(pairs.flatMap((p) => p.with.compactions.map((c) => c.ms))),
  }));
  const ratios = times.map((t) => t.with / t.without);
  const mid = times[medianRunIndex(ratios)]!;
  const last = runs[runs.length - 1]!.at(-1)!;
  const auto = last.with.compactions;
  for (const [i, c] of auto.entries()) {
    console.log(
      `compaction ${i + 1} (last session): ~${n(c.before)} → ~${n(c.after)} tokens; the summary request cost ${n(c.summaryTokens)} tokens; ${c.ms.toFixed(1)} ms of acai's own work`,
    );
  }
  printResult({
    name: `a ${TURNS}-turn session with a ${n(WINDOW)}-token window (automatic compaction) vs the same session without (before compaction), session time, median of ${SESSIONS}`,
    ratios,
    loads,
    detail: `median run: without ${mid.without.toFixed(0)} ms, with ${mid.with.toFixed(0)} ms (${auto.length} compaction${auto.length === 1 ? "" : "s"} a session, ${mid.compactMs.toFixed(1)} ms of acai's own work each)`,
  });
  const tokens = runs.map((pairs) => pairs.at(-1)!);
  printResult({
    name: `the same, input tokens sent in all (the replay model's estimate: 4 characters a token)`,
    ratios: tokens.map((p) => p.with.inputTokens / p.without.inputTokens),
    loads,
    detail: `without ${n(last.without.inputTokens)} tokens over ${n(last.without.requests)} requests, last request ${n(last.without.lastRequestTokens)}; with ${n(last.with.inputTokens)} over ${n(last.with.requests)} (summary requests included), last request ${n(last.with.lastRequestTokens)}`,
  });
  const manual = runs.map((pairs) => {
    const all = pairs.flatMap((p) => p.without.compactions.filter((c) => c.trigger === "manual"));
    if (all.length !== pairs.length)
      throw new Error("a /compact at the end of a session did not compact");
    return {
      ratio: mean(all.map((c) => c.after / c.before)),
      ms: mean(all.map((c) => c.ms)),
      c: all.at(-1)!,
    };
  });
  const manualRatios = manual.map((m) => m.ratio);
  const m = manual[medianRunIndex(manualRatios)]!;
  printResult({
    name: `/compact at the end of the ${TURNS}-turn session without a window: the context after vs before`,
    ratios: manualRatios,
    loads,
    detail: `median run: ~${n(m.c.before)} → ~${n(m.c.after)} tokens, summary request ${n(m.c.summaryTokens)} tokens, ${m.ms.toFixed(1)} ms of acai's own work (mean of ${SESSIONS})`,
  });
}

const dir = await mkdtemp(path.join(os.tmpdir(), "acai-bench-compaction-"));
try {
  console.log(
    `A ${TURNS}-turn session (each turn: a ${n(FILE_CHARS)}-character tool result, then an answer); one pair warms up, then three runs of ${SESSIONS} pairs`,
  );
  await pair(dir, "without");
  const { values, loads } = await threeRuns(async (run) => {
    const pairs: Pair[] = [];
    for (let i = 0; i < SESSIONS; i++) {
      pairs.push(await pair(dir, (run * SESSIONS + i) % 2 === 0 ? "with" : "without"));
    }
    return pairs;
  });
  report(values, loads);
} catch (error) {
  console.error(`compaction: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await rm(dir, { recursive: true, force: true });
}
// A session left running by a failure must not keep the bench alive.
if (process.exitCode === 1) process.exit(1);
