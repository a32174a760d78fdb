/**
 * The one decision type every hook answer is normalized to, whatever the
 * dialect (acai JSON, Claude Code, Agent Hooks) or the exit code that carried it.
 */
import type { RequestChanges } from "../../agent/event-data.js";

/** What a modify may change around the model (before_model, after_model, after_tool). */
export interface ModelControl {
  /** before_model: this one request's messages, system prompt, settings, tools offered. */
  request?: RequestChanges;
  /** before_model: an answer in place of the model; after_model: the response's new text. */
  response?: { text: string };
  /** after_model: tool calls (ids; true: every one) removed before they run. */
  dropToolCalls?: string[] | true;
  /** after_tool: one more tool call, through every gate; its result replaces this one's. */
  followUp?: { toolName: string; input: unknown };
}

export interface DecisionCommon {
  /** Extra text for the model. */
  context?: string;
  /** Text shown to the user. */
  message?: string;
  /** Note for the audit log. */
  log?: string;
  /** Why: to the model when blocking a tool, to the user otherwise. */
  reason?: string;
  /**
   * A cap on this answer's context below the session's (agent-relay's
   * `inject`: 2,000 characters); the session drops it when
   * `capabilities.unlimitedInjection` is on.
   */
  contextCap?: number;
  /** agent-relay's `suppress`: the event's default delivery is dropped (message_received). */
  suppress?: true;
  /** agent-relay's `sendMessage` (validated: one, content ≤ 5,000 characters), for messaging. */
  sendMessage?: RelayMessage;
  /**
   * Claude Code's `watchPaths` (session_start, file_changed answers): the
   * paths the session watches for file_changed hooks, replacing those an
   * earlier answer set (session/file-watch.ts bounds and checks them).
   */
  watchPaths?: string[];
}

/** A message a hook asks acai to send to another agent (`*`: every agent). */
export interface RelayMessage {
  to: string;
  content: string;
  /** Handed to the receiver's hooks (`msg.metadata`); bounded (relay-metadata.ts). */
  metadata?: Record<string, unknown>;
}

export type Decision = DecisionCommon &
  (
    | { action: "continue" }
    | {
        action: "block";
        /** Said by exit code 2 with the reason on stderr, not by a JSON answer. */
        byExitCode?: true;
        /**
         * Gemini CLI's AfterAgent `hookSpecificOutput.clearContext`: before_stop
         * only; the turn goes on from a cleared conversation.
         */
        clearContext?: true;
      }
    | ({
        action: "modify";
        /** Replaces the whole tool input. */
        input?: unknown;
        /** RFC 7386 merge patch onto the tool input (applied after `input`). */
        inputPatch?: unknown;
        /** Replacement user prompt. */
        prompt?: string;
        /** Replacement tool output. */
        output?: string;
      } & ModelControl)
    | { action: "ask" }
    | {
        /**
         * Allow on the user's behalf: permission_request grants the call (with
         * `input` replacing its input); before_tool spares the permission
         * question (Claude Code's `permissionDecision: "allow"`); elsewhere continue.
         */
        action: "allow";
        input?: unknown;
      }
    | { action: "retry"; retryAfterMs: number }
    | { action: "skip" }
    /** before_tool, headless: the call waits for `--resume` (Claude Code's `defer`). */
    | { action: "defer" }
    | { action: "stop" }
    | { action: "failed"; error: string }
  );

/**
 * Longest texts kept from one answer (characters); past them the text is cut
 * with a visible marker (`capText`). Context has its own, configurable cap
 * (`contextCapChars`), applied where it is collected.
 */
export const ANSWER_TEXT_CAPS = {
  reason: 4000,
  message: 4000,
  log: 2000,
  error: 2000,
  prompt: 100_000,
  output: 30_000,
} as const;

type CappedText = keyof typeof ANSWER_TEXT_CAPS;

/** Cuts `text` at `cap` characters and says so, visibly. */
export function capText(text: string, cap: number, what = "context"): string {
  if (text.length <= cap) return text;
  return `${text.slice(0, cap)}\n… [${what} cut at ${cap} characters by acai]`;
}

/**
 * What becomes of a text over its cap: by default it is cut (`capText`); a
 * session spills the texts the model or the user reads to a file instead
 * (hooks/run/spill.ts) — `log` and `error` (the audit's) are always cut.
 */
export type OverCap = (text: string, field: ShownText, cap: number) => string;

/** The capped texts someone reads: the model (reason, output, prompt) or the user (message). */
type ShownText = Exclude<CappedText, "log" | "error">;

const cutOver = (text: string, field: CappedText, cap: number): string => capText(text, cap, field);

/** Every text field of a decision but `context`, held to its cap in ANSWER_TEXT_CAPS. */
export function capDecisionTexts(decision: Decision, over: OverCap = cutOver): Decision {
  const out: Decision = { ...decision };
  let changed = false;
  const cut = (text: string, field: CappedText): string => {
    const cap = ANSWER_TEXT_CAPS[field];
    if (text.length <= cap) return text;
    changed = true;
    return field === "log" || field === "error"
      ? cutOver(text, field, cap)
      : over(text, field, cap);
  };
  if (out.reason !== undefined) out.reason = cut(out.reason, "reason");
  if (out.message !== undefined) out.message = cut(out.message, "message");
  if (out.log !== undefined) out.log = cut(out.log, "log");
  if (out.action === "failed") out.error = cut(out.error, "error");
  if (out.action === "modify") {
    if (out.prompt !== undefined) out.prompt = cut(out.prompt, "prompt");
    if (out.output !== undefined) out.output = cut(out.output, "output");
    if (out.response !== undefined) out.response = { text: cut(out.response.text, "output") };
  }
  // Nothing over its cap: the answer itself (decisions are not changed once made).
  return changed ? out : decision;
}

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
