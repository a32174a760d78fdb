/**
 * The AI SDK's own per-request work over a conversation's history (issue 25,
 * item 3), with no acai code: `streamText` of the `ai` package acai depends
 * on, one step (`stopWhen: isStepCount(1)`), against a model that answers at
 * once with one tool call and does nothing with the prompt. The time of one
 * request is measured at histories of 0 to 3,000 messages (pairs of an
 * assistant tool call and its tool result, ~1,600 characters each), rounds
 * interleaved; the prompt conversion (`convertToLanguageModelPrompt`, from
 * `ai/internal`) is timed alone beside it. Everything per request above the
 * empty history is the SDK walking the history: it grows linearly. This file
 * is the reproduction written up for upstream in bench/README.md.
 *
 *   node bench/ai-sdk-per-step.ts [--rounds 7]
 */
import {
  isStepCount,
  jsonSchema,
  type LanguageModel,
  type ModelMessage,
  streamText,
  tool,
} from "ai";
import { convertToLanguageModelPrompt } from "ai/internal";
import { median, numberArg, printResult, threeRuns } from "./support/result.ts";

type LanguageModelV4 = Extract<LanguageModel, { specificationVersion: "v4" }>;
const ROUNDS = numberArg("rounds", 7);
const CALLS = 20;
const SIZES = [0, 500, 1000, 2000, 3000];

/** A model that ignores its prompt and streams one tool call. */
const model: LanguageModelV4 = {
  specificationVersion: "v4",
  provider: "bench",
  modelId: "bench",
  supportedUrls: {},
  doGenerate: () => Promise.reject(new Error("not used")),
  doStream: async () => ({
    stream: new ReadableStream({
      start(controller) {
        controller.enqueue({ type: "stream-start", warnings: [] });
        const input = JSON.stringify({ file_path: "notes.txt" });
        controller.enqueue({ type: "tool-call", toolCallId: "c", toolName: "Read", input });
        controller.enqueue({
          type: "finish",
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage: {
            inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 1, text: 1, reasoning: 0 },
          },
        });
        controller.close();
      },
    }),
  }),
};
const tools = {
  Read: tool({ description: "read", inputSchema: jsonSchema({ type: "object", properties: {} }) }),
};
const notes = "a line of notes, read again and again\n".repeat(40);

function history(messages: number): ModelMessage[] {
  const out: ModelMessage[] = [{ role: "user", content: "go" }];
  for (let i = 0; out.length < messages + 1; i++) {
    const toolCallId = `call_${i}`;
    out.push({
      role: "assistant",
      content: [
        { type: "text", text: `Step ${i}: reading the notes again.` },
        { type: "tool-call", toolCallId, toolName: "Read", input: { file_path: "notes.txt" } },
      ],
    });
    out.push({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId,
          toolName: "Read",
          output: { type: "text", value: notes },
        },
      ],
    });
  }
  return out;
}

async function oneRequest(messages: ModelMessage[]): Promise<void> {
  const result = streamText({
    model,
    instructions: "system",
    messages,
    tools,
    stopWhen: isStepCount(1),
  });
  for await (const _ of result.stream) {
    // drain
  }
  await result.responseMessages;
}

async function perCall(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) await fn();
  return (performance.now() - started) / CALLS;
}

const histories = new Map(SIZES.map((n) => [n, history(n)]));
for (const messages of histories.values()) await perCall(() => oneRequest(messages)); // warm-up

const { values, loads } = await threeRuns(async (run) => {
  const request = new Map<number, number[]>(SIZES.map((n) => [n, []]));
  const convert = new Map<number, number[]>(SIZES.map((n) => [n, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [n, messages] of histories) {
      request.get(n)?.push(await perCall(() => oneRequest(messages)));
      convert.get(n)?.push(
        await perCall(() =>
          convertToLanguageModelPrompt({
            prompt: { instructions: "system", messages },
            supportedUrls: {},
            download: undefined,
          }),
        ),
      );
    }
  }
  const row = SIZES.map((n) => ({
    n,
    request: median(request.get(n) ?? []),
    convert: median(convert.get(n) ?? []),
  }));
  console.log(
    `run ${run + 1}: ${row.map((r) => `${r.n} messages ${r.request.toFixed(3)} ms (conversion alone ${r.convert.toFixed(3)} ms)`).join("; ")}`,
  );
  return row;
});
const first = (row: { request: number }[]) => row[0]?.request ?? Number.NaN;
const last = (row: { request: number }[]) => row.at(-1)?.request ?? Number.NaN;
const growth = values.map((row) => ((last(row) - first(row)) / (SIZES.at(-1) ?? 1)) * 1000);
console.log(
  `per request, each message of history adds ${median(growth).toFixed(2)} µs (runs ${growth.map((g) => g.toFixed(2)).join(", ")})`,
);
printResult({
  name: `AI SDK streamText, one request with ${SIZES.at(-1)} messages of history vs none`,
  ratios: values.map((row) => last(row) / first(row)),
  loads,
  detail: `no acai code; a flat cost per request would be 1.0×`,
});
