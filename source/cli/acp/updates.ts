/**
 * acai's events as ACP session updates (docs/acp.md), pure: streamed text as
 * `agent_message_chunk`, a tool call as `tool_call` (pending) and its end as
 * `tool_call_update` (completed or failed, a hook's block included), a hook's
 * message to the user as `agent_thought_chunk`; and a turn's end as ACP's
 * stop reason. Events of subagents are not shown (their Task call is).
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { StopReason } from "../../agent/event-data.js";
import type { InterceptedEvent } from "../../hooks/run/activity.js";

const KINDS: Record<string, acp.ToolKind> = {
  Read: "read",
  Write: "edit",
  Edit: "edit",
  Glob: "search",
  Grep: "search",
  Bash: "execute",
  Task: "think",
};

export function toolKind(toolName: string): acp.ToolKind {
  return Object.hasOwn(KINDS, toolName) ? (KINDS[toolName] ?? "other") : "other";
}

/** A short title for a tool call: the tool and its main argument. */
export function toolTitle(toolName: string, input: unknown): string {
  const fields =
    typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  const main = fields.command ?? fields.file_path ?? fields.pattern ?? fields.description;
  return typeof main === "string" && main !== "" ? `${toolName}: ${main.slice(0, 200)}` : toolName;
}

export function eventUpdate(event: InterceptedEvent): acp.SessionUpdate | undefined {
  if ("agentId" in event && event.agentId !== undefined) return undefined;
  switch (event.type) {
    case "text_delta":
      return { sessionUpdate: "agent_message_chunk", content: text(event.text) };
    case "tool_call_start":
      return {
        sessionUpdate: "tool_call",
        toolCallId: event.toolCallId,
        title: toolTitle(event.toolName, event.input),
        kind: toolKind(event.toolName),
        status: "pending",
        rawInput: event.input,
      };
    case "tool_call_end":
      return {
        sessionUpdate: "tool_call_update",
        toolCallId: event.toolCallId,
        status: "completed",
        content: [{ type: "content", content: text(event.output) }],
      };
    case "tool_call_error":
      return {
        sessionUpdate: "tool_call_update",
        toolCallId: event.toolCallId,
        status: "failed",
        content: [{ type: "content", content: text(event.error) }],
      };
    case "hook_end":
      return event.message
        ? {
            sessionUpdate: "agent_thought_chunk",
            content: text(`[${event.hook.name}] ${event.message}`),
          }
        : undefined;
    default:
      return undefined;
  }
}

function text(value: string): acp.ContentBlock {
  return { type: "text", text: value };
}

/** ACP's stop reason for how an acai turn ended (or was cancelled). */
export function acpStopReason(reason: StopReason, cancelled: boolean): acp.StopReason {
  if (cancelled) return "cancelled";
  switch (reason) {
    case "end_turn":
    case "error":
    case "deferred": // a defer is an ask where a client answers (not headless)
      return "end_turn";
    case "max_steps":
    case "stop_hook_limit":
      return "max_turn_requests";
    case "blocked":
    case "hook_stop":
      return "refusal";
    case "aborted":
      return "cancelled";
  }
}

/** The text of a prompt's content blocks (text and resource links; images are not read). */
export function promptText(blocks: readonly acp.ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    if (block.type === "text") parts.push(block.text);
    else if (block.type === "resource_link") parts.push(`@${block.uri}`);
    else if (block.type === "resource" && "text" in block.resource) {
      parts.push(`<resource uri="${block.resource.uri}">\n${block.resource.text}\n</resource>`);
    }
  }
  return parts.join("\n");
}
