/**
 * How things reach `items`, the finished part of the view (rendered once):
 * the moves every event family makes — items pushed with their ids, streamed
 * text flushed, a tool closed with its subagents below it, the user's answers
 * put after the hook that asked.
 */
import type { HookEventName } from "../../hooks/contract/definition.js";
import type { Fence } from "../format.js";
import type { AnsweredAsk, Item, NewItem, ToolView, ViewState } from "./view.js";

export function push(state: ViewState, ...items: NewItem[]): ViewState {
  if (items.length === 0) return state;
  let id = state.nextId;
  const added = items.map((item) => ({ ...item, id: id++ }) as Item);
  return { ...state, items: [...state.items, ...added], nextId: id };
}

/** Moves whatever streamed text is left to `items`. */
export function flushStream(state: ViewState): ViewState {
  const stream = state.stream;
  if (!stream) return state;
  const text = stream.text.replace(/\s+$/, "");
  const next = { ...state, stream: null };
  if (!text) return next;
  return push(next, assistantItem(text, stream.continued, stream.fence));
}

export function assistantItem(text: string, continued: boolean, fence: Fence | undefined): NewItem {
  return { kind: "assistant", text, continued, ...(fence ? { fence } : {}) };
}

export function finishTool(state: ViewState, tool: ToolView): ViewState {
  const tools = state.tools.filter((t) => t.toolCallId !== tool.toolCallId);
  // A Task call's subagent goes below it, collapsed.
  const nested = state.subagents.filter((v) => v.toolCallId === tool.toolCallId);
  const subagents = state.subagents.filter((v) => !nested.includes(v));
  return push(
    { ...state, tools, subagents },
    { kind: "tool", tool },
    ...nested.map((view): NewItem => ({ kind: "subagent", view })),
  );
}

/** Answers of the hook that just ended (all of them with no hook given) go to `items`. */
export function flushAnswers(
  state: ViewState,
  hook?: { id: string; event: HookEventName },
): ViewState {
  if (state.answers.length === 0) return state;
  const due = (a: AnsweredAsk) => !hook || (a.hookId === hook.id && a.event === hook.event);
  const answers = state.answers.filter((a) => !due(a));
  if (answers.length === state.answers.length) return state;
  const items = state.answers.filter(due).map((a) => a.item);
  return push({ ...state, answers }, ...items);
}
