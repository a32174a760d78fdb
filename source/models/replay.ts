import { readFileSync } from "node:fs";
import type { LanguageModel } from "ai";
import { z } from "zod";
import { ModelConfigError } from "./errors.js";
import { createPromptSizer } from "./prompt-size.js";

/**
 * The replay model (`--model replay:FILE`): a scripted assistant, served
 * through the AI SDK's language-model interface so a run is reproducible with
 * no API. Format (documented in docs/replay.md):
 *
 *   { "description"?: string,
 *     "turns": [ { "text"?: string, "tool_calls"?: [ { "name": string, "input": {...} } ] } ] }
 *
 * One entry per model request, in order. When the script runs out the model
 * answers that the replay is exhausted and stops.
 */

type LanguageModelV4 = Extract<LanguageModel, { specificationVersion: "v4" }>;
type CallOptions = Parameters<LanguageModelV4["doStream"]>[0];
type StreamResult = Awaited<ReturnType<LanguageModelV4["doStream"]>>;
type GenerateResult = Awaited<ReturnType<LanguageModelV4["doGenerate"]>>;
type StreamPart = StreamResult["stream"] extends ReadableStream<infer P> ? P : never;
type Usage = GenerateResult["usage"];
type Content = GenerateResult["content"][number];

const toolCallSchema = z.lazy(() =>
  z.strictObject({
    name: z.string().min(1, "a tool call needs a tool name"),
    input: z.record(z.string(), z.unknown()),
  }),
);

const turnSchema = z.lazy(() =>
  z
    .strictObject({
      text: z.string().optional(),
      tool_calls: z.array(toolCallSchema).optional(),
    })
    .refine(
      (turn) => (turn.text !== undefined && turn.text !== "") || (turn.tool_calls?.length ?? 0) > 0,
      {
        message: 'a turn needs "text" or at least one entry in "tool_calls"',
      },
    ),
);

const replayFileSchema = z.lazy(() =>
  z.strictObject({
    description: z.string().optional(),
    turns: z.array(turnSchema),
  }),
);

export type ReplayScript = z.infer<typeof replayFileSchema>;
type ReplayTurn = ReplayScript["turns"][number];

/** Reads and validates a replay file; every problem is a `ModelConfigError` naming the file and field. */
export function loadReplayScript(file: string): ReplayScript {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "does not exist" : `cannot be read (${code ?? String(error)})`;
    throw new ModelConfigError(
      `The replay file ${file} ${why}. Pass an existing JSON file with --model replay:FILE (relative to the project directory); see docs/replay.md for the format.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ModelConfigError(
      `The replay file ${file} is not valid JSON: ${(error as Error).message}. See docs/replay.md for the format.`,
    );
  }
  const parsed = replayFileSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 5).map((issue) => {
      const where = issue.path.length ? formatPath(issue.path) : "(top level)";
      return `${where}: ${issue.message}`;
    });
    throw new ModelConfigError(
      `The replay file ${file} is not a valid replay script: ${problems.join("; ")}. Expected {"turns": [{"text"?: string, "tool_calls"?: [{"name": string, "input": object}]}]}; see docs/replay.md.`,
    );
  }
  return parsed.data;
}

function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) =>
      typeof part === "number" ? `[${part}]` : `${i === 0 ? "" : "."}${String(part)}`,
    )
    .join("");
}

export interface ReplayModelOptions {
  /** Name shown in messages (default: the file path). */
  label?: string;
  /** Characters per text delta (default 12). */
  chunkSize?: number;
}

/** Loads `file` now (so errors surface at start-up) and returns a model that serves it. */
export function createReplayModel(file: string, options: ReplayModelOptions = {}): LanguageModelV4 {
  return replayModelFromScript(loadReplayScript(file), { label: file, ...options });
}

export function replayModelFromScript(
  script: ReplayScript,
  options: ReplayModelOptions = {},
): LanguageModelV4 {
  const label = options.label ?? "replay";
  const chunkSize = Math.max(1, options.chunkSize ?? 12);
  let served = 0;
  const promptSize = createPromptSizer();

  const next = (): { index: number; turn: ReplayTurn } => {
    const index = served++;
    const turn = script.turns[index];
    if (turn) return { index, turn };
    return {
      index,
      turn: {
        text: `The replay script ${label} is exhausted: it has ${script.turns.length} turn(s) and this is model request ${index + 1}.`,
      },
    };
  };

  return {
    specificationVersion: "v4",
    provider: "replay",
    modelId: label,
    supportedUrls: {},

    async doGenerate(call: CallOptions): Promise<GenerateResult> {
      call.abortSignal?.throwIfAborted();
      const { index, turn } = next();
      const content: Content[] = [];
      if (turn.text) content.push({ type: "text", text: turn.text });
      for (const [i, toolCall] of (turn.tool_calls ?? []).entries()) {
        content.push({
          type: "tool-call",
          toolCallId: callId(index, i),
          toolName: toolCall.name,
          input: JSON.stringify(toolCall.input),
        });
      }
      return {
        content,
        finishReason: finishReason(turn),
        usage: usageFor(promptSize(call.prompt), turn),
        warnings: [],
        response: { id: `replay-${index + 1}`, modelId: label, timestamp: new Date(0) },
      };
    },

    async doStream(call: CallOptions): Promise<StreamResult> {
      call.abortSignal?.throwIfAborted();
      const { index, turn } = next();
      const parts = streamParts(index, turn, chunkSize, promptSize(call.prompt), label);
      let position = 0;
      const stream = new ReadableStream<StreamPart>({
        pull(controller) {
          if (call.abortSignal?.aborted) {
            controller.error(call.abortSignal.reason ?? new DOMException("Aborted", "AbortError"));
            return;
          }
          const part = parts[position++];
          if (part) controller.enqueue(part);
          else controller.close();
        },
      });
      return { stream };
    },
  };
}

function callId(request: number, index: number): string {
  return `replay_${request + 1}_${index + 1}`;
}

function finishReason(turn: ReplayTurn): GenerateResult["finishReason"] {
  return turn.tool_calls?.length
    ? { unified: "tool-calls", raw: "tool_calls" }
    : { unified: "stop", raw: "stop" };
}

/**
 * A rough, deterministic token estimate (4 characters a token) so usage-based hooks have numbers;
 * `promptChars` is the prompt's length as JSON text, kept by a `PromptSizer` (O(1) per step).
 */
function usageFor(promptChars: number, turn: ReplayTurn): Usage {
  const inputTokens = Math.ceil(promptChars / 4);
  const outputChars = (turn.text ?? "").length + JSON.stringify(turn.tool_calls ?? []).length;
  const outputTokens = Math.ceil(outputChars / 4);
  return {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: 0 },
  };
}

function streamParts(
  index: number,
  turn: ReplayTurn,
  chunkSize: number,
  promptChars: number,
  label: string,
): StreamPart[] {
  const parts: StreamPart[] = [
    { type: "stream-start", warnings: [] },
    {
      type: "response-metadata",
      id: `replay-${index + 1}`,
      modelId: label,
      timestamp: new Date(0),
    },
  ];
  if (turn.text) {
    const id = `text-${index + 1}`;
    parts.push({ type: "text-start", id });
    for (let i = 0; i < turn.text.length; i += chunkSize) {
      parts.push({ type: "text-delta", id, delta: turn.text.slice(i, i + chunkSize) });
    }
    parts.push({ type: "text-end", id });
  }
  for (const [i, toolCall] of (turn.tool_calls ?? []).entries()) {
    const id = callId(index, i);
    const input = JSON.stringify(toolCall.input);
    parts.push({ type: "tool-input-start", id, toolName: toolCall.name });
    parts.push({ type: "tool-input-delta", id, delta: input });
    parts.push({ type: "tool-input-end", id });
    parts.push({ type: "tool-call", toolCallId: id, toolName: toolCall.name, input });
  }
  parts.push({
    type: "finish",
    usage: usageFor(promptChars, turn),
    finishReason: finishReason(turn),
  });
  return parts;
}
