/**
 * A conversation read back from a transcript may hold tool calls that never
 * got their result: the session was killed (SIGKILL, a crash, power) while a
 * tool ran. Providers refuse such a history ("Tool result is missing for tool
 * call"), so before it is sent again each such call gets an explicit
 * "interrupted" result, placed where the result belonged. Pure.
 */
import type { ModelMessage, ToolResultPart } from "ai";
import type { ToolCallSummary } from "./event-data.js";
import { errorResult } from "./history.js";

export const INTERRUPTED_RESULT =
  "Interrupted: the session ended (it was killed or crashed) while this tool call ran; its result is unknown. Check its effects before relying on them.";

export interface UnansweredCall {
  toolCallId: string;
  toolName: string;
}

export interface RepairedHistory {
  messages: ModelMessage[];
  /** The calls that got an interrupted result, in order. */
  interrupted: UnansweredCall[];
}

/** `pending`: calls left without a result on purpose (deferred, docs/hooks.md): not repaired. */
export function answerInterruptedCalls(
  messages: readonly ModelMessage[],
  pending: ReadonlySet<string> = new Set(),
): RepairedHistory {
  const out: ModelMessage[] = [];
  const interrupted: UnansweredCall[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as ModelMessage;
    out.push(message);
    const calls = toolCallsOf(message);
    if (calls.length === 0) continue;
    // The results that follow: the tool messages right after the assistant message.
    const answered = new Set<string>();
    let j = i + 1;
    for (; j < messages.length && messages[j]?.role === "tool"; j++) {
      for (const part of (messages[j] as Extract<ModelMessage, { role: "tool" }>).content) {
        if (part.type === "tool-result") answered.add(part.toolCallId);
      }
      out.push(messages[j] as ModelMessage);
    }
    const missing = calls.filter(
      (call) => !answered.has(call.toolCallId) && !pending.has(call.toolCallId),
    );
    if (missing.length > 0) {
      const results: ToolResultPart[] = missing.map((call) =>
        errorResult(call.toolCallId, call.toolName, INTERRUPTED_RESULT),
      );
      out.push({ role: "tool", content: results });
      interrupted.push(...missing.map(({ toolCallId, toolName }) => ({ toolCallId, toolName })));
    }
    i = j - 1;
  }
  return { messages: out, interrupted };
}

function toolCallsOf(message: ModelMessage): (UnansweredCall & { input: unknown })[] {
  if (message.role !== "assistant" || typeof message.content === "string") return [];
  const calls: (UnansweredCall & { input: unknown })[] = [];
  for (const part of message.content) {
    if (part.type === "tool-call" && part.providerExecuted !== true) {
      calls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
    }
  }
  return calls;
}

/**
 * The calls a run stopped at when a before_tool hook deferred one of them:
 * the last assistant message's calls that have no result yet, when one of
 * them is `deferred` and nothing but tool results follows that message.
 */
export function deferredCalls(
  messages: readonly ModelMessage[],
  deferred: ReadonlySet<string>,
): ToolCallSummary[] {
  let last = messages.length - 1;
  while (last >= 0 && messages[last]?.role === "tool") last--;
  const message = messages[last];
  if (message === undefined || deferred.size === 0) return [];
  const answered = new Set<string>();
  for (const next of messages.slice(last + 1)) {
    if (next.role !== "tool") continue;
    for (const part of next.content) if (part.type === "tool-result") answered.add(part.toolCallId);
  }
  const open = toolCallsOf(message).filter((call) => !answered.has(call.toolCallId));
  return open.some((call) => deferred.has(call.toolCallId)) ? open : [];
}

/** The one line the user is shown when a resumed session had calls without results. */
export function interruptedNote(file: string, calls: readonly UnansweredCall[]): string {
  const names = [...new Set(calls.map((c) => c.toolName))].join(", ");
  const count = calls.length === 1 ? "a tool call" : `${calls.length} tool calls`;
  return `${file}: the session ended during ${count} (${names}); continuing with an "interrupted" result for ${calls.length === 1 ? "it" : "them"}.`;
}
