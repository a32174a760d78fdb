/** after_tool_failure (Claude Code's PostToolUseFailure): a tool call failed, was interrupted or was blocked. */
import { z } from "zod";
import { promptIdField, toolInputField } from "./fields.js";
import { toolFields } from "./payload-parts.js";
import { defineEvent, OBSERVED, toolOf } from "./row.js";
import { sampleCall } from "./sample-parts.js";

const payload = () => ({
  ...toolFields(),
  error: z.string(),
  is_interrupt: z.boolean(),
  is_blocked: z.boolean().optional().describe("True when a hook blocked the call"),
  tool_response: z
    .unknown()
    .optional()
    .describe(
      "A tool that ran and failed: what it returned (Bash: {stdout, stderr, exit_code, interrupted})",
    ),
  duration_ms: z.number().optional(),
});

export const afterToolFailure = defineEvent({
  name: "after_tool_failure",
  agentEvent: "tool_call_error",
  listedAfter: "after_tool",
  claude: "PostToolUseFailure",
  agentHooks: { name: "post-tool-call-failure" },
  kind: "observe",
  subject: "tool",
  honours: [],
  changes: [],
  plainStdoutIsContext: false,
  asyncHooks: "background",
  onBlock: OBSERVED,
  // A3S's PostToolUse is every call that ran; a3s.ts skips the calls that never ran (is_blocked).
  plugins: {
    openclaw: ["after-tool-call"],
    a3s: { name: "PostToolUse", snake: "post_tool_use" },
  },
  payload,
  fields: (ev) => ({
    tool_name: ev.toolName,
    tool_input: toolInputField(ev.input),
    tool_use_id: ev.toolCallId,
    error: ev.error,
    is_interrupt: ev.interrupted,
    is_blocked: ev.blocked,
    ...(ev.response === undefined ? {} : { tool_response: ev.response }),
    duration_ms: ev.durationMs,
    ...promptIdField(ev),
  }),
  matchOn: toolOf,
  sample: (s) => ({
    type: "tool_call_error",
    ...sampleCall(s),
    error:
      s.toolName === "Bash"
        ? "Command failed with exit code 1"
        : `${s.toolName} failed: ENOENT: no such file or directory`,
    interrupted: false,
    blocked: false,
    durationMs: 830,
  }),
  help: {
    fields: "tool_name, tool_input, tool_use_id, error, is_interrupt, is_blocked",
    can: "observe; add context",
  },
});
