/**
 * The realistic agent stream the interceptor benchmarks share: each step a
 * model request, 10 text deltas, the response and one Bash call.
 */
import type { AgentEvent } from "../../dist/agent/events.js";

/** One Bash call's start and end events in `step` of turn 1. */
export function bashCall(step: number, command: string): AgentEvent[] {
  const call = { turn: 1, step, toolCallId: `c${step}`, toolName: "Bash", input: { command } };
  return [
    { type: "tool_call_start", ...call },
    { type: "tool_call_end", ...call, output: "ok", response: {}, durationMs: 1 },
  ];
}

/** `count` events of such steps; `command(step)` is that step's Bash line. */
export function stepStream(count: number, command: (step: number) => string): AgentEvent[] {
  const events: AgentEvent[] = [];
  for (let step = 1; events.length < count; step++) {
    const s = { turn: 1, step };
    events.push({ type: "step_start", ...s }, { type: "model_request", ...s, model: "m" });
    for (let i = 0; i < 10; i++) events.push({ type: "text_delta", ...s, text: "token " });
    events.push({
      type: "model_response",
      ...s,
      model: "m",
      text: "…",
      toolCalls: [],
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      finishReason: "tool-calls",
      durationMs: 1,
    });
    events.push(...bashCall(step, command(step)), { type: "step_end", ...s });
  }
  return events.slice(0, count);
}
