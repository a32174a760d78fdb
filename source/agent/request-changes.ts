/**
 * What before_model and after_model hooks change around one model request,
 * applied (pure): the request as a hook rewrote it (messages, system prompt,
 * sampling, the tools offered), an answer given in place of the model, and
 * the response with its text replaced or tool calls dropped. The
 * conversation itself is never rewritten by a request change: it holds for
 * this one request only.
 */
import type { ModelMessage, ToolSet } from "ai";
import type { RequestChanges, SamplingParams } from "./event-data.js";
import type { StepOutcome, StepToolCall } from "./model-step.js";
import { ZERO_USAGE } from "./usage.js";

type Answer = Extract<StepOutcome, { kind: "ok" }>;

/** What a step sends, with a hook's changes. */
export interface PlannedRequest {
  system: string;
  messages: ModelMessage[];
  tools: ToolSet;
  toolChoice?: "auto" | "required" | "none";
  params?: SamplingParams;
}

/** The session's request for this step, as `changes` rewrote it. */
export function requestOf(
  session: { system: string; history: { messages: readonly ModelMessage[] }; modelTools: ToolSet },
  changes: RequestChanges | undefined,
): PlannedRequest {
  const messages: ModelMessage[] =
    changes?.messages === undefined
      ? [...session.history.messages]
      : changes.messages.map((m) => ({ role: m.role, content: m.content }));
  return {
    system: changes?.system ?? session.system,
    messages,
    tools: offeredToolSet(session.modelTools, changes),
    ...(changes?.toolMode === undefined ? {} : { toolChoice: changes.toolMode }),
    ...(changes?.params === undefined ? {} : { params: changes.params }),
  };
}

/** The tools offered: all, or only those a hook kept (none with tool mode "none"). */
function offeredToolSet(all: ToolSet, changes: RequestChanges | undefined): ToolSet {
  const offered = offeredNames(Object.keys(all), changes);
  if (offered === undefined) return all;
  const set: ToolSet = {};
  for (const name of offered) {
    const tool = all[name];
    if (tool !== undefined) set[name] = tool;
  }
  return set;
}

/** The names of the tools offered, when a hook restricted them; undefined: every tool. */
export function offeredNames(
  all: readonly string[],
  changes: RequestChanges | undefined,
): string[] | undefined {
  if (changes?.toolMode === "none") return [];
  if (changes?.tools === undefined) return undefined;
  const kept = new Set(changes.tools);
  return all.filter((name) => kept.has(name));
}

/**
 * A call to a tool the request did not offer is refused before any gate
 * (the model cannot get around a restriction by naming the tool anyway).
 */
export function refuseUnoffered(
  calls: readonly StepToolCall[],
  offered: readonly string[] | undefined,
): StepToolCall[] {
  if (offered === undefined) return [...calls];
  const names = new Set(offered);
  // The provider may have parsed it as an unknown tool already: the restriction is the reason.
  return calls.map((call) =>
    names.has(call.toolName)
      ? call
      : {
          ...call,
          invalidReason: `The tool "${call.toolName}" was not offered for this request (a before_model hook restricted the tools); it did not run.`,
        },
  );
}

/** A hook's answer in place of the model: text only, no usage, no tool calls. */
export function syntheticAnswer(text: string): Answer {
  return {
    kind: "ok",
    text,
    toolCalls: [],
    usage: ZERO_USAGE,
    finishReason: "stop",
    responseMessages: [{ role: "assistant", content: [{ type: "text", text }] }],
  };
}

/** after_model's changes: the text replaced, tool calls dropped (also from the messages kept). */
export function changedAnswer(
  answer: Answer,
  changes: { text?: string; dropToolCalls?: readonly string[] },
): Answer {
  const { text, dropToolCalls } = changes;
  if (text === undefined && (dropToolCalls === undefined || dropToolCalls.length === 0)) {
    return answer;
  }
  const dropped = new Set(dropToolCalls ?? []);
  const responseMessages = answer.responseMessages.map((message) =>
    rewriteMessage(message, text, dropped),
  );
  return {
    ...answer,
    text: text ?? answer.text,
    toolCalls: answer.toolCalls.filter((call) => !dropped.has(call.toolCallId)),
    responseMessages,
  };
}

function rewriteMessage(
  message: ModelMessage,
  text: string | undefined,
  dropped: ReadonlySet<string>,
): ModelMessage {
  if (message.role !== "assistant") return message;
  if (typeof message.content === "string") {
    return text === undefined ? message : { ...message, content: text };
  }
  const kept = message.content.filter(
    (part) =>
      !(part.type === "tool-call" && dropped.has(part.toolCallId)) &&
      !(part.type === "tool-result" && dropped.has(part.toolCallId)) &&
      !(text !== undefined && part.type === "text"),
  );
  const content =
    text === undefined || text === "" ? kept : [{ type: "text" as const, text }, ...kept];
  // An assistant message left empty still needs content for the provider.
  return { ...message, content: content.length > 0 ? content : [{ type: "text", text: "" }] };
}
