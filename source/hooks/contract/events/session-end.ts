/** session_end (Claude Code's SessionEnd): the session ends; its hooks run within a short budget. */
import { z } from "zod";
import { usageFields } from "./fields.js";
import { UsageSchema } from "./payload-parts.js";
import { defineEvent, OBSERVED } from "./row.js";
import { SAMPLE_USAGE } from "./sample-parts.js";

const payload = () => ({
  reason: z
    .enum(["completed", "aborted", "error", "hook_stop", "user_exit", "clear", "deferred"])
    .describe(
      "clear: the REPL's /clear, a new session follows; deferred: a before_tool hook deferred a call (acai -p); what matchers see",
    ),
  claude_reason: z
    .enum(["prompt_input_exit", "clear", "other"])
    .describe(
      "Claude Code's reason: prompt_input_exit for user_exit (Ctrl-D, /exit), clear for /clear, other otherwise; a matcher may name it",
    ),
  total_steps: z.number().int().optional().describe("Model requests of the session"),
  total_tool_calls: z.number().int().optional(),
  usage: UsageSchema().optional().describe("Tokens of the whole session"),
  duration_ms: z.number().optional(),
});

/**
 * Claude Code's SessionEnd reason for acai's: leaving the REPL is its
 * prompt_input_exit, /clear its clear; acai has no logout, resume or
 * bypass_permissions_disabled case, so the rest is other.
 */
function claudeReason(reason: string): "prompt_input_exit" | "clear" | "other" {
  if (reason === "user_exit") return "prompt_input_exit";
  return reason === "clear" ? "clear" : "other";
}

/**
 * Gemini CLI's SessionEnd reason for acai's: the end of a run (`acai -p`
 * done, leaving the REPL) is its exit, /clear its clear; the rest is other.
 */
function geminiReason(reason: string): "exit" | "clear" | "other" {
  if (reason === "completed" || reason === "user_exit") return "exit";
  return reason === "clear" ? "clear" : "other";
}

export const sessionEnd = defineEvent({
  name: "session_end",
  agentEvent: "session_end",
  listedAfter: "message_sent",
  claude: "SessionEnd",
  gemini: ["SessionEnd"],
  agentHooks: { name: "post-session" },
  kind: "observe",
  subject: "source",
  honours: [],
  changes: [],
  plainStdoutIsContext: false,
  asyncHooks: "inline",
  onBlock: OBSERVED,
  route: "session_end",
  plugins: {
    openclaw: ["session-end", "gateway-stop"],
    a3s: { name: "SessionEnd", snake: "session_end" },
  },
  payload,
  fields: (ev) => ({
    reason: ev.reason,
    claude_reason: claudeReason(ev.reason),
    ...(ev.totals === undefined
      ? {}
      : {
          total_steps: ev.totals.steps,
          total_tool_calls: ev.totals.toolCalls,
          usage: usageFields(ev.totals.usage),
          duration_ms: ev.totals.durationMs,
        }),
  }),
  /** Agent Hooks' own fields. */
  agentHooksExtras: (ev, at) => ({
    exit_reason: ev.reason,
    ...(at.startedAt === undefined
      ? {}
      : { duration_seconds: Math.round((at.now - at.startedAt) / 1000) }),
  }),
  // Claude Code and Gemini CLI match SessionEnd on their reason: a hook meant for /clear does
  // not run on every exit, and one meant for Gemini's "exit" does run.
  matchOn: (ev) => ({
    source: ev.reason,
    sourceAliases: [claudeReason(ev.reason), geminiReason(ev.reason)],
  }),
  sample: () => ({
    type: "session_end",
    reason: "completed",
    totals: { steps: 3, toolCalls: 2, usage: SAMPLE_USAGE, durationMs: 41_200 },
  }),
  help: {
    fields: "reason (completed | user_exit | clear | aborted | error | hook_stop)",
    can: "observe (runs within a short budget)",
    matcher: { source: "clear" },
  },
});
