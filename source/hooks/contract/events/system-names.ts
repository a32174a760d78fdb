/**
 * Event names of two of the systems acai grew from that are not spelled in
 * an event's row (issue 20 item 8; docs/hooks.md "Event names"):
 *
 * - the original acai-ts hooks design (seed 004): the agent events its hooks
 *   intercepted, kebab-case (`tool-call-start`, `agent-stop`, …);
 * - agent-relay's lifecycle hooks (seed 000): `onSessionStart` as written in
 *   `relay.config.ts`'s `hooks`, and `sessionStart` as given to `relay.on`.
 *
 * Names these systems have that acai has no event for are deliberately
 * absent: such a hook is reported as broken, never silently idle.
 */
import type { HookEventName } from "./table.js";

/** acai-ts's agent events → the hook event acai raises at the same moment. */
export const ACAI_TS_EVENTS: Readonly<Record<string, HookEventName>> = {
  // Agent.run() starts: once per prompt, before the model sees it.
  "agent-start": "user_prompt",
  // A step starts: the model is about to be asked.
  "step-start": "before_model",
  "tool-call-start": "before_tool",
  "tool-call-end": "after_tool",
  // The loop is done with the prompt: the turn ended.
  "agent-stop": "after_agent",
};

/** agent-relay's lifecycle hooks (`onX` in relay.config.ts, `x` for `relay.on`) → acai's events. */
export const RELAY_EVENTS: Readonly<Record<string, HookEventName>> = {
  onSessionStart: "session_start",
  onSessionEnd: "session_end",
  onOutput: "output",
  onIdle: "idle",
  onMessageReceived: "message_received",
  onToolCall: "before_tool",
  sessionStart: "session_start",
  sessionEnd: "session_end",
  messageReceived: "message_received",
  toolCall: "before_tool",
};

/** acai-ts or agent-relay spelling → acai's event; undefined when neither. */
export function otherSystemEventName(name: string): HookEventName | undefined {
  if (Object.hasOwn(ACAI_TS_EVENTS, name)) return ACAI_TS_EVENTS[name];
  if (Object.hasOwn(RELAY_EVENTS, name)) return RELAY_EVENTS[name];
  return undefined;
}
