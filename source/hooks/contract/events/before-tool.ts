/** before_tool (Claude Code's PreToolUse): a tool call is about to run, before the permission check. */
import { z } from "zod";
import { promptIdField, toolInputField } from "./fields.js";
import { toolFields } from "./payload-parts.js";
import { defineEvent, GATE, toolAsReplaced } from "./row.js";
import { sampleCall } from "./sample-parts.js";

export const beforeTool = defineEvent({
  name: "before_tool",
  agentEvent: "tool_call_start",
  listedAfter: "after_model",
  claude: "PreToolUse",
  gemini: ["BeforeTool"],
  agentHooks: { name: "pre-tool-call" },
  kind: "gate",
  subject: "tool",
  // allow: no permission question unless a deny or ask rule holds (Claude Code's permissionDecision).
  // defer (Claude Code's): a headless run stops with the call pending; --resume asks again.
  honours: [...GATE, "allow", "defer"],
  changes: ["input"],
  plainStdoutIsContext: false,
  asyncHooks: "background",
  onBlock: "not run the tool; the reason goes to the model as the tool result",
  permission: "hint",
  plugins: {
    openclaw: ["before-tool-call"],
    a3s: { name: "PreToolUse", snake: "pre_tool_use" },
  },
  payload: () => ({
    ...toolFields(),
    recent_tools: z
      .array(z.string())
      .optional()
      .describe(
        "Names of the session's latest tool calls before this one, oldest first (at most 10)",
      ),
  }),
  fields: (ev, state) => ({
    tool_name: ev.toolName,
    tool_input: toolInputField("toolInput" in state ? state.toolInput : ev.input),
    tool_use_id: ev.toolCallId,
    ...promptIdField(ev),
    ...(ev.recentTools === undefined ? {} : { recent_tools: ev.recentTools }),
  }),
  matchOn: toolAsReplaced,
  sample: (s) => ({ type: "tool_call_start", ...sampleCall(s), recentTools: ["Read", "Grep"] }),
  help: {
    fields: "tool_name, tool_input, tool_use_id, recent_tools",
    can: 'block (reason goes to the model); modify ({"action":"modify","input_patch":{...}}); ask; defer (acai -p stops, exit 5; --resume asks again); add context',
    matcher: { tool: "Bash" },
    change: { label: "modify", answer: { action: "modify", input_patch: { timeout: 60000 } } },
  },
});
