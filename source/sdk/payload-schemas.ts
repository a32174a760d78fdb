/**
 * What an executable or settings hook receives on stdin, per event (hooks.md §3),
 * as zod schemas: the typed helper validates stdin with them and the published
 * JSON Schemas (`schemas/event-*.json`) are generated from them.
 *
 * Objects are loose: acai may add fields, and a hook must not break when it does.
 * Only the fields the contract promises are required.
 */
import { z } from "zod";
import {
  CLAUDE_EVENT_NAMES,
  HOOK_EVENTS,
  type HookEventName,
} from "../hooks/contract/definition.js";

const base = {
  hook_event_name: z
    .string()
    .describe("Claude Code's name of the event (acai's where it has none)"),
  session_id: z.string(),
  transcript_path: z.string().describe("Absolute path of the session's JSONL transcript"),
  cwd: z.string().describe("Project root; also the hook's working directory"),
  timestamp: z.string().describe("ISO 8601"),
  permission_mode: z
    .enum(["default", "acceptEdits", "plan", "bypassPermissions"])
    .optional()
    .describe("The session's permission mode (docs/permissions.md)"),
  agent_name: z
    .string()
    .optional()
    .describe("This agent's name (--name), when it has one (agent-relay's agentName)"),
  project_name: z
    .string()
    .optional()
    .describe("The project root's folder name (agent-relay's projectName)"),
  session_started_at: z
    .string()
    .optional()
    .describe("ISO 8601: when the session started (agent-relay's sessionStartTime)"),
};

const UsageSchema = z.looseObject({
  input_tokens: z.number(),
  output_tokens: z.number(),
  total_tokens: z.number(),
});

const ToolCallSchema = z.looseObject({
  tool_use_id: z.string(),
  tool_name: z.string(),
  tool_input: z.unknown(),
});

const promptId = {
  prompt_id: z
    .string()
    .optional()
    .describe("Id of the user prompt this event belongs to: the same on every event of its turn"),
};

const toolFields = {
  tool_name: z.string().describe("Bash, Read, Write, Edit, Glob, Grep or a dynamic tool's name"),
  tool_input: z
    .record(z.string(), z.unknown())
    .describe("The tool's input, with Claude Code's field names (as modified by earlier hooks)"),
  tool_use_id: z.string(),
  ...promptId,
};

const subagent = {
  agent_id: z.string().describe("The subagent's id"),
  agent_type: z
    .string()
    .describe("The subagent's type (its agent file's name, or general-purpose)"),
};

/** Sent on every event raised inside a subagent. */
const inSubagent = {
  agent_id: z.string().optional().describe("Inside a subagent: its id"),
  agent_type: z.string().optional().describe("Inside a subagent: its type"),
};

function event<E extends HookEventName, S extends z.core.$ZodLooseShape>(name: E, shape: S) {
  return z
    .looseObject({ event: z.literal(name), ...base, ...inSubagent, ...shape })
    .describe(`stdin of a hook on ${name} (${CLAUDE_EVENT_NAMES[name]})`);
}

export const PAYLOAD_SCHEMAS = {
  session_start: event("session_start", {
    source: z
      .enum(["startup", "resume", "compact"])
      .describe("startup: a new session; resume: --continue/--resume; compact: after a compaction"),
    model: z.string(),
    model_provider: z.string().optional().describe("openai, anthropic, replay, …"),
    sandbox: z
      .looseObject({
        enabled: z.boolean(),
        policy: z.string().nullable(),
        containment: z.enum(["namespace", "marker"]),
        network: z.enum(["none", "hosts", "all"]).nullable(),
        reason: z.string().optional(),
      })
      .optional()
      .describe("The OS sandbox of tools and hooks in this session (docs/security.md)"),
  }),
  user_prompt: event("user_prompt", {
    prompt: z.string().describe("As replaced by earlier hooks"),
    turn: z.number().int().optional(),
    ...promptId,
  }),
  before_model: event("before_model", {
    model: z.string(),
    step: z.number().int(),
    turn: z.number().int().optional(),
    system_prompt: z.string().optional().describe("The system prompt the request carries"),
    available_tools: z.array(z.string()).optional().describe("Names of the tools offered"),
    message_count: z.number().int().optional().describe("Messages of the conversation sent"),
    ...promptId,
  }),
  after_model: event("after_model", {
    model: z.string(),
    step: z.number().int(),
    turn: z.number().int().optional(),
    text: z.string(),
    tool_calls: z.array(ToolCallSchema),
    usage: UsageSchema,
    finish_reason: z.string(),
    duration_ms: z.number(),
    ...promptId,
  }),
  before_tool: event("before_tool", toolFields),
  permission_request: event("permission_request", {
    ...toolFields,
    reason: z
      .string()
      .describe("Why the user would be asked: the ask rule, the hook that asked, or the mode"),
    permission_suggestions: z
      .array(z.looseObject({ type: z.string() }))
      .optional()
      .describe(
        'Claude Code\'s shape: [{type: "addRules", rules: [{toolName, ruleContent}], behavior: "allow", destination}]',
      ),
  }),
  after_tool: event("after_tool", {
    ...toolFields,
    tool_response: z
      .unknown()
      .describe("Bash: {stdout, stderr, exit_code, interrupted}; other tools: what they returned"),
    tool_output: z.string().optional().describe("The text the model will see"),
    duration_ms: z.number(),
  }),
  after_tool_failure: event("after_tool_failure", {
    ...toolFields,
    error: z.string(),
    is_interrupt: z.boolean(),
    is_blocked: z.boolean().optional().describe("True when a hook blocked the call"),
    duration_ms: z.number().optional(),
  }),
  before_stop: event("before_stop", {
    stop_hook_active: z.boolean().describe("True when this turn's previous stop was blocked"),
    last_assistant_message: z.string(),
    stop_reason: z
      .enum(["end_turn", "tool_rejected", "max_steps"])
      .optional()
      .describe("end_turn: no tool calls; tool_rejected: after refused tool calls; max_steps"),
    step: z.number().int().optional(),
    turn: z.number().int().optional(),
    ...promptId,
  }),
  after_agent: event("after_agent", {
    turn: z.number().int(),
    stop_reason: z.string(),
    last_assistant_message: z.string(),
    usage: UsageSchema.optional(),
    message: z.string().optional(),
    ...promptId,
  }),
  subagent_start: event("subagent_start", {
    ...subagent,
    task_description: z.string().describe("The Task call's description"),
    prompt: z.string().optional().describe("The subagent's task, as the Task call gave it"),
    subagent_name: z.string().optional().describe("The Agent Hooks spec's name of agent_type"),
    subagent_type: z.string().optional().describe("The Agent Hooks spec's name of agent_type"),
    tool_use_id: z.string().optional().describe("The Task call that starts it"),
    depth: z.number().int().optional().describe("1 for a subagent of the session's agent"),
  }),
  subagent_stop: event("subagent_stop", {
    ...subagent,
    stop_hook_active: z.boolean().describe("True when this subagent's previous stop was blocked"),
    last_assistant_message: z.string(),
    agent_transcript_path: z.string().describe("The subagent's own JSONL transcript"),
    subagent_name: z.string().optional(),
    subagent_type: z.string().optional(),
    step: z.number().int().optional(),
    turn: z.number().int().optional(),
  }),
  pre_compact: event("pre_compact", {
    trigger: z
      .enum(["manual", "auto"])
      .describe("manual: /compact; auto: the context is nearly full"),
    custom_instructions: z.string().describe("What /compact was given (empty when nothing)"),
    tokens_before: z.number().int().describe("The conversation's tokens, as last measured"),
    message_count: z.number().int().optional(),
  }),
  post_compact: event("post_compact", {
    trigger: z.enum(["manual", "auto"]),
    summary: z.string().describe("The summary that replaced the older conversation"),
    tokens_before: z.number().int(),
    tokens_after: z
      .number()
      .int()
      .describe("Estimated: the server measures it with the next request"),
    messages_before: z.number().int().optional(),
    messages_after: z.number().int().optional(),
    usage: UsageSchema.optional().describe("What the summary request cost"),
    duration_ms: z.number().optional(),
  }),
  notification: event("notification", {
    message: z.string(),
    notification_type: z.string(),
  }),
  message_received: event("message_received", {
    message_id: z.string(),
    from: z.string().describe("The sender's agent name"),
    to: z.string().describe("This agent's name"),
    content: z.string().describe("The message as sent (at most 5,000 characters)"),
    broadcast: z.boolean().describe("Sent to every running agent (@relay:*)"),
    sent_at: z.string().describe("ISO 8601, the sender's clock"),
    text: z.string().describe("What the model gets (as replaced by earlier hooks)"),
    agent_name: z.string().describe("This agent's name"),
    turn: z.number().int().optional(),
  }),
  message_sent: event("message_sent", {
    from: z.string().describe("This agent's name"),
    to: z.string().describe("The recipient's name, or * for every running agent"),
    content: z.string(),
    broadcast: z.boolean(),
    delivered_to: z.array(z.string()).describe("Recipients running: on their way"),
    kept_for: z.array(z.string()).describe("Recipients not running: kept for them"),
    agent_name: z.string().describe("This agent's name"),
  }),
  session_end: event("session_end", {
    reason: z.enum(["completed", "aborted", "error", "hook_stop", "user_exit"]),
    total_steps: z.number().int().optional().describe("Model requests of the session"),
    total_tool_calls: z.number().int().optional(),
    usage: UsageSchema.optional().describe("Tokens of the whole session"),
    duration_ms: z.number().optional(),
  }),
  output: event("output", {
    text: z.string().describe("The complete assistant message of one model step"),
    step: z.number().int(),
    turn: z.number().int(),
    ...promptId,
  }),
  pattern: event("pattern", {
    namespace: z.string().describe("`deploy` in `@deploy:staging Release v1.2.3`"),
    target: z.string().describe("`staging` in `@deploy:staging Release v1.2.3`"),
    message: z.string().describe("`Release v1.2.3`: the rest of the line (may be empty)"),
    line: z.number().int().describe("1-based line of the assistant message"),
    step: z.number().int(),
    turn: z.number().int(),
    ...promptId,
  }),
  idle: event("idle", {
    idle_seconds: z
      .number()
      .int()
      .describe("Seconds since the agent's last output (or since the session started)"),
  }),
} as const satisfies Record<HookEventName, z.ZodType>;

/** Any event's payload, discriminated on `event`. */
export const HookPayloadSchema = z.discriminatedUnion(
  "event",
  HOOK_EVENTS.map((name) => PAYLOAD_SCHEMAS[name]) as unknown as [
    (typeof PAYLOAD_SCHEMAS)[HookEventName],
    ...(typeof PAYLOAD_SCHEMAS)[HookEventName][],
  ],
);

export type HookPayloads = { [E in HookEventName]: z.output<(typeof PAYLOAD_SCHEMAS)[E]> };
export type HookPayload<E extends HookEventName = HookEventName> = HookPayloads[E];
