/**
 * The conversation's lines in the transcript, in Claude Code's shape, so that
 * hooks written for Claude Code that read `transcript_path` find what they
 * look for: `{"type": "user" | "assistant", "message": {"role", "content":
 * [...]}, "uuid", "parentUuid", "sessionId", "timestamp", "cwd"}`. Tool calls
 * are `tool_use` blocks of the assistant, tool results `tool_result` blocks of
 * a user line, as in Claude Code. What the AI SDK needs to send the message
 * again exactly (provider metadata, a tool's name beside its result, non-text
 * outputs) rides along under extra keys, so a session reloads exactly
 * (`messageOfLine`).
 */
import type { ModelMessage } from "ai";
import { z } from "zod";

type Json = Record<string, unknown>;

export interface ConversationLine {
  type: "user" | "assistant";
  message: { role: "user" | "assistant"; content: Json[]; provider_options?: unknown };
  uuid: string;
  parentUuid: string | null;
  sessionId: string;
  timestamp: string;
  cwd: string;
  /** acai: the AI SDK role when it is not the line's (`tool` for tool results). */
  acai_role?: "tool";
}

/** The Claude-shaped line of one conversation message (without its ids, added by the writer). */
export function blocksOfMessage(
  message: ModelMessage,
): Pick<ConversationLine, "type" | "message" | "acai_role"> {
  const providerOptions =
    message.providerOptions === undefined ? {} : { provider_options: message.providerOptions };
  switch (message.role) {
    case "system":
      return {
        type: "user",
        message: {
          role: "user",
          content: [{ type: "text", text: message.content, acai_system: true }],
          ...providerOptions,
        },
      };
    case "user": {
      const parts =
        typeof message.content === "string"
          ? [{ type: "text" as const, text: message.content }]
          : message.content;
      return {
        type: "user",
        message: { role: "user", content: parts.map(blockOfPart), ...providerOptions },
      };
    }
    case "assistant": {
      const parts =
        typeof message.content === "string"
          ? [{ type: "text" as const, text: message.content }]
          : message.content;
      return {
        type: "assistant",
        message: { role: "assistant", content: parts.map(blockOfPart), ...providerOptions },
      };
    }
    case "tool":
      return {
        type: "user",
        acai_role: "tool",
        message: { role: "user", content: message.content.map(blockOfPart), ...providerOptions },
      };
    default:
      return message satisfies never;
  }
}

function withOptions(block: Json, part: Json): Json {
  return part.providerOptions === undefined
    ? block
    : { ...block, provider_options: part.providerOptions };
}

function blockOfPart(typed: { type: string }): Json {
  const part = typed as { type: string } & Json;
  switch (part.type) {
    case "text":
      return withOptions({ type: "text", text: part.text }, part);
    case "reasoning":
      return withOptions({ type: "thinking", thinking: part.text }, part);
    case "tool-call":
      return withOptions(
        { type: "tool_use", id: part.toolCallId, name: part.toolName, input: part.input },
        part,
      );
    case "tool-result": {
      const output = part.output as { type: string; value?: unknown };
      const isText = output.type === "text" || output.type === "error-text";
      return withOptions(
        {
          type: "tool_result",
          tool_use_id: part.toolCallId,
          content: isText ? String(output.value) : JSON.stringify(output.value ?? null),
          ...(output.type.startsWith("error") ? { is_error: true } : {}),
          tool_name: part.toolName,
          ...(isText ? {} : { acai_output: output }),
        },
        part,
      );
    }
    default:
      // Files, images, anything newer: kept whole for the reload.
      return { type: "acai_part", part };
  }
}

const Block = z.lazy(() => z.looseObject({ type: z.string() }));
export const ConversationLineSchema = z.lazy(() =>
  z.looseObject({
    type: z.enum(["user", "assistant"]),
    message: z.looseObject({
      role: z.enum(["user", "assistant"]),
      content: z.union([z.string(), z.array(Block)]),
      provider_options: z.record(z.string(), z.unknown()).optional(),
    }),
    uuid: z.string().optional(),
    acai_role: z.literal("tool").optional(),
  }),
);

/** The AI SDK message a conversation line records; undefined when its blocks are not ones acai wrote. */
export function messageOfLine(
  line: z.infer<typeof ConversationLineSchema>,
): ModelMessage | undefined {
  const { message } = line;
  const providerOptions =
    message.provider_options === undefined
      ? {}
      : { providerOptions: message.provider_options as never };
  if (typeof message.content === "string")
    return { role: message.role, content: message.content, ...providerOptions };
  const parts = message.content.map(partOfBlock);
  if (parts.some((p) => p === undefined)) return undefined;
  const defined = parts as Json[];
  if (line.acai_role === "tool") {
    if (!defined.every((p) => p.type === "tool-result")) return undefined;
    return { role: "tool", content: defined as never, ...providerOptions };
  }
  if (line.type === "assistant")
    return { role: "assistant", content: defined as never, ...providerOptions };
  const first = message.content[0];
  if (first?.acai_system === true)
    return { role: "system", content: String(first.text), ...providerOptions };
  // A prompt of one plain text part was a string when sent: it goes back as one.
  if (
    defined.length === 1 &&
    defined[0]?.type === "text" &&
    defined[0].providerOptions === undefined
  ) {
    return { role: "user", content: String(defined[0].text), ...providerOptions };
  }
  return { role: "user", content: defined as never, ...providerOptions };
}

function partOfBlock(block: Json): Json | undefined {
  const options =
    block.provider_options === undefined ? {} : { providerOptions: block.provider_options };
  switch (block.type) {
    case "text":
      return typeof block.text === "string"
        ? { type: "text", text: block.text, ...options }
        : undefined;
    case "thinking":
      return typeof block.thinking === "string"
        ? { type: "reasoning", text: block.thinking, ...options }
        : undefined;
    case "tool_use":
      return typeof block.id === "string" && typeof block.name === "string"
        ? {
            type: "tool-call",
            toolCallId: block.id,
            toolName: block.name,
            input: block.input ?? {},
            ...options,
          }
        : undefined;
    case "tool_result": {
      if (typeof block.tool_use_id !== "string") return undefined;
      const output =
        block.acai_output !== undefined && typeof block.acai_output === "object"
          ? block.acai_output
          : {
              type: block.is_error === true ? "error-text" : "text",
              value: String(block.content ?? ""),
            };
      return {
        type: "tool-result",
        toolCallId: block.tool_use_id,
        toolName: typeof block.tool_name === "string" ? block.tool_name : "unknown",
        output,
        ...options,
      };
    }
    case "acai_part":
      return typeof block.part === "object" && block.part !== null
        ? (block.part as Json)
        : undefined;
    default:
      return undefined;
  }
}
