/**
 * The hook events, one row each: everything acai knows about an event lives
 * here, and every other module reads it (payload, matching, plan, fold, the
 * dialects' names, the toolkit). Adding an event is one row, the place the
 * agent emits its AgentEvent, and tests.
 *
 * Codex's HOOK_EVENT_NAMES and gemini-cli's per-event types were the models.
 */
import type { AgentEventType } from "../../agent/events.js";
import type { GateState } from "../contract/gate-state.js";
import {
  type AgentEventOf,
  compactEndFields,
  compactStartFields,
  type ExtrasContext,
  idleFields,
  messageReceivedFields,
  messageSentFields,
  modelRequestFields,
  modelResponseFields,
  notificationFields,
  outputFields,
  type Payload,
  patternFields,
  permissionRequestFields,
  sessionEndExtras,
  sessionEndFields,
  sessionStartFields,
  stopRequestExtras,
  stopRequestFields,
  subagentStartFields,
  subagentStopFields,
  toolEndFields,
  toolErrorFields,
  toolStartFields,
  turnEndExtras,
  turnEndFields,
  userPromptFields,
} from "./fields.js";

/**
 * Answers beyond continue (and context) that an event can act on. `suppress`:
 * agent-relay's answer dropping what the event would deliver (message_received).
 */
export type Honoured =
  | "block"
  | "modify"
  | "ask"
  | "allow"
  | "skip"
  | "stop"
  | "retry"
  | "suppress";
/** What a `modify` may replace, by the answer's field name. */
export type Changeable = "input" | "prompt" | "output";

/** What a matcher of the event is tested against (hooks.md §2). */
export interface MatchFields {
  toolName?: string;
  toolInput?: unknown;
  source?: string;
  /** The `pattern` event's namespace (`namespace` matchers). */
  namespace?: string;
}

export interface EventRow<T extends AgentEventType = AgentEventType> {
  /** The AgentEvent it comes from (the agent emits it; the interceptor maps it here). */
  agentEvent: T;
  /** Claude Code's `hook_event_name`; acai's own name where Claude Code has no such event. */
  claude: string;
  /**
   * Agent Hooks spec names: `name` is sent as `event_type` and accepted as a
   * HOOK.md trigger, `aliases` are older spellings still accepted. None: the
   * spec lacks the event (acai's name is sent and accepted).
   */
  agentHooks?: { name: string; aliases?: readonly string[] };
  /** gate: hooks chain and the agent waits for the verdict; observe: hooks run at once. */
  kind: "gate" | "observe";
  /** tool: `tool`/`pattern`/`command`/`path` apply; source: `source`; namespace: `namespace`; none: none of them. */
  subject: "tool" | "source" | "namespace" | "none";
  /** The answers that take effect; any other is ignored with a warning. */
  honours: readonly Honoured[];
  /** What a `modify` may replace on this event. */
  changes: readonly Changeable[];
  /** Plain (non-JSON) stdout is context for the model, as in Claude Code. */
  plainStdoutIsContext: boolean;
  /**
   * How its async hooks run: in the background, not waited for; or inline,
   * like its other hooks (session_end: nothing comes after it to wait for them).
   */
  asyncHooks: "background" | "inline";
  /** What a block does, in words (`acai hooks test` prints it). */
  onBlock: string;
  /** Per-event stdin fields (Claude Code's names), with the values earlier hooks replaced. */
  fields(ev: AgentEventOf<T>, state: GateState): Payload;
  /** Fields only the Agent Hooks dialect receives. */
  agentHooksExtras?(ev: AgentEventOf<T>, at: ExtrasContext): Payload;
  /** What matchers see, with the values earlier hooks replaced. */
  matchOn(ev: AgentEventOf<T>, state: GateState): MatchFields;
}

/**
 * Checks a row's functions against its own agent event, then widens it: a row
 * is only ever called with its own agent event (`HOOK_EVENT_OF` picks it by
 * that event's type), which the type system cannot follow through a lookup.
 */
const row = <T extends AgentEventType>(r: EventRow<T>): EventRow => r as unknown as EventRow;

const GATE: readonly Honoured[] = ["block", "modify", "ask", "skip", "stop"];
const OBSERVED = "ignore it: hooks of this event only observe";
const none = (): MatchFields => ({});
const toolAsReplaced = (
  ev: { toolName: string; input: unknown },
  state: GateState,
): MatchFields => ({
  toolName: ev.toolName,
  toolInput: "toolInput" in state ? state.toolInput : ev.input,
});
const toolOf = (ev: { toolName: string; input: unknown }): MatchFields => ({
  toolName: ev.toolName,
  toolInput: ev.input,
});

export const HOOK_EVENT_TABLE = {
  session_start: row({
    agentEvent: "session_start",
    claude: "SessionStart",
    agentHooks: { name: "pre-session" },
    kind: "gate",
    subject: "source",
    honours: GATE,
    changes: [],
    plainStdoutIsContext: true,
    asyncHooks: "background",
    onBlock: "refuse to start the session",
    fields: sessionStartFields,
    matchOn: (ev) => ({ source: ev.source }),
  }),
  user_prompt: row({
    agentEvent: "user_prompt",
    claude: "UserPromptSubmit",
    agentHooks: { name: "pre-agent-turn", aliases: ["before_agent"] },
    kind: "gate",
    subject: "none",
    honours: GATE,
    changes: ["prompt"],
    plainStdoutIsContext: true,
    asyncHooks: "background",
    onBlock: "drop the prompt and show the reason",
    fields: userPromptFields,
    matchOn: none,
  }),
  before_model: row({
    agentEvent: "model_request",
    claude: "before_model",
    kind: "gate",
    subject: "none",
    honours: [...GATE, "retry"],
    changes: [],
    plainStdoutIsContext: false,
    asyncHooks: "background",
    onBlock: "end the turn and show the reason",
    fields: modelRequestFields,
    matchOn: none,
  }),
  after_model: row({
    agentEvent: "model_response",
    claude: "after_model",
    kind: "gate",
    subject: "none",
    honours: GATE,
    changes: [],
    plainStdoutIsContext: false,
    asyncHooks: "background",
    onBlock: "end the turn and show the reason",
    fields: modelResponseFields,
    matchOn: none,
  }),
  before_tool: row({
    agentEvent: "tool_call_start",
    claude: "PreToolUse",
    agentHooks: { name: "pre-tool-call" },
    kind: "gate",
    subject: "tool",
    // allow: no permission question unless a deny or ask rule holds (Claude Code's permissionDecision).
    honours: [...GATE, "allow"],
    changes: ["input"],
    plainStdoutIsContext: false,
    asyncHooks: "background",
    onBlock: "not run the tool; the reason goes to the model as the tool result",
    fields: toolStartFields,
    matchOn: toolAsReplaced,
  }),
  permission_request: row({
    agentEvent: "permission_request",
    claude: "PermissionRequest",
    kind: "gate",
    subject: "tool",
    // ask is no decision here: the user is asked, as when no hook answers.
    honours: ["block", "allow", "modify", "skip", "stop"],
    changes: ["input"],
    plainStdoutIsContext: false,
    asyncHooks: "background",
    onBlock:
      "deny the tool call without asking the user; the reason goes to the model as the tool result",
    fields: permissionRequestFields,
    matchOn: toolAsReplaced,
  }),
  after_tool: row({
    agentEvent: "tool_call_end",
    claude: "PostToolUse",
    agentHooks: { name: "post-tool-call" },
    kind: "gate",
    subject: "tool",
    honours: GATE,
    changes: ["output"],
    plainStdoutIsContext: false,
    asyncHooks: "background",
    onBlock: "give the reason to the model beside the tool result",
    fields: toolEndFields,
    matchOn: toolOf,
  }),
  after_tool_failure: row({
    agentEvent: "tool_call_error",
    claude: "PostToolUseFailure",
    agentHooks: { name: "post-tool-call-failure" },
    kind: "observe",
    subject: "tool",
    honours: [],
    changes: [],
    plainStdoutIsContext: false,
    asyncHooks: "background",
    onBlock: OBSERVED,
    fields: toolErrorFields,
    matchOn: toolOf,
  }),
  before_stop: row({
    agentEvent: "stop_request",
    claude: "Stop",
    agentHooks: { name: "pre-agent-turn-stop" },
    kind: "gate",
    subject: "none",
    honours: GATE,
    changes: [],
    plainStdoutIsContext: false,
    asyncHooks: "background",
    onBlock: "not stop: the reason becomes a user message and the agent goes on",
    fields: stopRequestFields,
    agentHooksExtras: stopRequestExtras,
    matchOn: none,
  }),
  after_agent: row({
    agentEvent: "turn_end",
    claude: "after_agent",
    agentHooks: { name: "post-agent-turn", aliases: ["post-agent-turn-stop"] },
    kind: "observe",
    subject: "none",
    // The turn is over: ending the session there is meaningful (the agent ends it "hook_stop").
    honours: ["stop"],
    changes: [],
    plainStdoutIsContext: false,
    asyncHooks: "background",
    onBlock: OBSERVED,
    fields: turnEndFields,
    agentHooksExtras: turnEndExtras,
    matchOn: none,
  }),
  subagent_start: row({
    agentEvent: "subagent_start",
    claude: "SubagentStart",
    kind: "gate",
    subject: "source",
    honours: GATE,
    changes: [],
    plainStdoutIsContext: false,
    asyncHooks: "background",
    onBlock: "not start the subagent: the Task call fails with the reason",
    fields: subagentStartFields,
    matchOn: (ev) => ({ source: ev.agentType }),
  }),
  subagent_stop: row({
    agentEvent: "subagent_stop",
    claude: "SubagentStop",
    kind: "gate",
    subject: "source",
    honours: GATE,
    changes: [],
    plainStdoutIsContext: false,
    asyncHooks: "background",
    onBlock: "not stop the subagent: the reason becomes its next user message and it goes on",
    fields: subagentStopFields,
    matchOn: (ev) => ({ source: ev.agentType }),
  }),
  pre_compact: row({
    agentEvent: "compact_start",
    claude: "PreCompact",
    kind: "gate",
    subject: "source",
    honours: GATE,
    changes: [],
    plainStdoutIsContext: false,
    asyncHooks: "background",
    onBlock: "not compact now (an automatic compaction is tried again before a later request)",
    fields: compactStartFields,
    matchOn: (ev) => ({ source: ev.trigger }),
  }),
  post_compact: row({
    agentEvent: "compact_end",
    claude: "post_compact",
    kind: "observe",
    subject: "source",
    honours: [],
    changes: [],
    plainStdoutIsContext: false,
    asyncHooks: "background",
    onBlock: OBSERVED,
    fields: compactEndFields,
    matchOn: (ev) => ({ source: ev.trigger }),
  }),
  notification: row({
    agentEvent: "notification",
    claude: "Notification",
    kind: "observe",
    subject: "source",
    honours: [],
    changes: [],
    plainStdoutIsContext: false,
    asyncHooks: "background",
    onBlock: OBSERVED,
    fields: notificationFields,
    matchOn: (ev) => ({ source: ev.notificationType }),
  }),
  message_received: row({
    agentEvent: "message_received",
    claude: "message_received",
    kind: "gate",
    // `source` matchers see the sender's name.
    subject: "source",
    // ask: the REPL asks the user whether the message goes to the model; headless denies (drops it).
    honours: [...GATE, "suppress"],
    changes: ["prompt"],
    plainStdoutIsContext: false,
    asyncHooks: "background",
    onBlock: "drop the message (as agent-relay's suppress does): it never reaches the model",
    fields: messageReceivedFields,
    matchOn: (ev) => ({ source: ev.message.from }),
  }),
  message_sent: row({
    agentEvent: "message_sent",
    claude: "message_sent",
    kind: "observe",
    // `source` matchers see the recipient's name (`*` for a broadcast).
    subject: "source",
    honours: [],
    changes: [],
    plainStdoutIsContext: false,
    asyncHooks: "background",
    onBlock: OBSERVED,
    fields: messageSentFields,
    matchOn: (ev) => ({ source: ev.message.to }),
  }),
  session_end: row({
    agentEvent: "session_end",
    claude: "SessionEnd",
    agentHooks: { name: "post-session" },
    kind: "observe",
    subject: "none",
    honours: [],
    changes: [],
    plainStdoutIsContext: false,
    asyncHooks: "inline",
    onBlock: OBSERVED,
    fields: sessionEndFields,
    agentHooksExtras: sessionEndExtras,
    matchOn: none,
  }),
  output: row({
    agentEvent: "output",
    claude: "output",
    kind: "observe",
    subject: "none",
    honours: [],
    changes: [],
    plainStdoutIsContext: false,
    asyncHooks: "background",
    onBlock: OBSERVED,
    fields: outputFields,
    matchOn: none,
  }),
  pattern: row({
    agentEvent: "pattern",
    claude: "pattern",
    kind: "gate",
    subject: "namespace",
    honours: ["skip"],
    changes: [],
    // A handler's plain answer is its reply to the agent, as agent-relay's inject.
    plainStdoutIsContext: true,
    asyncHooks: "background",
    onBlock:
      "ignore it: a pattern handler answers with context (inject), or skips the handlers after it",
    fields: patternFields,
    matchOn: (ev) => ({ namespace: ev.namespace }),
  }),
  idle: row({
    agentEvent: "idle",
    claude: "idle",
    kind: "observe",
    subject: "none",
    honours: [],
    changes: [],
    plainStdoutIsContext: false,
    asyncHooks: "background",
    onBlock: OBSERVED,
    fields: idleFields,
    matchOn: none,
  }),
};

export type HookEventName = keyof typeof HOOK_EVENT_TABLE;

/** Every hook event, in the table's order (the order documentation and messages list them). */
export const HOOK_EVENTS = Object.keys(HOOK_EVENT_TABLE) as readonly HookEventName[];

/** The row of an event. */
export function eventRow(event: HookEventName): EventRow {
  return HOOK_EVENT_TABLE[event];
}
