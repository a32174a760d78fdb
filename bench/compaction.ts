/**
 * What compaction costs and frees on a long session: the real Agent (built
 * code) runs the same 60-turn session twice in one process — each turn reads a
 * 6,000-character file through a tool, then answers — once without a context
 * window (the baseline: the conversation only grows) and once with a
 * 100,000-token window (automatic compaction at 80 %). Then one manual
 * compaction of the baseline's final conversation.
 *
 * Run (Node 24 strips the types itself; the bench uses the built code):
 *   npx tsc -p tsconfig.json && node bench/compaction.ts
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

const TURNS = 60;
const FILE_CHARS = 6_000;
const WINDOW = 100_000;

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

interface RunFigures {
  ms: number;
  requests: number;
  inputTokens: number;
  lastRequestTokens: number;
  compactions: { before: number; after: number; summaryTokens: number; ms: number }[];
}

async function run(
  dir: string,
  contextWindow: number | undefined,
  prompts: TurnInput[],
): Promise<RunFigures> {
  const agent = new Agent({
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
    sessionId: `bench-${contextWindow ?? "none"}-${prompts.length}`,
    transcriptPath: path.join(dir, `${contextWindow ?? "none"}-${prompts.length}.jsonl`),
    maxModelRetries: 0,
    ...(contextWindow ? { contextWindow } : {}),
  });
  const figures: RunFigures = {
    ms: 0,
    requests: 0,
    inputTokens: 0,
    lastRequestTokens: 0,
    compactions: [],
  };
  const started = performance.now();
  for await (const event of agent.run({ prompts }) as AsyncGenerator<AgentEvent>) {
    if (event.type === "model_response") {
      figures.requests++;
      figures.inputTokens += event.usage.inputTokens;
      figures.lastRequestTokens = event.usage.inputTokens;
    } else if (event.type === "compact_end") {
      figures.compactions.push({
        before: event.tokensBefore,
        after: event.tokensAfter,
        summaryTokens: event.usage.totalTokens,
        ms: event.durationMs,
      });
      figures.requests++;
      figures.inputTokens += event.usage.inputTokens;
    }
  }
  figures.ms = performance.now() - started;
  return figures;
}

const n = (value: number) => Math.round(value).toLocaleString("en-US");

const dir = await mkdtemp(path.join(os.tmpdir(), "acai-bench-compaction-"));
try {
  const prompts = Array.from({ length: TURNS }, (_, i) => ({
    prompt: `Read log chunk ${i + 1} and tell me if anything is unusual.`,
  }));
  const baseline = await run(dir, undefined, prompts);
  const compacted = await run(dir, WINDOW, prompts);
  const manual = await run(dir, undefined, [
    ...prompts,
    { prompt: "", command: "compact" as const },
  ]);

  console.log(
    `A ${TURNS}-turn session (each turn: a ${n(FILE_CHARS)}-character tool result, then an answer)\n`,
  );
  console.log(
    `without compaction (baseline): ${n(baseline.requests)} requests, ${n(baseline.inputTokens)} input tokens sent in all, last request ${n(baseline.lastRequestTokens)} tokens, ${baseline.ms.toFixed(0)} ms`,
  );
  console.log(
    `with a ${n(WINDOW)}-token window: ${n(compacted.requests)} requests (${compacted.compactions.length} compaction summaries), ${n(compacted.inputTokens)} input tokens sent in all, last request ${n(compacted.lastRequestTokens)} tokens, ${compacted.ms.toFixed(0)} ms`,
  );
  for (const [i, c] of compacted.compactions.entries()) {
    console.log(
      `  compaction ${i + 1}: ~${n(c.before)} → ~${n(c.after)} tokens (${((1 - c.after / c.before) * 100).toFixed(0)} % freed); the summary request cost ${n(c.summaryTokens)} tokens; ${c.ms.toFixed(1)} ms of acai's own work`,
    );
  }
  console.log(
    `  ratio, input tokens sent: ${(compacted.inputTokens / baseline.inputTokens).toFixed(2)} × the baseline; session time: ${(compacted.ms / baseline.ms).toFixed(2)} ×`,
  );
  const m = manual.compactions[0];
  if (m) {
    console.log(
      `/compact at the end of the baseline session: ~${n(m.before)} → ~${n(m.after)} tokens (${((1 - m.after / m.before) * 100).toFixed(0)} % freed), summary request ${n(m.summaryTokens)} tokens, ${m.ms.toFixed(1)} ms of acai's own work`,
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
