/**
 * From a chain's result to the agent's verdict, in one place: a continue
 * carries what hooks replaced (only what the event's row lets them change, see
 * step.ts) and the context; `retry` is bounded per model request by
 * `maxRetries` — past it the request goes ahead with a warning.
 */
import type { AgentEvent } from "../../../agent/events.js";
import { RAISES } from "../../../agent/raises.js";
import type { Verdict } from "../../../agent/verdicts.js";
import type { HookEventName } from "../../contract/definition.js";
import type { GateState } from "../../contract/gate-state.js";
import type { HookActivityEvent } from "../activity.js";
import type { ChainResult } from "../chain.js";

/** Consecutive retries of one model request (`turn:step`). */
export interface RetryCount {
  key: string;
  count: number;
}

export function newRetryCount(): RetryCount {
  return { key: "", count: 0 };
}

/** Context raised beside the loop, delivered with a plain continue. */
export function carriedVerdict(carried: readonly string[]): Verdict | undefined {
  return carried.length > 0 ? { action: "continue", context: [...carried] } : undefined;
}

/** What hooks changed around the model, as the agent's verdict for this event reads it. */
function modelVerdict(agentEvent: AgentEvent, state: GateState): Partial<Verdict> {
  const out: Extract<Verdict, { action: "continue" }> = { action: "continue" };
  if (state.request !== undefined) out.request = state.request;
  if (state.response !== undefined) {
    // before_model: an answer in place of the model; after_model: the response's new text.
    if (agentEvent.type === "model_request") out.response = state.response;
    else out.text = state.response.text;
  }
  if (state.dropToolCalls !== undefined) out.dropToolCalls = state.dropToolCalls;
  if (state.followUp !== undefined) out.followUp = state.followUp;
  const { action: _continue, ...changes } = out;
  return changes;
}

export function verdictOf(
  event: HookEventName,
  agentEvent: AgentEvent,
  result: ChainResult,
  carried: readonly string[],
  retries: RetryCount,
  maxRetries: number,
): { verdict: Verdict; warning?: HookActivityEvent } {
  const context = [...carried, ...result.context];
  const withContext = context.length > 0 ? { context } : {};
  const end = result.end;
  if (end.kind !== "retry") retries.count = 0;
  switch (end.kind) {
    case "block": {
      // Claude Code's wording for a settings hook's exit-2 block, which prompts and models may look for.
      const modelText =
        end.exitCode2Command !== undefined && agentEvent.type === RAISES.before_tool
          ? `PreToolUse:${agentEvent.toolName} hook error: [${end.exitCode2Command}]: ${end.reason}`
          : undefined;
      return {
        verdict: {
          action: "block",
          reason: end.reason,
          ...(modelText === undefined ? {} : { modelText }),
          ...withContext,
        },
      };
    }
    case "stop":
      return { verdict: { action: "stop", reason: end.reason } };
    case "allow": {
      const state = result.state;
      const input = "toolInput" in state ? (state.checkedToolInput ?? state.toolInput) : undefined;
      return {
        verdict: { action: "allow", ...(input === undefined ? {} : { input }), ...withContext },
      };
    }
    case "retry": {
      const key =
        agentEvent.type === RAISES.before_model ? `${agentEvent.turn}:${agentEvent.step}` : "";
      if (retries.key === key) retries.count++;
      else {
        retries.key = key;
        retries.count = 1;
      }
      // The answering hook's own bound (A3S `max_retries`), else the session's.
      const bound = end.maxRetries ?? maxRetries;
      if (retries.count <= bound) {
        return { verdict: { action: "retry", afterMs: end.afterMs, ...withContext } };
      }
      retries.count = 0;
      return {
        verdict: { action: "continue", ...withContext },
        warning: {
          type: "hook_warning",
          hook: end.hook,
          message: `hook "${end.hook.name}" asked to retry ${event} more than ${bound} times in a row; going ahead`,
        },
      };
    }
    case "defer":
      return { verdict: { action: "defer", reason: end.reason, ...withContext } };
    case "continue": {
      const verdict: Verdict = { action: "continue", ...withContext };
      const state = result.state;
      if ("toolInput" in state) verdict.input = state.checkedToolInput ?? state.toolInput;
      if (state.prompt !== undefined) verdict.prompt = state.prompt;
      if (state.output !== undefined) verdict.output = state.output;
      Object.assign(verdict, modelVerdict(agentEvent, state));
      if (result.suppressed) verdict.suppress = true;
      if (result.permission !== undefined) verdict.permission = result.permission;
      return { verdict };
    }
    default:
      return end satisfies never;
  }
}
