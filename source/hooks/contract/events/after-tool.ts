/** after_tool (Claude Code's PostToolUse): a tool call returned, before the model sees its result. */
import { z } from "zod";
import { promptIdField, toolInputField } from "./fields.js";
import { toolFields } from "./payload-parts.js";
import { defineEvent, GATE, toolOf } from "./row.js";
import { sampleCall } from "./sample-parts.js";

const payload = () => ({
  ...toolFields(),
  tool_response: z
    .unknown()
    .describe("Bash: {stdout, stderr, exit_code, interrupted}; other tools: what they returned"),
  tool_output: z.string().optional().describe("The text the model will see"),
  duration_ms: z.number(),
});

export const afterTool = defineEvent({
  name: "after_tool",
  agentEvent: "tool_call_end",
  listedAfter: "permission_request",
  claude: "PostToolUse",
  gemini: ["AfterTool"],
  agentHooks: { name: "post-tool-call" },
  kind: "gate",
  subject: "tool",
  honours: GATE,
  // follow_up (Gemini's tailToolCallRequest): one more call, through every gate.
  changes: ["output", "follow_up"],
  plainStdoutIsContext: false,
  asyncHooks: "background",
  onBlock: "give the reason to the model beside the tool result",
  plugins: {
    openclaw: ["after-tool-call", "tool-result-persist"],
    a3s: { name: "PostToolUse", snake: "post_tool_use" },
  },
  payload,
  fields: (ev, state) => ({
    tool_name: ev.toolName,
    tool_input: toolInputField(ev.input),
    tool_use_id: ev.toolCallId,
    tool_response: ev.response ?? ev.output,
    /** The text the model will see (as replaced by earlier hooks). */
    tool_output: state.output ?? ev.output,
    duration_ms: ev.durationMs,
    ...promptIdField(ev),
  }),
  matchOn: toolOf,
  sample: async (s) => ({
    type: "tool_call_end",
    ...sampleCall(s),
    ...(await s.toolResult()),
    durationMs: 1260,
  }),
  help: {
    fields: "tool_name, tool_input, tool_use_id, tool_response, tool_output, duration_ms",
    can: 'replace the output ({"action":"modify","output":"..."}); ask for one follow-up call ({"follow_up":{"tool_name":"Read","tool_input":{"file_path":"..."}}}; it passes before_tool and the permission check, and its result replaces this one); add context; block (reason beside the result)',
    matcher: { tool: "Write|Edit" },
    change: { label: "replace", answer: { action: "modify", output: "the output the model sees" } },
  },
});
