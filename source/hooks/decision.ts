/**
 * The one decision type every hook answer is normalized to, whatever the
 * dialect (acai JSON, Claude Code, Agent Hooks) or the exit code that carried it.
 */

export interface DecisionCommon {
  /** Extra text for the model. */
  context?: string;
  /** Text shown to the user. */
  message?: string;
  /** Note for the audit log. */
  log?: string;
  /** Why: to the model when blocking a tool, to the user otherwise. */
  reason?: string;
}

export type Decision = DecisionCommon &
  (
    | { action: "continue" }
    | { action: "block" }
    | {
        action: "modify";
        /** Replaces the whole tool input. */
        input?: unknown;
        /** RFC 7386 merge patch onto the tool input (applied after `input`). */
        inputPatch?: unknown;
        /** Replacement user prompt. */
        prompt?: string;
        /** Replacement tool output. */
        output?: string;
      }
    | { action: "ask" }
    | { action: "retry"; retryAfterMs: number }
    | { action: "skip" }
    | { action: "stop" }
    | { action: "failed"; error: string }
  );

export type DecisionAction = Decision["action"];

export function failed(error: string, extra: DecisionCommon = {}): Decision {
  return { ...extra, action: "failed", error };
}

/**
 * `failure: "open"` → continue (the caller warns); `failure: "closed"` → a block
 * whose reason names the hook and what went wrong. Other decisions pass through.
 */
export function applyFailurePolicy(
  hook: { name: string; failure: "open" | "closed" },
  decision: Decision,
): Decision {
  if (decision.action !== "failed") return decision;
  if (hook.failure === "open") return { action: "continue" };
  return {
    action: "block",
    reason: `hook "${hook.name}" failed (${decision.error}); its failure policy is "closed", so this is blocked`,
  };
}
