/**
 * The answers that control what happens around the model, as hooks write
 * them (acai's snake_case fields, and Gemini CLI's `hookSpecificOutput`
 * shapes: `llm_request`, `llm_response`, `toolConfig`,
 * `tailToolCallRequest`), parsed with zod into what the agent applies
 * (`RequestChanges`, a response text, a follow-up call). Unknown fields are
 * ignored; a field of the wrong shape fails the answer (dialects/common.ts).
 */
import { z } from "zod";
import type { RequestChanges, RequestMessage, SamplingParams } from "../../agent/event-data.js";
import { builtinNamed } from "./aliases.js";
import { jsonObjectSchema } from "./dialects/common.js";

/** Longest conversation a hook may send in place of the real one. */
const MAX_MESSAGES = 2000;
const MAX_TOOL_NAMES = 1000;

const messageSchema = z.lazy(() =>
  z.object({
    /** Gemini's `model` is the assistant; `system` messages become the system prompt. */
    role: z.enum(["user", "assistant", "model", "system"]),
    content: z.string(),
  }),
);

const configSchema = z.lazy(() =>
  z.object({
    temperature: z.number().min(0).max(2).optional(),
    maxOutputTokens: z.number().int().min(1).max(1_000_000).optional(),
    max_output_tokens: z.number().int().min(1).max(1_000_000).optional(),
    topP: z.number().min(0).max(1).optional(),
    top_p: z.number().min(0).max(1).optional(),
    topK: z.number().int().min(1).optional(),
    top_k: z.number().int().min(1).optional(),
    presencePenalty: z.number().min(-2).max(2).optional(),
    presence_penalty: z.number().min(-2).max(2).optional(),
    frequencyPenalty: z.number().min(-2).max(2).optional(),
    frequency_penalty: z.number().min(-2).max(2).optional(),
    stopSequences: z.array(z.string()).max(16).optional(),
    stop_sequences: z.array(z.string()).max(16).optional(),
    seed: z.number().int().optional(),
  }),
);

/** Gemini's BeforeToolSelection answer: AUTO, ANY (a tool must be called), NONE; a whitelist. */
export const toolConfigSchema = z.lazy(() =>
  z.object({
    mode: z.enum(["AUTO", "ANY", "NONE", "auto", "any", "none", "required"]).optional(),
    allowedFunctionNames: z.array(z.string()).max(MAX_TOOL_NAMES).optional(),
  }),
);

export const llmRequestSchema = z.lazy(() =>
  z.object({
    messages: z.array(messageSchema).min(1).max(MAX_MESSAGES).optional(),
    system: z.string().optional(),
    system_prompt: z.string().optional(),
    config: configSchema.optional(),
    toolConfig: toolConfigSchema.optional(),
    /** acai's spelling of the whitelist and the mode. */
    tools: z.array(z.string()).max(MAX_TOOL_NAMES).optional(),
    tool_mode: z.enum(["auto", "required", "none"]).optional(),
  }),
);

/** acai's `{text}`, or Gemini's LLMResponse (`candidates[0].content.parts`). */
export const llmResponseSchema = z.lazy(() =>
  z.object({
    text: z.string().optional(),
    candidates: z
      .array(
        z.object({
          content: z.object({
            parts: z.array(z.union([z.string(), z.object({ text: z.string() })])),
          }),
        }),
      )
      .optional(),
  }),
);

/** acai's `follow_up`. */
export const followUpSchema = z.lazy(() =>
  z.object({
    tool_name: z.string().min(1),
    tool_input: jsonObjectSchema,
  }),
);
/** Gemini's `tailToolCallRequest`. */
export const tailCallSchema = z.lazy(() =>
  z.object({
    name: z.string().min(1),
    args: jsonObjectSchema.optional(),
  }),
);

export const dropToolCallsSchema = z.lazy(() =>
  z.union([z.literal(true), z.array(z.string()).max(1000)]),
);

type ToolConfig = z.infer<typeof toolConfigSchema>;

/** A tool config (Gemini's modes) as the agent's tool mode and whitelist. */
function toolChanges(config: ToolConfig | undefined): RequestChanges {
  if (config === undefined) return {};
  const out: RequestChanges = {};
  // Gemini's names (`read_file`) stand for the built-ins (`Read`).
  if (config.allowedFunctionNames !== undefined)
    out.tools = config.allowedFunctionNames.map(builtinNamed);
  switch (config.mode) {
    case "AUTO":
    case "auto":
      out.toolMode = "auto";
      break;
    case "ANY":
    case "any":
    case "required":
      out.toolMode = "required";
      break;
    case "NONE":
    case "none":
      out.toolMode = "none";
      break;
    case undefined:
      break;
    default:
      return config.mode satisfies never;
  }
  return out;
}

/** An `llm_request` answer as this request's changes; undefined when it changes nothing. */
export function requestChanges(
  request: z.infer<typeof llmRequestSchema> | undefined,
  toolConfig?: ToolConfig,
): RequestChanges | undefined {
  const out: RequestChanges = { ...toolChanges(request?.toolConfig), ...toolChanges(toolConfig) };
  if (request !== undefined) {
    const system = request.system ?? request.system_prompt;
    if (request.messages !== undefined) {
      const said = request.messages.filter((m) => m.role === "system").map((m) => m.content);
      out.messages = request.messages
        .filter((m) => m.role !== "system")
        .map(
          (m): RequestMessage => ({
            role: m.role === "model" ? "assistant" : (m.role as "user" | "assistant"),
            content: m.content,
          }),
        );
      if (system === undefined && said.length > 0) out.system = said.join("\n\n");
    }
    if (system !== undefined) out.system = system;
    const params = paramsOf(request.config);
    if (params !== undefined) out.params = params;
    if (request.tools !== undefined) out.tools = request.tools;
    if (request.tool_mode !== undefined) out.toolMode = request.tool_mode;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function paramsOf(config: z.infer<typeof configSchema> | undefined): SamplingParams | undefined {
  if (config === undefined) return undefined;
  const params: SamplingParams = {};
  const set = <K extends keyof SamplingParams>(key: K, value: SamplingParams[K] | undefined) => {
    if (value !== undefined) params[key] = value;
  };
  set("temperature", config.temperature);
  set("maxOutputTokens", config.maxOutputTokens ?? config.max_output_tokens);
  set("topP", config.topP ?? config.top_p);
  set("topK", config.topK ?? config.top_k);
  set("presencePenalty", config.presencePenalty ?? config.presence_penalty);
  set("frequencyPenalty", config.frequencyPenalty ?? config.frequency_penalty);
  set("stopSequences", config.stopSequences ?? config.stop_sequences);
  set("seed", config.seed);
  return Object.keys(params).length > 0 ? params : undefined;
}

/** The text of an `llm_response` answer (Gemini's parts joined); undefined when it has none. */
export function responseText(
  response: z.infer<typeof llmResponseSchema> | undefined,
): string | undefined {
  if (response === undefined) return undefined;
  if (response.text !== undefined) return response.text;
  const parts = response.candidates?.[0]?.content.parts;
  if (parts === undefined) return undefined;
  return parts.map((part) => (typeof part === "string" ? part : part.text)).join("");
}

/**
 * Two hooks' request changes, the later one's on top: its messages, system
 * prompt and settings win; a tool whitelist only narrows (the tools both
 * kept), and "none" stays none — a later hook cannot give back a tool an
 * earlier one took away.
 */
export function mergeRequestChanges(
  before: RequestChanges | undefined,
  next: RequestChanges,
): RequestChanges {
  if (before === undefined) return next;
  const merged: RequestChanges = { ...before, ...next };
  if (before.params !== undefined || next.params !== undefined) {
    merged.params = { ...before.params, ...next.params };
  }
  if (before.tools !== undefined && next.tools !== undefined) {
    const kept = new Set(next.tools);
    merged.tools = before.tools.filter((name) => kept.has(name));
  }
  if (before.toolMode === "none" || next.toolMode === "none") merged.toolMode = "none";
  return merged;
}
