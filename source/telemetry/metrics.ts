/**
 * The session's metrics (docs/telemetry.md): hook runs (count by event,
 * source and outcome; latency; failures), tool calls (count by tool and
 * result; duration), tokens and cost. Names, counts and times only.
 */
import type { Counter, Histogram, Meter } from "@opentelemetry/api";
import type { InterceptedEvent } from "../hooks/run/activity.js";
import type { ModelPrice } from "../models/pricing.js";
import { costUsd } from "../models/pricing.js";

export class SessionMetrics {
  private readonly hookRuns: Counter;
  private readonly hookFailures: Counter;
  private readonly hookDuration: Histogram;
  private readonly toolCalls: Counter;
  private readonly toolDuration: Histogram;
  private readonly tokens: Counter;
  private readonly cost: Counter;

  constructor(
    meter: Meter,
    private readonly price: ModelPrice | undefined,
  ) {
    this.hookRuns = meter.createCounter("acai.hook.runs", {
      description: "Hook runs, by event, source and outcome",
    });
    this.hookFailures = meter.createCounter("acai.hook.failures", {
      description: "Hook runs that failed or timed out",
    });
    this.hookDuration = meter.createHistogram("acai.hook.duration", {
      description: "How long a hook run took",
      unit: "ms",
    });
    this.toolCalls = meter.createCounter("acai.tool.calls", {
      description: "Tool calls, by tool and result",
    });
    this.toolDuration = meter.createHistogram("acai.tool.duration", {
      description: "How long a tool call took",
      unit: "ms",
    });
    this.tokens = meter.createCounter("acai.tokens", { description: "Tokens, by type and model" });
    this.cost = meter.createCounter("acai.cost", { description: "Model cost", unit: "USD" });
  }

  observe(event: InterceptedEvent): void {
    switch (event.type) {
      case "hook_end": {
        const where = { "acai.hook.event": event.event, "acai.hook.source": event.hook.sourceKind };
        this.hookRuns.add(1, { ...where, "acai.hook.outcome": event.outcome });
        this.hookDuration.record(event.durationMs, where);
        if (event.outcome === "failed" || event.outcome === "timeout") {
          this.hookFailures.add(1, { ...where, "acai.hook.outcome": event.outcome });
        }
        return;
      }
      case "tool_call_end":
      case "tool_call_error": {
        const tool = { "acai.tool.name": event.toolName };
        this.toolCalls.add(1, { ...tool, "acai.tool.result": toolResult(event) });
        this.toolDuration.record(event.durationMs, tool);
        return;
      }
      case "model_response": {
        const model = { "acai.model": event.model };
        this.tokens.add(event.usage.inputTokens, { ...model, "acai.token.type": "input" });
        this.tokens.add(event.usage.outputTokens, { ...model, "acai.token.type": "output" });
        if (this.price) this.cost.add(costUsd(event.usage, this.price), model);
        return;
      }
      default:
        return;
    }
  }
}

function toolResult(
  event: Extract<InterceptedEvent, { type: "tool_call_end" | "tool_call_error" }>,
): string {
  if (event.type === "tool_call_end") return "success";
  if (event.blocked) return "blocked";
  if (event.denied) return "denied";
  return event.interrupted ? "interrupted" : "error";
}
