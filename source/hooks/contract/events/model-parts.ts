/**
 * The model request and response as before_model and after_model hooks see
 * them, in Gemini CLI's stable shapes (`llm_request`: model, messages as
 * text, config, toolConfig; `llm_response`: candidates with text parts) —
 * so Gemini CLI's hooks read them unchanged — with the values earlier hooks
 * of the chain replaced.
 */
import type { ModelMessage } from "ai";
import { z } from "zod";
import type { RequestChanges } from "../../../agent/event-data.js";

const RequestMessageSchema = () =>
  z.object({
    role: z.enum(["user", "assistant"]),
    content: z.string(),
  });

export const LlmRequestSchema = () =>
  z
    .looseObject({
      model: z.string(),
      messages: z
        .array(RequestMessageSchema())
        .describe("The conversation sent, text only (tool calls and results are left out)"),
      system: z.string().optional(),
      config: z.looseObject({}).describe("Sampling settings a hook set (empty: the provider's)"),
      toolConfig: z.looseObject({
        mode: z.enum(["AUTO", "ANY", "NONE"]),
        allowedFunctionNames: z.array(z.string()),
      }),
    })
    .describe("The request as it will be sent (Gemini CLI's LLMRequest)");

export const LlmResponseSchema = () =>
  z
    .looseObject({
      candidates: z.array(
        z.looseObject({
          content: z.looseObject({ role: z.literal("model"), parts: z.array(z.string()) }),
          finishReason: z.string(),
        }),
      ),
    })
    .describe("The response (Gemini CLI's LLMResponse): its text as the one part");

/** The text of one message; parts that are not text are left out (as Gemini CLI does). */
function textOf(message: ModelMessage): string {
  if (typeof message.content === "string") return message.content;
  let text = "";
  for (const part of message.content) if (part.type === "text") text += part.text;
  return text;
}

/** The conversation as text messages, user and assistant only. */
function messagesView(
  messages: readonly ModelMessage[],
): z.infer<ReturnType<typeof RequestMessageSchema>>[] {
  const out: z.infer<ReturnType<typeof RequestMessageSchema>>[] = [];
  for (const message of messages) {
    if (message.role !== "user" && message.role !== "assistant") continue;
    const content = textOf(message);
    if (content !== "") out.push({ role: message.role, content });
  }
  return out;
}

const MODE: Record<NonNullable<RequestChanges["toolMode"]>, "AUTO" | "ANY" | "NONE"> = {
  auto: "AUTO",
  required: "ANY",
  none: "NONE",
};

/** `llm_request`, as the chain's earlier hooks left it. */
export function llmRequestField(
  ev: {
    model: string;
    systemPrompt?: string;
    availableTools?: string[];
    messages?: () => readonly ModelMessage[];
  },
  changes: RequestChanges | undefined,
): z.input<ReturnType<typeof LlmRequestSchema>> {
  const all = ev.availableTools ?? [];
  const kept = changes?.tools === undefined ? all : all.filter((n) => changes.tools?.includes(n));
  const system = changes?.system ?? ev.systemPrompt;
  return {
    model: ev.model,
    messages: changes?.messages ?? messagesView(ev.messages?.() ?? []),
    ...(system === undefined ? {} : { system }),
    config: { ...changes?.params },
    toolConfig: {
      mode: MODE[changes?.toolMode ?? "auto"],
      allowedFunctionNames: changes?.toolMode === "none" ? [] : kept,
    },
  };
}

/** `llm_response` of a response with this text. */
export function llmResponseField(
  text: string,
  finishReason: string,
): z.input<ReturnType<typeof LlmResponseSchema>> {
  return { candidates: [{ content: { role: "model", parts: [text] }, finishReason }] };
}
