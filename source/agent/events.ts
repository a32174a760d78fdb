/**
 * Everything `Agent.run()` yields. Some events are *gates*: after yielding one,
 * the agent reads the verdict the consumer passes to `next(verdict)` and acts
 * on it (verdicts.ts). A consumer that passes nothing gets "continue".
 */
import type { ModelMessage } from "ai";
import type { ProtectedHit } from "../permissions/protected.js";
import type {
  IncomingMessage,
  InstructionFile,
  OutgoingMessage,
  ProviderErrorKind,
  SentMessage,
  SessionArgs,
  SessionEndReason,
  SessionSandboxInfo,
  SessionSource,
  SessionTotals,
  StopReason,
  StopRequestReason,
  ToolCallSummary,
  Usage,
} from "./event-data.js";
import type { Verdict, VerdictFor } from "./verdicts.js";

/**
 * Where in the run an event happened: the fields its variants share. `turn`
 * counts the session's turns from 1; `promptId` is one id per user prompt,
 * the same on every event of its turn that hooks see (hooks' `prompt_id`).
 */
interface TurnRef {
  turn: number;
  promptId?: string;
}

/** An event of one step (one model request and what follows from it), counted from 1 in its turn. */
export interface StepRef extends TurnRef {
  step: number;
}

/** An event of one tool call of a step: the model's id for the call. */
export interface ToolCallRef extends StepRef {
  toolCallId: string;
}

/** Gate: block = refuse to start; context. */
interface SessionStart {
  type: "session_start";
  sessionId: string;
  model: string;
  cwd: string;
  transcriptPath: string;
  source: SessionSource;
  /** Who serves the model: `openai`, `anthropic`, `replay`, … (A3S `model_provider`). */
  modelProvider?: string;
  /** The session's system prompt (A3S SessionStart `system_prompt`). */
  systemPrompt?: string;
  /** The OS sandbox in force (AgentOptions.sandbox). */
  sandbox?: SessionSandboxInfo;
  /** How the session was started (AgentOptions.sessionArgs). */
  args?: SessionArgs;
}

/**
 * Not a gate: an instruction file is in the session's system prompt (Claude
 * Code's InstructionsLoaded), raised once the session started.
 */
interface InstructionsLoaded {
  type: "instructions_loaded";
  file: InstructionFile;
  /** session_start: the session began; compact: it goes on after a compaction. */
  loadReason: "session_start" | "compact";
}

/** Gate: block, replace prompt, context. */
interface UserPrompt extends TurnRef {
  type: "user_prompt";
  prompt: string;
}

interface TurnStart extends TurnRef {
  type: "turn_start";
  prompt: string;
}

interface StepStart extends StepRef {
  type: "step_start";
}

/** Gate: block, retry, context. */
interface ModelRequest extends StepRef {
  type: "model_request";
  model: string;
  /** Who serves the model (A3S GenerateStart `model_provider`). */
  modelProvider?: string;
  /** The turn's user prompt, as it stands in the conversation (A3S GenerateStart `prompt`). */
  prompt?: string;
  /** The system prompt this request carries (A3S GenerateStart). */
  systemPrompt?: string;
  /** Names of the tools the model is offered. */
  availableTools?: string[];
  /** Messages of the conversation sent (hook context queued for it included). */
  messageCount?: number;
  /**
   * The conversation as it stands (read only when a hook's payload needs it:
   * a function, so the transcript and the JSON output do not repeat the
   * whole conversation at every step).
   */
  messages?: () => readonly ModelMessage[];
}

interface TextDelta extends StepRef {
  type: "text_delta";
  text: string;
}

/** Gate: block = end the turn. */
interface ModelResponse extends StepRef {
  type: "model_response";
  model: string;
  /** The turn's user prompt the model answered (A3S GenerateEnd `prompt`). */
  prompt?: string;
  text: string;
  toolCalls: ToolCallSummary[];
  usage: Usage;
  finishReason: string;
  durationMs: number;
}

/** Gate: block (reason is the tool result), modify input, ask resolved by the interceptor. */
interface ToolCallStart extends ToolCallRef {
  type: "tool_call_start";
  toolName: string;
  input: unknown;
  /** Names of the session's latest tool calls before this one, oldest first (A3S `recent_tools`). */
  recentTools?: string[];
}

/** Gate: allow (possibly with a new input) or block = deny; no verdict denies. */
interface PermissionRequest extends ToolCallRef {
  type: "permission_request";
  toolName: string;
  input: unknown;
  /** Why the user is asked: the ask rule, the hook that asked, or the mode. */
  reason: string;
  /** The session's permission mode. */
  permissionMode: string;
  /** A rule that would allow this call (`Bash(npm test:*)`), for messages and hooks. */
  suggestion: string;
  /**
   * A write to a protected path (permissions/protected.ts): only the user's
   * own yes in the REPL approves it — not `--yes`, not a hook's allow — and
   * the approved call runs with this exact input.
   */
  protected?: ProtectedHit;
}

/** Gate: replace output, block (reason added beside the result), context. */
interface ToolCallEnd extends ToolCallRef {
  type: "tool_call_end";
  toolName: string;
  input: unknown;
  /** Text the model will see. */
  output: string;
  /** Structured result (hooks' `tool_response`). */
  response: unknown;
  durationMs: number;
}

/**
 * Gate: the permission check denied this call (a deny rule, the mode, a
 * permission_request hook, or nobody to answer); retry = the model is told it
 * may try the call again (Claude Code's PermissionDenied `retry`).
 */
interface PermissionDenied extends ToolCallRef {
  type: "permission_denied";
  toolName: string;
  input: unknown;
  /** Why it was denied, as the user reads it. */
  reason: string;
}

/** One call of a step that is done, as `tool_batch_end` reports it. */
export interface BatchCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** The text the model gets for the call (its output, or why it failed or did not run). */
  result: string;
  /** The call failed, was refused or did not run. */
  isError: boolean;
}

/** Gate: every tool call of a step is done, before the next model request; block = end the turn. */
interface ToolBatchEnd extends StepRef {
  type: "tool_batch_end";
  calls: BatchCall[];
}

/** Not a gate: the turn ended because the model request failed (Claude Code's StopFailure). */
interface TurnFailed extends TurnRef {
  type: "turn_failed";
  /** What kind of failure (provider-error.ts `providerErrorKind`). */
  error: ProviderErrorKind;
  /** The user's one-line description of it. */
  message: string;
  /** The text of the last step that answered in this turn ("" when none). */
  lastAssistantMessage: string;
}

/** Not a gate: a before_tool hook deferred this call (headless); it stays pending for `--resume`. */
interface ToolCallDeferred extends ToolCallRef {
  type: "tool_call_deferred";
  toolName: string;
  input: unknown;
  reason: string;
}

interface ToolCallError extends ToolCallRef {
  type: "tool_call_error";
  toolName: string;
  input: unknown;
  error: string;
  /** Aborted or killed while running. */
  interrupted: boolean;
  /** Never ran because a gate blocked it. */
  blocked: boolean;
  /** Blocked by the permission check: a rule, the mode, the user, or a permission_request hook. */
  denied?: boolean;
  /** A tool that ran and failed: its structured result (Bash: stdout, stderr, exit_code). */
  response?: unknown;
  durationMs: number;
}

/** Gate: block = reason becomes a user message and the agent goes on (not at max_steps). */
interface StopRequest extends StepRef {
  type: "stop_request";
  lastAssistantMessage: string;
  /** True when the previous stop request of this turn was blocked. */
  stopHookActive: boolean;
  consecutiveBlocks: number;
  /** Why the turn would end (absent: `end_turn`). */
  stopReason?: StopRequestReason;
}

interface StepEnd extends StepRef {
  type: "step_end";
}

interface TurnEnd extends TurnRef {
  type: "turn_end";
  stopReason: StopReason;
  /** Final assistant text of the turn. */
  text: string;
  usage: Usage;
  /** Human-readable explanation for blocked/limit/error stops. */
  message?: string;
  /** Model steps the turn started (its last `step`); 0 when the prompt was blocked. */
  steps?: number;
}

/** Observe: context. */
interface Output extends StepRef {
  type: "output";
  /** The complete assistant message of the step (not empty). */
  text: string;
}

/** Gate: context = the answer to the agent; skip. */
interface Pattern extends StepRef {
  type: "pattern";
  /** `@namespace:target message`, a line of the step's message (source/patterns/scan.ts). */
  namespace: string;
  target: string;
  message: string;
  /** 1-based line of the message it was read from. */
  line: number;
}

/** Raised beside the loop by the hooks layer, not by the agent: context. */
interface Idle {
  type: "idle";
  /** Whole seconds since the agent's last output (or since the session started). */
  idleSeconds: number;
}

/** Gate: block = not now; context = instructions for the summary. */
interface CompactStart {
  type: "compact_start";
  /** `manual`: /compact; `auto`: the context neared the window, or the server said it was full. */
  trigger: "manual" | "auto";
  /** What /compact was given ("" when nothing). */
  customInstructions: string;
  /** The conversation's tokens: as the server last measured them, else estimated. */
  tokensBefore: number;
  messages: number;
}

interface CompactEnd {
  type: "compact_end";
  trigger: "manual" | "auto";
  summary: string;
  tokensBefore: number;
  /** Estimated (the server measures it with the next request). */
  tokensAfter: number;
  messagesBefore: number;
  messagesAfter: number;
  /** What the summary request cost. */
  usage: Usage;
  durationMs: number;
}

/** Gate: block = suppress; `prompt` or context replaces its text. */
interface MessageReceived {
  type: "message_received";
  /** The turn the message goes to (the next one when it arrives between turns). */
  turn: number;
  message: IncomingMessage;
}

interface SessionEnd {
  type: "session_end";
  reason: SessionEndReason;
  /** What the session did: model requests, tool calls, tokens, time (A3S, Agent Hooks). */
  totals?: SessionTotals;
}

export type AgentEvent = (
  | SessionStart
  | InstructionsLoaded
  | UserPrompt
  | TurnStart
  | StepStart
  | ModelRequest
  | TextDelta
  | ModelResponse
  | ToolCallStart
  | PermissionRequest
  | ToolCallEnd
  | ToolCallError
  | ToolCallDeferred
  | PermissionDenied
  | ToolBatchEnd
  | TurnFailed
  | StopRequest
  | StepEnd
  | TurnEnd
  | Output
  | Pattern
  | Idle
  | CompactStart
  | CompactEnd
  | MessageReceived
  | { type: "before_message_send"; message: OutgoingMessage } /* the session's gate before a send */
  | { type: "message_sent"; message: SentMessage } /* raised beside the loop by the session */
  | { type: "notification"; message: string; notificationType: string }
  | { type: "warning"; message: string; source?: string }
  | { type: "error"; message: string; turn?: number }
  | SessionEnd
  | SubagentEvent
) &
  SubagentMark;

/**
 * Set on every event raised inside a subagent (the `Task` tool): the
 * subagent's id and type (hooks' `agent_id`, `agent_type`). Events of the
 * session's own agent have neither.
 */
export interface SubagentMark {
  agentId?: string;
  agentType?: string;
}

/** A subagent's lifecycle (source/subagents/): raised by the Task tool around a nested run. */
type SubagentEvent =
  | {
      type: "subagent_start";
      agentId: string;
      agentType: string;
      /** The Task call's `description` (hooks' `task_description`). */
      description: string;
      prompt: string;
      /** The parent's Task call. */
      toolCallId: string;
      /** 1 for a subagent of the session's agent, 2 for one of that subagent, … */
      depth: number;
    } /* gate: block = the Task call fails with the reason; context reaches the subagent */
  | {
      type: "subagent_stop";
      agentId: string;
      agentType: string;
      turn: number;
      step: number;
      lastAssistantMessage: string;
      stopHookActive: boolean;
      consecutiveBlocks: number;
      /** The subagent's own JSONL transcript. */
      agentTranscriptPath: string;
    } /* gate: block = the reason becomes the subagent's next user message (as stop_request) */
  | {
      type: "subagent_end";
      agentId: string;
      agentType: string;
      toolCallId: string;
      stopReason: StopReason;
      /** The subagent's final text: the Task call's result. */
      text: string;
      usage: Usage;
      message?: string;
    };

export type AgentEventType = AgentEvent["type"];

/** How a phase raises an event and reads the verdict it got, as that event's own (`SessionContext.emit`). */
export type Emit = <E extends AgentEvent>(
  event: E,
) => AsyncGenerator<AgentEvent, VerdictFor<E["type"]> | undefined, Verdict | undefined>;

/** Whether an event was raised inside a subagent (or is a subagent's lifecycle event). */
export function fromSubagent(event: object): event is SubagentMark & { agentId: string } {
  return "agentId" in event && typeof event.agentId === "string";
}
