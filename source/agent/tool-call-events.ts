/**
 * The events of one tool call (agent/tool-calls.ts, four phases): its gates
 * before and after it runs, the permission check's, and how it ended; and
 * the step's batch of calls once all are done. `AgentEvent` (events.ts)
 * includes them.
 */
import type { ProtectedHit } from "../permissions/protected.js";
import type { StepRef, ToolCallRef } from "./event-refs.js";

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

export type ToolCallEvent =
  | ToolCallStart
  | PermissionRequest
  | ToolCallEnd
  | ToolCallError
  | ToolCallDeferred
  | PermissionDenied
  | ToolBatchEnd;
