import {
  type CallWarning,
  isStepCount,
  type JSONSchema7,
  jsonSchema,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  streamText,
  type ToolSet,
  tool,
} from "ai";
import type { Tool } from "../tools/types.js";
import type { SamplingParams, Usage } from "./event-data.js";
import { ZERO_USAGE } from "./usage.js";

export interface StepToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** Set when the AI SDK could not parse the call (unknown tool, broken JSON). */
  invalidReason?: string;
}

export type StepOutcome =
  | {
      kind: "ok";
      text: string;
      toolCalls: StepToolCall[];
      usage: Usage;
      finishReason: string;
      responseMessages: ModelMessage[];
    }
  | { kind: "error"; error: unknown }
  | { kind: "aborted" };

/** Tools as the model sees them: schema and description only, no `execute` (the agent runs them). */
export function toModelTools(tools: readonly Tool[]): ToolSet {
  const set: ToolSet = {};
  for (const t of tools) {
    set[t.name] = tool({
      description: t.description,
      inputSchema: jsonSchema(t.inputSchema as JSONSchema7),
    });
  }
  return set;
}

export interface StepRequest {
  model: LanguageModel;
  system: string;
  messages: ModelMessage[];
  tools: ToolSet;
  /** A before_model hook's tool mode for this request (the provider's default: auto). */
  toolChoice?: "auto" | "required" | "none";
  /** A before_model hook's sampling settings for this request. */
  params?: SamplingParams;
  maxRetries: number;
  signal: AbortSignal;
}

/** What a step streams: text as it arrives, and the provider's warnings about the call. */
export type StepChunk = { kind: "text"; text: string } | { kind: "warning"; message: string };

/**
 * One model request, streamed. Yields text deltas and warnings; returns what
 * the step produced. Provider failures come back as `{kind: "error"}`, never
 * thrown.
 */
export async function* streamModelStep(
  request: StepRequest,
): AsyncGenerator<StepChunk, StepOutcome> {
  let text = "";
  const toolCalls: StepToolCall[] = [];
  let usage: Usage = ZERO_USAGE;
  let finishReason = "unknown";
  let failure: { error: unknown } | undefined;
  try {
    const result = streamText({
      model: request.model,
      instructions: request.system,
      messages: request.messages,
      tools: request.tools,
      ...(request.toolChoice === undefined ? {} : { toolChoice: request.toolChoice }),
      ...request.params,
      maxRetries: request.maxRetries,
      abortSignal: request.signal,
      stopWhen: isStepCount(1),
      // Errors are reported through the stream's error parts; the default handler would print them.
      onError: () => {},
    });
    for await (const part of result.stream) {
      if (request.signal.aborted) return { kind: "aborted" };
      switch (part.type) {
        case "text-delta":
          if (part.text) {
            text += part.text;
            yield { kind: "text", text: part.text };
          }
          break;
        case "start-step":
          for (const warning of part.warnings) {
            yield { kind: "warning", message: describeCallWarning(warning) };
          }
          break;
        case "tool-call":
          toolCalls.push({
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: part.input,
            ...(part.invalid ? { invalidReason: invalidReason(part.toolName, part.error) } : {}),
          });
          break;
        case "finish-step":
          usage = toUsage(part.usage);
          finishReason = part.finishReason;
          break;
        case "error":
          failure ??= { error: part.error };
          break;
        case "abort":
          return { kind: "aborted" };
        default:
          break;
      }
    }
    if (request.signal.aborted) return { kind: "aborted" };
    if (failure) return { kind: "error", error: failure.error };
    const responseMessages = await result.responseMessages;
    return { kind: "ok", text, toolCalls, usage, finishReason, responseMessages };
  } catch (error) {
    if (request.signal.aborted) return { kind: "aborted" };
    return { kind: "error", error: failure?.error ?? error };
  }
}

/** A provider's warning about a call (an unsupported setting, a model it does not know), in words. */
function describeCallWarning(warning: CallWarning): string {
  const record = warning as Record<string, unknown>;
  const subject = [record.feature, record.setting].find((v) => typeof v === "string");
  const parts = [
    typeof record.message === "string" ? record.message : undefined,
    typeof subject === "string" ? `${warning.type}: ${subject}` : undefined,
    typeof record.details === "string" ? record.details : undefined,
  ].filter((part): part is string => part !== undefined);
  return parts.length > 0 ? parts.join(" — ") : `the model provider warned: ${warning.type}`;
}

function toUsage(usage: LanguageModelUsage): Usage {
  const inputTokens = usage.inputTokens ?? 0;
  const outputTokens = usage.outputTokens ?? 0;
  return {
    inputTokens,
    outputTokens,
    totalTokens: usage.totalTokens ?? inputTokens + outputTokens,
  };
}

function invalidReason(toolName: string, error: unknown): string {
  const name = (error as { name?: unknown } | undefined)?.name;
  if (name === "AI_NoSuchToolError") return `There is no tool named "${toolName}".`;
  const message = error instanceof Error ? error.message : String(error);
  if (name === "AI_InvalidToolInputError") {
    return `The input for ${toolName} is not valid JSON: ${message.replace(/\s+/g, " ").slice(0, 300)}`;
  }
  return message;
}
