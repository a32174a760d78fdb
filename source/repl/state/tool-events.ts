/**
 * Tool calls: a block while the call runs, then one finished block in
 * `items` (numbered for `/expand N`), with its outcome.
 */
import { finishTool, flushStream } from "./items.js";
import type { EventOf, ToolStatus, ToolView, ViewState } from "./view.js";

export function reduceToolStart(
  state: ViewState,
  event: EventOf<"tool_call_start">,
  at: number,
): ViewState {
  const next = flushStream(state);
  if (startedTool(next, event.toolCallId)) return next;
  const seq = next.toolSeq + 1;
  const tool: ToolView = {
    toolCallId: event.toolCallId,
    toolName: event.toolName,
    input: event.input,
    status: "running",
    startedAt: at,
    seq,
  };
  return { ...next, toolSeq: seq, tools: [...next.tools, tool] };
}

export function reduceToolEnd(
  state: ViewState,
  event: EventOf<"tool_call_end">,
  at: number,
): ViewState {
  return closeTool(state, event, at, "ok", event.output);
}

export function reduceToolError(
  state: ViewState,
  event: EventOf<"tool_call_error">,
  at: number,
): ViewState {
  const status: ToolStatus = event.blocked
    ? "blocked"
    : event.interrupted
      ? "interrupted"
      : "error";
  return closeTool(state, event, at, status, event.error);
}

/** The call's finished block; one never seen starting still gets its number. */
function closeTool(
  state: ViewState,
  event: EventOf<"tool_call_end" | "tool_call_error">,
  at: number,
  status: ToolStatus,
  output: string,
): ViewState {
  const started = startedTool(state, event.toolCallId);
  const seq = started?.seq ?? state.toolSeq + 1;
  return finishTool(
    { ...flushStream(state), toolSeq: Math.max(state.toolSeq, seq) },
    {
      toolCallId: event.toolCallId,
      toolName: event.toolName,
      input: event.input,
      status,
      startedAt: started?.startedAt ?? at - event.durationMs,
      durationMs: event.durationMs,
      output,
      seq,
    },
  );
}

function startedTool(state: ViewState, toolCallId: string): ToolView | undefined {
  return state.tools.find((t) => t.toolCallId === toolCallId);
}
