/**
 * The hook event each agent event raises, by the hook event's name: an emit
 * site writes `type: RAISES.before_tool`, so searching for `before_tool` lands
 * where it is raised (and, for a gate, where its verdict is applied: right
 * after the emit). The agent imports nothing of hooks/; each hook event's
 * module (hooks/contract/events/) takes its agent event from here.
 */
export const RAISES = {
  session_start: "session_start",
  user_prompt: "user_prompt",
  before_model: "model_request",
  after_model: "model_response",
  before_tool: "tool_call_start",
  permission_request: "permission_request",
  after_tool: "tool_call_end",
  after_tool_failure: "tool_call_error",
  before_stop: "stop_request",
  after_agent: "turn_end",
  subagent_start: "subagent_start",
  subagent_stop: "subagent_stop",
  pre_compact: "compact_start",
  post_compact: "compact_end",
  notification: "notification",
  message_received: "message_received",
  message_sent: "message_sent",
  session_end: "session_end",
  output: "output",
  pattern: "pattern",
  idle: "idle",
} as const;

/** A hook event's name, as the agent knows it. */
export type RaisedHookEvent = keyof typeof RAISES;
