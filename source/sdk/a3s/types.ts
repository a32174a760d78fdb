/**
 * A3S's hook types with A3S's names (its "Hooks System": event payloads,
 * `HookConfig`, `HookEvent`, `HookHandler`), for plugins and programs
 * written against A3S's engine. Types only.
 */

/** A3S's six event types (snake_case spellings are accepted wherever one is read). */
export const HookEventType = {
  PreToolUse: "PreToolUse",
  PostToolUse: "PostToolUse",
  GenerateStart: "GenerateStart",
  GenerateEnd: "GenerateEnd",
  SessionStart: "SessionStart",
  SessionEnd: "SessionEnd",
} as const;
export type HookEventType = (typeof HookEventType)[keyof typeof HookEventType];

/** A tool's arguments as the model wrote them (any JSON object; `args.command`, `args.file_path`, …). */
// biome-ignore lint/suspicious/noExplicitAny: A3S's examples read arguments without narrowing (`args.file_path.startsWith`)
export type ToolArgs = Record<string, any>;

export interface PreToolUseEvent {
  session_id: string;
  tool: string;
  args: ToolArgs;
  working_directory: string;
  /** The session's latest tool calls before this one, oldest first (at most 10). */
  recent_tools: string[];
}

export interface PostToolUseEvent {
  session_id: string;
  tool: string;
  args: ToolArgs;
  result: {
    success: boolean;
    /** What the model sees (for a failed tool: the error it gets). */
    output: string;
    /** Bash's exit code. */
    exit_code?: number;
    duration_ms: number;
  };
}

export interface ToolCallInfo {
  id: string;
  name: string;
  args: ToolArgs;
}

export interface GenerateStartEvent {
  session_id: string;
  prompt: string;
  system_prompt?: string;
  model_provider: string;
  model_name: string;
  available_tools: string[];
}

export interface GenerateEndEvent {
  session_id: string;
  prompt: string;
  response_text: string;
  tool_calls: ToolCallInfo[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  duration_ms: number;
}

export interface SessionStartEvent {
  session_id: string;
  system_prompt?: string;
  model_provider: string;
  model_name: string;
}

export interface SessionEndEvent {
  session_id: string;
  total_tokens: number;
  total_tool_calls: number;
  duration_ms: number;
}

/**
 * The payload a handler reads. One type with every event's fields, as A3S's
 * examples read them (`event.payload.args.file_path`, `event.payload.usage`)
 * without narrowing on `event_type`; each event carries its own fields only.
 */
export type HookEventPayload = PreToolUseEvent &
  PostToolUseEvent &
  GenerateStartEvent &
  GenerateEndEvent &
  SessionStartEvent &
  SessionEndEvent;

export interface HookEvent {
  event_type: HookEventType;
  payload: HookEventPayload;
}

export interface HookConfig {
  /** Lower runs first (default 100). */
  priority: number;
  /** The handler's timeout (default 30000). */
  timeout_ms: number;
  /** Fire-and-forget: started, not waited for; counts as Continue (default false). */
  async_execution: boolean;
  /** Retry answers honoured in a row (default: acai's session bound, 3). */
  max_retries: number;
  /** acai's `askAhead` (decision 0012). */
  ask_ahead?: boolean;
}

export type HookAction = "Continue" | "Block" | "Retry" | "Skip";

export interface HookResponse {
  action: HookAction;
  /** For Block. */
  reason?: string;
  /** For Continue: PreToolUse's new `args`, PostToolUse's new `result`, GenerateStart's new `prompt`. */
  modified?: Record<string, unknown>;
  /** For Retry. */
  retry_delay_ms?: number;
}

/** What `fire` returns: the answer that decided, with the modifications of the hooks that ran. */
export type HookResult = HookResponse;

type Answer = HookResponse | Promise<HookResponse>;

/** A handler: an object with `handle(event)` (A3S's shape), or the function itself. */
export type HookHandler = { handle(event: HookEvent): Answer } | ((event: HookEvent) => Answer);
