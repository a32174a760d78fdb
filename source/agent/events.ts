/**
 * Everything `Agent.run()` yields. Some events are *gates*: after yielding one,
 * the agent reads the verdict the consumer passes to `next(verdict)` and acts
 * on it. A consumer that passes nothing gets "continue".
 */
import type { ProtectedHit } from "../permissions/protected.js";

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
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

export type StopReason =
  | "end_turn" // the model finished and no gate kept it going
  | "max_steps" // --max-steps reached
  | "blocked" // a gate blocked the prompt, the model request or the response
  | "stop_hook_limit" // before_stop blocked too many times in a row
  | "hook_stop" // a gate answered stop
  | "aborted"
  | "error";

/** Why a session (re)starts: a new one, one picked up again (`--continue`), after a compaction. */
export type SessionSource = "startup" | "resume" | "compact";

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

export type SessionEndReason = "completed" | "aborted" | "error" | "hook_stop" | "user_exit";

export type AgentEvent = (
  | {
      type: "session_start";
      sessionId: string;
      model: string;
      cwd: string;
      transcriptPath: string;
      source: SessionSource;
      /** Who serves the model: `openai`, `anthropic`, `replay`, … (A3S `model_provider`). */
      modelProvider?: string;
      /** The OS sandbox in force (AgentOptions.sandbox). */
      sandbox?: SessionSandboxInfo;
    } /* gate: block = refuse to start; context */
  | {
      type: "user_prompt";
      turn: number;
      /** One id per user prompt, the same on every event of its turn (hooks' `prompt_id`). */
      promptId?: string;
      prompt: string;
    } /* gate: block, replace prompt, context */
  | { type: "turn_start"; turn: number; prompt: string }
  | { type: "step_start"; turn: number; step: number }
  | {
      type: "model_request";
      turn: number;
      promptId?: string;
      step: number;
      model: string;
      /** The system prompt this request carries (A3S GenerateStart). */
      systemPrompt?: string;
      /** Names of the tools the model is offered. */
      availableTools?: string[];
      /** Messages of the conversation sent (hook context queued for it included). */
      messageCount?: number;
    } /* gate: block, retry, context */
  | { type: "text_delta"; turn: number; step: number; text: string }
  | {
      type: "model_response";
      turn: number;
      promptId?: string;
      step: number;
      model: string;
      text: string;
      toolCalls: ToolCallSummary[];
      usage: Usage;
      finishReason: string;
      durationMs: number;
    } /* gate: block = end the turn */
  | {
      type: "tool_call_start";
      turn: number;
      promptId?: string;
      step: number;
      toolCallId: string;
      toolName: string;
      input: unknown;
    } /* gate: block (reason is the tool result), modify input, ask resolved by the interceptor */
  | {
      type: "permission_request";
      turn: number;
      promptId?: string;
      step: number;
      toolCallId: string;
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
    } /* gate: allow (possibly with a new input) or block = deny; no verdict denies */
  | {
      type: "tool_call_end";
      turn: number;
      promptId?: string;
      step: number;
      toolCallId: string;
      toolName: string;
      input: unknown;
      /** Text the model will see. */
      output: string;
      /** Structured result (hooks' `tool_response`). */
      response: unknown;
      durationMs: number;
    } /* gate: replace output, block (reason added beside the result), context */
  | {
      type: "tool_call_error";
      turn: number;
      promptId?: string;
      step: number;
      toolCallId: string;
      toolName: string;
      input: unknown;
      error: string;
      /** Aborted or killed while running. */
      interrupted: boolean;
      /** Never ran because a gate blocked it. */
      blocked: boolean;
      /** Blocked by the permission check: a rule, the mode, the user, or a permission_request hook. */
      denied?: boolean;
      durationMs: number;
    }
  | {
      type: "stop_request";
      turn: number;
      promptId?: string;
      step: number;
      lastAssistantMessage: string;
      /** True when the previous stop request of this turn was blocked. */
      stopHookActive: boolean;
      consecutiveBlocks: number;
      /** Why the turn would end (absent: `end_turn`). */
      stopReason?: StopRequestReason;
    } /* gate: block = reason becomes a user message and the agent goes on (not at max_steps) */
  | { type: "step_end"; turn: number; step: number }
  | {
      type: "turn_end";
      turn: number;
      promptId?: string;
      stopReason: StopReason;
      /** Final assistant text of the turn. */
      text: string;
      usage: Usage;
      /** Human-readable explanation for blocked/limit/error stops. */
      message?: string;
      /** Model steps the turn started (its last `step`); 0 when the prompt was blocked. */
      steps?: number;
    }
  | {
      type: "output";
      turn: number;
      promptId?: string;
      step: number;
      /** The complete assistant message of the step (not empty). */
      text: string;
    } /* observe: context */
  | {
      type: "pattern";
      turn: number;
      promptId?: string;
      step: number;
      /** `@namespace:target message`, a line of the step's message (source/patterns/scan.ts). */
      namespace: string;
      target: string;
      message: string;
      /** 1-based line of the message it was read from. */
      line: number;
    } /* gate: context = the answer to the agent; skip */
  | {
      type: "idle";
      /** Whole seconds since the agent's last output (or since the session started). */
      idleSeconds: number;
    } /* raised beside the loop by the hooks layer, not by the agent: context */
  | {
      type: "compact_start";
      /** `manual`: /compact; `auto`: the context neared the window, or the server said it was full. */
      trigger: "manual" | "auto";
      /** What /compact was given ("" when nothing). */
      customInstructions: string;
      /** The conversation's tokens: as the server last measured them, else estimated. */
      tokensBefore: number;
      messages: number;
    } /* gate: block = not now; context = instructions for the summary */
  | {
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
  | {
      type: "message_received";
      /** The turn the message goes to (the next one when it arrives between turns). */
      turn: number;
      message: IncomingMessage;
    } /* gate: block = suppress; `prompt` or context replaces its text */
  | { type: "message_sent"; message: SentMessage } /* raised beside the loop by the session */
  | { type: "notification"; message: string; notificationType: string }
  | { type: "warning"; message: string; source?: string }
  | { type: "error"; message: string; turn?: number }
  | {
      type: "session_end";
      reason: SessionEndReason;
      /** What the session did: model requests, tool calls, tokens, time (A3S, Agent Hooks). */
      totals?: SessionTotals;
    }
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
export type SubagentEvent =
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

interface WithContext {
  /** Extra text for the model, delivered with the next model request. */
  context?: string[];
}

/** Go on, with what the gate lets the consumer replace (`Changes`). */
export type ContinueVerdict<Changes extends object = object> = { action: "continue" } & Changes &
  WithContext;
export type BlockVerdict = {
  action: "block";
  reason: string;
  /** tool_call_start: the tool result's text, when not "Blocked by a hook: <reason>". */
  modelText?: string;
} & WithContext;
export type RetryVerdict = { action: "retry"; afterMs: number } & WithContext;
export type StopVerdict = { action: "stop"; reason: string };
/** permission_request: run the tool; `input` replaces its input (checked against its schema). */
export type AllowVerdict = { action: "allow"; input?: unknown } & WithContext;

/**
 * A before_tool consumer's say on the permission (Claude Code's PreToolUse
 * `permissionDecision`): `ask` asks the user even where a rule allows; `allow`
 * spares the question where no deny or ask rule holds.
 */
export interface PermissionHintVerdict {
  behavior: "ask" | "allow";
  reason: string;
  /** Who said it (a hook's name). */
  by: string;
}

/**
 * What a consumer may answer to each gate, and what the agent does with it
 * (pi-mono's BeforeToolCallResult / AfterToolCallResult and codex's per-event
 * outcomes were the models). `ask` and `skip` are resolved before they reach
 * the agent. Any other event may get context only.
 */
export interface GateVerdicts {
  /** block: refuse to start the session. */
  session_start: ContinueVerdict | BlockVerdict | StopVerdict;
  /** block: drop the prompt; `prompt` replaces it. */
  user_prompt: ContinueVerdict<{ prompt?: string }> | BlockVerdict | StopVerdict;
  /** block: end the turn; retry: send it again after `afterMs` (bounded by `maxHookRetries`). */
  model_request: ContinueVerdict | BlockVerdict | RetryVerdict | StopVerdict;
  /** block: end the turn. */
  model_response: ContinueVerdict | BlockVerdict | StopVerdict;
  /**
   * block: the tool does not run, the reason is its result; `input` replaces
   * the tool input (the agent checks it against the tool's schema; one the hooks
   * already checked is not parsed again, see tools/validated-input.ts).
   */
  tool_call_start:
    | ContinueVerdict<{ input?: unknown; permission?: PermissionHintVerdict }>
    | BlockVerdict
    | StopVerdict;
  /**
   * allow: the tool runs; block: it does not, the reason (or `modelText`) is
   * its result; anything else (no verdict, continue) is a denial: nobody allowed it.
   */
  permission_request: AllowVerdict | ContinueVerdict | BlockVerdict | StopVerdict;
  /** block: the reason goes beside the result; `output` replaces the text the model sees. */
  tool_call_end: ContinueVerdict<{ output?: string }> | BlockVerdict | StopVerdict;
  /** block: the reason becomes a user message and the agent goes on. */
  stop_request: ContinueVerdict | BlockVerdict | StopVerdict;
  /** stop: end the session after this turn. */
  turn_end: ContinueVerdict | StopVerdict;
  /** block: do not compact now; context: instructions for the summary. */
  compact_start: ContinueVerdict | BlockVerdict | StopVerdict;
  /** block: the Task call fails with the reason; context reaches the subagent. */
  subagent_start: ContinueVerdict | BlockVerdict | StopVerdict;
  /** block: the reason becomes the subagent's next user message and it goes on. */
  subagent_stop: ContinueVerdict | BlockVerdict | StopVerdict;
  /** context: the answer to the agent (with the next model request; a follow-up step if it had stopped). */
  pattern: ContinueVerdict;
  /** block: drop the message (agent-relay's `suppress`); `prompt`, else context, replaces its text. */
  message_received:
    | ContinueVerdict<{ prompt?: string; suppress?: boolean }>
    | BlockVerdict
    | StopVerdict;
}

export type GateEventType = keyof GateVerdicts;

/** The verdict an event of type `T` can get. */
export type VerdictFor<T extends AgentEventType> = T extends GateEventType
  ? GateVerdicts[T]
  : ContinueVerdict;

/** Any verdict: what `next()` carries (the agent reads it as its event's own, `VerdictFor`). */
export type Verdict =
  | ContinueVerdict<{
      input?: unknown;
      prompt?: string;
      output?: string;
      suppress?: boolean;
      permission?: PermissionHintVerdict;
    }>
  | AllowVerdict
  | BlockVerdict
  | RetryVerdict
  | StopVerdict;

export const CONTINUE: Verdict = Object.freeze({ action: "continue" });

/** Whether an event was raised inside a subagent (or is a subagent's lifecycle event). */
export function fromSubagent(event: object): event is SubagentMark & { agentId: string } {
  return "agentId" in event && typeof event.agentId === "string";
}
