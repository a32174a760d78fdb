/**
 * The values events carry (events.ts): usage, messages between agents, why a
 * turn or a session ends, what a session did, the sandbox in force.
 */

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

/** Sampling settings a before_model hook may set for one request (Gemini's llm_request.config). */
export interface SamplingParams {
  temperature?: number;
  maxOutputTokens?: number;
  topP?: number;
  topK?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  stopSequences?: string[];
  seed?: number;
}

/** One message of a request as hooks see and write it: its text only (Gemini's LLMRequest). */
export interface RequestMessage {
  role: "user" | "assistant";
  content: string;
}

/**
 * What before_model hooks changed in one model request (Gemini's
 * `llm_request`, `toolConfig`): only that request, never the conversation.
 */
export interface RequestChanges {
  /** Sent instead of the conversation (text only). */
  messages?: RequestMessage[];
  /** Sent instead of the system prompt. */
  system?: string;
  params?: SamplingParams;
  /** Only these tools are offered (a call to another is refused). */
  tools?: string[];
  /** auto: the model chooses; required: it must call a tool; none: no tool is offered. */
  toolMode?: "auto" | "required" | "none";
}

/** A tool call a hook asks for after another (Gemini's `tailToolCallRequest`); it passes every gate. */
export interface FollowUpCall {
  toolName: string;
  input: unknown;
  /** The hook that asked. */
  by: string;
}

export interface ToolCallSummary {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** A message from another agent (the relay), as the agent receives it. */
export interface IncomingMessage {
  id: string;
  /** The sender's agent name. */
  from: string;
  /** This agent's name. */
  to: string;
  content: string;
  /** Sent to every running agent (`@relay:*`). */
  broadcast: boolean;
  /** ms since the epoch, the sender's clock. */
  sentAt: number;
  /** What the model gets unless a message_received hook replaces it. */
  text: string;
  /** What the sender attached (agent-relay's `msg.metadata`), for hooks; never shown to the model. */
  metadata?: Record<string, unknown>;
}

/** A message this agent is about to send (before_message_send may rewrite or cancel it). */
export interface OutgoingMessage {
  from: string;
  /** A name, or `*` for every running agent. */
  to: string;
  content: string;
}

/** A message this agent sent (`@relay:NAME`, a hook's sendMessage), and where it went. */
export interface SentMessage {
  from: string;
  /** A name, or `*` for every running agent. */
  to: string;
  content: string;
  /** Recipients running: on their way. */
  delivered: string[];
  /** Recipients not running: kept for them. */
  kept: string[];
}

/** A settings file the session loaded (or would load) changed on disk (Claude Code's ConfigChange). */
export interface ConfigChange {
  /** Claude Code's name for the file's place: `~/.acai` and `~/.claude` are user_settings. */
  source: "user_settings" | "project_settings" | "local_settings";
  /** Absolute path of the file. */
  filePath: string;
}

/** A watched file was added, changed or removed (Claude Code's FileChanged). */
export interface FileChange {
  /** Absolute path of the file. */
  filePath: string;
  event: "add" | "change" | "unlink";
}

export type StopReason =
  | "end_turn" // the model finished and no gate kept it going
  | "max_steps" // --max-steps reached
  | "blocked" // a gate blocked the prompt, the model request or the response
  | "stop_hook_limit" // before_stop blocked too many times in a row
  | "hook_stop" // a gate answered stop
  | "aborted"
  | "error"
  | "deferred"; // a before_tool hook deferred a call (headless): --resume asks it again

/** Why a session (re)starts: a new one, one picked up again (`--continue`), after a compaction. */
export type SessionSource = "startup" | "resume" | "compact" | "clear";

/**
 * Why the model's turn would end, on `stop_request`: it answered without tool
 * calls (`end_turn`), its previous tool calls were all refused and it gave up
 * (`tool_rejected`), or `--max-steps` was reached (`max_steps`).
 */
export type StopRequestReason = "end_turn" | "tool_rejected" | "max_steps";

export interface SessionTotals {
  /** Model requests of the whole session. */
  steps: number;
  toolCalls: number;
  usage: Usage;
  durationMs: number;
}

/** The OS sandbox in force (hooks.md §3: session_start's `sandbox`); the agent only carries it. */
export interface SessionSandboxInfo {
  enabled: boolean;
  /** The policy's name (ACAI_SANDBOX_POLICY), null when unsandboxed. */
  policy: string | null;
  /** How what acai starts is kept from outliving it: a PID namespace, or the environment marker. */
  containment: "namespace" | "marker";
  network: "none" | "hosts" | "all" | null;
  /** Why it is off. */
  reason?: string;
}

/**
 * How the session was started, as the Agent Hooks spec's session_start
 * `args` gives it (seed 003 §5.4): the user interface (`shell`: the REPL,
 * `print`: `acai -p`) and the agent (acai has one: `default`).
 */
export interface SessionArgs {
  ui: "shell" | "print";
  agent: string;
}

/** `clear`: the user's /clear ended it, and a new session follows (Claude Code's reason). */
/** An instruction file in the system prompt (Claude Code's InstructionsLoaded). */
export interface InstructionFile {
  /** Absolute path. */
  path: string;
  /** Whose: the user's (`<ACAI_HOME>/AGENTS.md`) or the project's (AGENTS.md or CLAUDE.md). */
  memoryType: "User" | "Project";
}

/**
 * What kind of failure ended a turn's model request (Claude Code's StopFailure
 * `error`): rate_limit 429; authentication_failed 401/403; billing_error 402;
 * invalid_request other 4xx; server_error 5xx or no answer; unknown otherwise.
 */
export type ProviderErrorKind =
  | "rate_limit"
  | "authentication_failed"
  | "billing_error"
  | "invalid_request"
  | "server_error"
  | "unknown";

export type SessionEndReason =
  | "completed"
  | "aborted"
  | "error"
  | "hook_stop"
  | "user_exit"
  | "clear"
  /** A before_tool hook deferred a tool call (headless); `--resume` picks the call up. */
  | "deferred";
