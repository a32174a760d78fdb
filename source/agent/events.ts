/**
 * Everything `Agent.run()` yields. Some events are *gates*: after yielding one,
 * the agent reads the verdict the consumer passes to `next(verdict)` and acts
 * on it (verdicts.ts). A consumer that passes nothing gets "continue".
 */
import type { ModelMessage } from "ai";
import type {
  ConfigChange,
  FileChange,
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
import type { StepRef, TurnRef } from "./event-refs.js";
import type { SubagentEvent, SubagentMark } from "./subagent-events.js";
import type { ToolCallEvent } from "./tool-call-events.js";
import type { Verdict, VerdictFor } from "./verdicts.js";

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

/** Gate: block = reason becomes a user message and the agent goes on (not at max_steps). */
interface StopRequest extends StepRef {
  type: "stop_request";
  lastAssistantMessage: string;
  /** The turn's user prompt as it stands in the conversation (Gemini AfterAgent's `prompt`). */
  prompt?: string;
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
  | ToolCallEvent
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
  | {
      type: "config_change";
      change: ConfigChange;
    } /* the session's gate when a settings file changed */
  | {
      type: "file_changed";
      change: FileChange;
    } /* raised beside the loop by the session's watcher */
  | { type: "notification"; message: string; notificationType: string }
  | { type: "warning"; message: string; source?: string }
  | { type: "error"; message: string; turn?: number }
  | SessionEnd
  | SubagentEvent
) &
  SubagentMark;

export type AgentEventType = AgentEvent["type"];

/** How a phase raises an event and reads the verdict it got, as that event's own (`SessionContext.emit`). */
export type Emit = <E extends AgentEvent>(
  event: E,
) => AsyncGenerator<AgentEvent, VerdictFor<E["type"]> | undefined, Verdict | undefined>;
