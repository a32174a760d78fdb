import type { SessionTotals, Usage } from "./event-data.js";
import type { AgentEvent } from "./events.js";
import { addUsage, ZERO_USAGE } from "./usage.js";

/** How many tool names `recentTools` keeps (A3S `recent_tools`). */
const RECENT_TOOLS = 10;

/**
 * What a session did, counted from the events it emits: model requests, tool
 * calls, tokens (for `session_end`), and whether the last step's tool calls
 * were all refused (`stop_request`'s `tool_rejected`).
 */
export class SessionCounter {
  private steps = 0;
  private toolCalls = 0;
  private usage: Usage = ZERO_USAGE;
  /** Tool calls of the latest step, and how many of them were refused. */
  private stepCalls = 0;
  private stepRefused = 0;
  private previousStepAllRefused = false;
  /** Names of the latest tool calls, oldest first (at most RECENT_TOOLS). */
  private readonly recent: string[] = [];

  constructor(private readonly startedAt: number) {}

  observe(event: AgentEvent): void {
    switch (event.type) {
      case "step_start":
        this.steps++;
        this.previousStepAllRefused = this.stepCalls > 0 && this.stepRefused === this.stepCalls;
        this.stepCalls = 0;
        this.stepRefused = 0;
        break;
      case "model_response":
        this.usage = addUsage(this.usage, event.usage);
        break;
      case "tool_call_start":
        this.toolCalls++;
        this.stepCalls++;
        this.recent.push(event.toolName);
        if (this.recent.length > RECENT_TOOLS) this.recent.shift();
        break;
      case "tool_call_error":
        if (event.blocked) this.stepRefused++;
        break;
      default:
        break;
    }
  }

  /** The session's latest tool calls (names, oldest first): `tool_call_start`'s `recentTools`. */
  recentTools(): string[] {
    return [...this.recent];
  }

  /** The step that just answered came after a step whose tool calls were all refused. */
  get afterRefusedTools(): boolean {
    return this.previousStepAllRefused;
  }

  totals(now: number): SessionTotals {
    return {
      steps: this.steps,
      toolCalls: this.toolCalls,
      usage: this.usage,
      durationMs: Math.max(0, now - this.startedAt),
    };
  }
}

/** `openai` of `openai.chat`, `anthropic` of `anthropic.messages`: the provider a model comes from. */
export function providerOf(model: unknown): string {
  if (typeof model === "string") return model.split(":")[0] ?? model;
  if (typeof model === "object" && model !== null && "provider" in model) {
    const provider = (model as { provider: unknown }).provider;
    if (typeof provider === "string") return provider.split(".")[0] ?? provider;
  }
  return "unknown";
}
