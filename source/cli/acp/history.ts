/**
 * A resumed session's conversation as ACP session updates (pure), for
 * `session/load` (docs/acp.md): the user's messages as `user_message_chunk`,
 * the model's text as `agent_message_chunk`, each tool call as `tool_call`
 * and its result as `tool_call_update` (`completed`, or `failed` for an error
 * result), in the order they happened. The conversation is what acai would
 * send the model again: after a compaction, its summary and the turns kept.
 * acai's own system lines (hook context, notes) are not shown.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { ModelMessage } from "ai";
import { toolKind, toolTitle } from "./updates.js";

type Part = { type: string } & Record<string, unknown>;

function partsOf(message: ModelMessage): Part[] {
  const { content } = message;
  if (typeof content === "string") return [{ type: "text", text: content }];
  return content as unknown as Part[];
}

function text(value: string): acp.ContentBlock {
  return { type: "text", text: value };
}

function resultText(output: unknown): { text: string; failed: boolean } {
  const shaped = (output ?? {}) as { type?: unknown; value?: unknown };
  const kind = typeof shaped.type === "string" ? shaped.type : "json";
  const failed = kind.startsWith("error");
  if (kind === "text" || kind === "error-text") return { text: String(shaped.value), failed };
  return { text: JSON.stringify(shaped.value ?? null), failed };
}

function partUpdate(role: ModelMessage["role"], part: Part): acp.SessionUpdate | undefined {
  if (part.type === "text" && typeof part.text === "string" && part.text !== "") {
    if (part.acai_system === true) return undefined;
    const sessionUpdate = role === "user" ? "user_message_chunk" : "agent_message_chunk";
    return { sessionUpdate, content: text(part.text) };
  }
  if (part.type === "tool-call" && typeof part.toolCallId === "string") {
    const toolName = typeof part.toolName === "string" ? part.toolName : "tool";
    return {
      sessionUpdate: "tool_call",
      toolCallId: part.toolCallId,
      title: toolTitle(toolName, part.input),
      kind: toolKind(toolName),
      status: "pending",
      rawInput: part.input,
    };
  }
  if (part.type === "tool-result" && typeof part.toolCallId === "string") {
    const result = resultText(part.output);
    return {
      sessionUpdate: "tool_call_update",
      toolCallId: part.toolCallId,
      status: result.failed ? "failed" : "completed",
      content: [{ type: "content", content: text(result.text) }],
    };
  }
  return undefined;
}

export function historyUpdates(messages: readonly ModelMessage[]): acp.SessionUpdate[] {
  const updates: acp.SessionUpdate[] = [];
  for (const message of messages) {
    if (message.role === "system") continue;
    for (const part of partsOf(message)) {
      const update = partUpdate(message.role, part);
      if (update !== undefined) updates.push(update);
    }
  }
  return updates;
}
