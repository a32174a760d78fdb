/**
 * What a consumer may answer to an event `Agent.run()` yields (events.ts):
 * the verdict passed to `next(verdict)`. A gate reads it and acts on it
 * (gate-flow.ts first, for an interrupt or a stop); any other event may get
 * context only. A consumer that passes nothing gets "continue".
 */

import type { FollowUpCall, RequestChanges } from "./event-data.js";

interface WithContext {
  /** Extra text for the model, delivered with the next model request. */
  context?: string[];
}

/** Go on, with what the gate lets the consumer replace (`Changes`). */
type ContinueVerdict<Changes extends object = object> = { action: "continue" } & Changes &
  WithContext;
type BlockVerdict = {
  action: "block";
  reason: string;
  /** tool_call_start: the tool result's text, when not "Blocked by a hook: <reason>". */
  modelText?: string;
} & WithContext;
/**
 * stop_request's block: with `clearContext` (Gemini CLI's AfterAgent), the
 * conversation is cleared and the reason is the new prompt.
 */
type ClearingBlockVerdict = BlockVerdict & { clearContext?: true };
/**
 * before_tool in a headless run (Claude Code's `defer`): the call does not
 * run now; the run stops "deferred" and `--resume` asks the hooks again.
 */
type DeferVerdict = { action: "defer"; reason: string } & WithContext;
/**
 * session_end: one more turn with `prompt` before the session really ends
 * (agent-relay's `onSessionEnd` inject, answered within its budget): the
 * turn is cut after `withinMs`; the end reason stays the one said.
 */
export interface LastTurn {
  prompt: string;
  withinMs: number;
}
type RetryVerdict = { action: "retry"; afterMs: number } & WithContext;
/** An answer given in place of the model's (Gemini's synthetic `llm_response`). */
export interface SyntheticResponse {
  text: string;
}
export type StopVerdict = { action: "stop"; reason: string };
/** permission_request: run the tool; `input` replaces its input (checked against its schema). */
type AllowVerdict = { action: "allow"; input?: unknown } & WithContext;

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
interface GateVerdicts {
  /** block: refuse to start the session. */
  session_start: ContinueVerdict | BlockVerdict | StopVerdict;
  /** block: drop the prompt; `prompt` replaces it. */
  user_prompt: ContinueVerdict<{ prompt?: string }> | BlockVerdict | StopVerdict;
  /**
   * block: end the turn; retry: send it again after `afterMs` (bounded by
   * `maxHookRetries`); `prompt` replaces the turn's prompt in the
   * conversation; `request` changes this one request; `response` answers in
   * place of the model (no request is sent).
   */
  model_request:
    | ContinueVerdict<{ prompt?: string; request?: RequestChanges; response?: SyntheticResponse }>
    | BlockVerdict
    | RetryVerdict
    | StopVerdict;
  /**
   * block: end the turn; `text` replaces the response's text (what the
   * conversation keeps); `dropToolCalls` (ids) are removed before they run.
   */
  model_response:
    | ContinueVerdict<{ text?: string; dropToolCalls?: string[] }>
    | BlockVerdict
    | StopVerdict;
  /**
   * block: the tool does not run, the reason is its result; `input` replaces
   * the tool input (the agent checks it against the tool's schema; one the hooks
   * already checked is not parsed again, see tools/validated-input.ts).
   */
  tool_call_start:
    | ContinueVerdict<{ input?: unknown; permission?: PermissionHintVerdict }>
    | BlockVerdict
    | DeferVerdict
    | StopVerdict;
  /**
   * allow: the tool runs; block: it does not, the reason (or `modelText`) is
   * its result; anything else (no verdict, continue) is a denial: nobody allowed it.
   */
  permission_request: AllowVerdict | ContinueVerdict | BlockVerdict | StopVerdict;
  /**
   * block: the reason goes beside the result; `output` replaces the text the
   * model sees; `followUp` runs one more call (every gate), whose result
   * replaces this one's.
   */
  tool_call_end:
    | ContinueVerdict<{ output?: string; followUp?: FollowUpCall }>
    | BlockVerdict
    | StopVerdict;
  /** block: end the turn after the step's tool calls (no further model request). */
  tool_batch_end: ContinueVerdict | BlockVerdict | StopVerdict;
  /** retry: the model is told it may try the denied call again. */
  permission_denied: ContinueVerdict | RetryVerdict | StopVerdict;
  /** block: the reason becomes a user message and the agent goes on (`ClearingBlockVerdict`). */
  stop_request: ContinueVerdict | ClearingBlockVerdict | StopVerdict;
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
  /** `lastTurn`: one more turn before the session ends (see `LastTurn`). */
  session_end: ContinueVerdict<{ lastTurn?: LastTurn }>;
}

type GateEventType = keyof GateVerdicts;

/** The verdict an event of type `T` (an `AgentEventType`) can get. */
export type VerdictFor<T extends string> = T extends GateEventType
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
      request?: RequestChanges;
      response?: SyntheticResponse;
      text?: string;
      dropToolCalls?: string[];
      followUp?: FollowUpCall;
      lastTurn?: LastTurn;
    }>
  | AllowVerdict
  | ClearingBlockVerdict
  | DeferVerdict
  | RetryVerdict
  | StopVerdict;
