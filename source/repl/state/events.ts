import { fromSubagent } from "../../agent/subagent-events.js";
import type { HookActivityEvent, InterceptedEvent } from "../../hooks/run/activity.js";
import { reduceHookEnd, reduceHookStart, reduceHookWarning } from "./hook-events.js";
import { flushStream } from "./items.js";
import { reduceMessageReceived, reduceMessageSent } from "./message-events.js";
import { reduceCompactEnd, reduceError, reduceWarning } from "./notice-events.js";
import { reduceSessionEnd, reduceSessionStart } from "./session-events.js";
import { reduceModelResponse, reduceTextDelta } from "./stream-events.js";
import { reduceSubagentEvent } from "./subagent-events.js";
import { reduceToolEnd, reduceToolError, reduceToolStart } from "./tool-events.js";
import { ensureTurn, reduceTurnEnd, reduceUserPrompt } from "./turn-events.js";
import type { ViewState } from "./view.js";

/** One intercepted event folded into the view: each event type to its family's reducer. */
export function reduceEvent(state: ViewState, event: InterceptedEvent, at: number): ViewState {
  // A subagent's hook activity shows like the session's; its other events go to its nested view.
  if (fromSubagent(event) && !isHookActivity(event)) return reduceSubagentEvent(state, event, at);
  switch (event.type) {
    case "session_start":
      return reduceSessionStart(state, event);
    case "session_end":
      return reduceSessionEnd(state, event);
    case "user_prompt":
      return reduceUserPrompt(state, event, at);
    case "turn_start":
      return ensureTurn(state, event.turn, at);
    case "turn_end":
      return reduceTurnEnd(state, event, at);
    case "text_delta":
      return reduceTextDelta(state, event);
    case "model_response":
      return reduceModelResponse(state, event);
    case "step_end":
      return flushStream(state);
    case "tool_call_start":
      return reduceToolStart(state, event, at);
    case "tool_call_end":
      return reduceToolEnd(state, event, at);
    case "tool_call_error":
      return reduceToolError(state, event, at);
    case "hook_start":
      return reduceHookStart(state, event);
    case "hook_end":
      return reduceHookEnd(state, event, at);
    case "hook_warning":
      return reduceHookWarning(state, event);
    case "message_received":
      return reduceMessageReceived(state, event);
    case "message_sent":
      return reduceMessageSent(state, event);
    case "compact_end":
      return reduceCompactEnd(state, event);
    case "warning":
      return reduceWarning(state, event);
    case "error":
      return reduceError(state, event);
    // Nothing to show: gates whose outcome shows elsewhere, and what the hooks layer acts on.
    case "step_start":
    case "model_request":
    case "stop_request":
    case "notification":
    case "permission_request":
    case "output":
    case "pattern":
    case "idle":
    case "compact_start":
    case "permission_denied":
    case "instructions_loaded":
    case "tool_batch_end":
    case "turn_failed":
    case "tool_call_deferred": // headless only: the REPL's hooks never defer
    case "before_message_send": // the session's gate; never yielded
    case "config_change": // the session's gate; never yielded (its outcome is a warning)
    case "file_changed":
      return state;
    default:
      return event satisfies never;
  }
}

function isHookActivity(event: InterceptedEvent): event is HookActivityEvent {
  return event.type === "hook_start" || event.type === "hook_end" || event.type === "hook_warning";
}
