/**
 * The REPL's view of running subagents (the Task tool): a pure fold of the
 * events marked with a subagent's id. Each subagent is shown nested under its
 * Task call, collapsed: its latest lines while it runs, one summary line once
 * done (`/expand N` shows every line).
 */

import type { StopReason } from "../agent/event-data.js";
import type { AgentEvent } from "../agent/events.js";
import { inertLines } from "../terminal/inert-text.js";
import { oneLine, summarizeToolInput } from "./format.js";

/** Lines kept per subagent (the oldest go first): a long subagent must not grow the REPL without bound. */
export const MAX_SUBAGENT_LINES = 500;

type SubagentLineKind = "text" | "tool" | "failed" | "note";

interface SubagentLine {
  kind: SubagentLineKind;
  text: string;
}

export interface SubagentView {
  agentId: string;
  agentType: string;
  description: string;
  /** The parent's Task call. */
  toolCallId: string;
  depth: number;
  startedAt: number;
  lines: SubagentLine[];
  /** Lines dropped past MAX_SUBAGENT_LINES. */
  dropped: number;
  toolCalls: number;
  /** Tool calls running now: name and summary. */
  running: { toolCallId: string; label: string }[];
  /** Text of the step streaming now. */
  text: string;
  stopReason?: StopReason;
  message?: string;
  durationMs?: number;
  /** `/expand N` number, given when it ends. */
  seq?: number;
}

type Marked = AgentEvent & { agentId: string };

/** Folds one event of a subagent into the list of those running; `ended` is the one it finished. */
export function reduceSubagents(
  views: readonly SubagentView[],
  event: Marked,
  at: number,
): { views: SubagentView[]; ended?: SubagentView } {
  if (event.type === "subagent_start") {
    const view: SubagentView = {
      agentId: event.agentId,
      agentType: event.agentType,
      description: event.description,
      toolCallId: event.toolCallId,
      depth: event.depth,
      startedAt: at,
      lines: [],
      dropped: 0,
      toolCalls: 0,
      running: [],
      text: "",
    };
    return { views: [...views.filter((v) => v.agentId !== event.agentId), view] };
  }
  const current = views.find((v) => v.agentId === event.agentId);
  if (current === undefined) return { views: [...views] };
  const next = applyEvent(current, event, at);
  if (event.type === "subagent_end") {
    return { views: views.filter((v) => v !== current), ended: next };
  }
  return { views: views.map((v) => (v === current ? next : v)) };
}

function applyEvent(view: SubagentView, event: Marked, at: number): SubagentView {
  switch (event.type) {
    case "text_delta":
      return { ...view, text: view.text + event.text };
    case "model_response":
      return withLine({ ...view, text: "" }, "text", event.text);
    case "tool_call_start":
      return {
        ...view,
        toolCalls: view.toolCalls + 1,
        running: [
          ...view.running,
          { toolCallId: event.toolCallId, label: toolLabel(event.toolName, event.input) },
        ],
      };
    case "tool_call_end":
      return withLine(
        settled(view, event.toolCallId),
        "tool",
        toolLabel(event.toolName, event.input),
      );
    case "tool_call_error":
      return withLine(
        settled(view, event.toolCallId),
        "failed",
        `${toolLabel(event.toolName, event.input)}: ${event.error}`,
      );
    case "warning":
    case "error":
      return withLine(view, "note", event.message);
    case "subagent_end":
      return {
        ...withLine({ ...view, text: "" }, "text", view.text),
        running: [],
        stopReason: event.stopReason,
        ...(event.message === undefined ? {} : { message: event.message }),
        durationMs: Math.max(0, at - view.startedAt),
      };
    default:
      return view;
  }
}

function settled(view: SubagentView, toolCallId: string): SubagentView {
  return { ...view, running: view.running.filter((r) => r.toolCallId !== toolCallId) };
}

function toolLabel(toolName: string, input: unknown): string {
  return `${toolName} ${summarizeToolInput(toolName, input, 100)}`;
}

function withLine(view: SubagentView, kind: SubagentLineKind, text: string): SubagentView {
  const line = oneLine(text.trim(), 400);
  if (line === "") return view;
  const lines = [...view.lines, { kind, text: line }];
  const over = Math.max(0, lines.length - MAX_SUBAGENT_LINES);
  return { ...view, lines: over > 0 ? lines.slice(over) : lines, dropped: view.dropped + over };
}

/** Every line of a finished subagent, for `/expand N`. */
export function subagentDetail(view: SubagentView): string {
  const mark: Record<SubagentLineKind, string> = { text: "", tool: "✓ ", failed: "✗ ", note: "! " };
  const lines = view.lines.map((line) => `${mark[line.kind]}${line.text}`);
  if (view.dropped > 0) lines.unshift(`(${view.dropped} earlier lines not kept)`);
  if (view.message) lines.push(`(${view.stopReason}: ${view.message})`);
  return lines.length > 0 ? inertLines(lines.join("\n")) : "(nothing)";
}
