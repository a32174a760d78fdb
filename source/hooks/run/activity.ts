import type { AgentEvent } from "../../agent/events.js";
import type { SubagentMark } from "../../agent/subagent-events.js";
import type { ProtectedHit } from "../../permissions/protected.js";
import type { HookEventName, HookScope, HookSourceKind } from "../contract/definition.js";

/** What the interceptor adds to the stream so consumers can show hooks at work. */
export interface HookRef {
  id: string;
  name: string;
  scope: HookScope;
  sourceKind: HookSourceKind;
}

export type HookOutcome =
  | "continue"
  | "block"
  | "modify"
  | "ask"
  | "allow"
  | "retry"
  | "skip"
  | "defer"
  | "stop"
  | "failed"
  | "timeout"
  | "aborted";

/** Hook activity of an event raised inside a subagent carries the subagent's mark (`SubagentMark`). */
export type HookActivityEvent = (
  | {
      type: "hook_start";
      hook: HookRef;
      event: HookEventName;
      startedAt: number;
      /** The hook's `statusMessage` (Claude Code's field): what the REPL shows while it runs. */
      statusMessage?: string;
    }
  | {
      type: "hook_end";
      hook: HookRef;
      event: HookEventName;
      outcome: HookOutcome;
      /** Reason or error text, for display. */
      detail?: string;
      /** Text a hook asked to show the user (`message` / `systemMessage`). */
      message?: string;
      durationMs: number;
    }
  /** Failures, timeouts, broken definitions, caps reached: always shown, never lost. */
  | { type: "hook_warning"; hook?: HookRef; message: string }
) &
  SubagentMark;

export type InterceptedEvent = AgentEvent | HookActivityEvent;

/**
 * The user is asked (one prompt for both): a tool call needs permission
 * (`event` permission_request: a rule, the mode or a before_tool hook's `ask`
 * wants the user's yes), or a hook of another event answered `ask` (`hook`
 * set). The consumer decides; headless runs deny unless `--yes`.
 */
export interface AskRequest {
  /** The hook whose `ask` answer this is, on events other than permission_request. */
  hook?: HookRef;
  event: HookEventName;
  reason: string;
  toolName?: string;
  toolInput?: unknown;
  /** permission_request: a rule that would allow such calls (`Bash(npm test:*)`). */
  suggestion?: string;
  /** permission_request for a write to a protected path: only the person may answer, for this exact write. */
  protected?: ProtectedHit;
}

/**
 * The person's answer: yes (`true`) or no; a no may carry what the person
 * wants the model told (the REPL's "no, and tell the model why").
 */
export type UserAnswer = boolean | { allowed: false; because: string };

export type AskUser = (request: AskRequest, signal: AbortSignal) => Promise<UserAnswer>;

/** What the person said to tell the model with their no, if anything. */
export function answerBecause(answer: UserAnswer): string | undefined {
  return typeof answer === "object" && answer.because.trim() !== "" ? answer.because : undefined;
}

/** A hook as activity events name it. */
export function hookRef(hook: {
  id: string;
  name: string;
  scope: HookScope;
  sourceKind: HookSourceKind;
}): HookRef {
  return { id: hook.id, name: hook.name, scope: hook.scope, sourceKind: hook.sourceKind };
}

/** A hook's `hook_start`, with its `statusMessage` when it has one. */
export function hookStart(
  hook: Parameters<typeof hookRef>[0] & { statusMessage?: string },
  event: HookEventName,
  startedAt: number,
): HookActivityEvent {
  return {
    type: "hook_start",
    hook: hookRef(hook),
    event,
    startedAt,
    ...(hook.statusMessage === undefined ? {} : { statusMessage: hook.statusMessage }),
  };
}

/** A warning about one hook. */
export function hookWarning(
  hook: Parameters<typeof hookRef>[0],
  message: string,
): HookActivityEvent {
  return { type: "hook_warning", hook: hookRef(hook), message };
}

/** A hook's `hook_end`. */
export function hookEnd(
  hook: Parameters<typeof hookRef>[0],
  event: HookEventName,
  outcome: HookOutcome,
  durationMs: number,
  detail: string | undefined,
  message: string | undefined,
): HookActivityEvent {
  return {
    type: "hook_end",
    hook: hookRef(hook),
    event,
    outcome,
    durationMs,
    ...(detail === undefined ? {} : { detail }),
    ...(message === undefined ? {} : { message }),
  };
}

/** What `hook_end` says a run came to: its answer's action, or how it failed. */
export function outcomeOf(
  action: HookOutcome,
  run: { aborted: boolean; timedOut: boolean },
): HookOutcome {
  if (action !== "failed") return action;
  if (run.aborted) return "aborted";
  if (run.timedOut) return "timeout";
  return "failed";
}
