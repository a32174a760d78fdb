/** permission_denied (Claude Code's PermissionDenied): the permission check denied a tool call. */
import { z } from "zod";
import { promptIdField, toolInputField } from "./fields.js";
import { toolFields } from "./payload-parts.js";
import { defineEvent, OBSERVED, toolOf } from "./row.js";
import { sampleCall } from "./sample-parts.js";

const payload = () => ({
  ...toolFields(),
  reason: z
    .string()
    .describe(
      "Why it was denied: the deny rule, the mode, a permission_request hook, or nobody to ask",
    ),
});

export const permissionDenied = defineEvent({
  name: "permission_denied",
  agentEvent: "permission_denied",
  listedAfter: "after_tool_failure",
  claude: "PermissionDenied",
  kind: "gate",
  subject: "tool",
  honours: ["retry"],
  changes: [],
  plainStdoutIsContext: false,
  asyncHooks: "background",
  onBlock: OBSERVED,
  payload,
  fields: (ev) => ({
    tool_name: ev.toolName,
    tool_input: toolInputField(ev.input),
    tool_use_id: ev.toolCallId,
    reason: ev.reason,
    ...promptIdField(ev),
  }),
  matchOn: toolOf,
  sample: (s) => ({
    type: "permission_denied",
    ...sampleCall(s),
    reason: `${s.toolName} is denied by the rule ${s.toolName}(*) in .acai/settings.json`,
  }),
  help: {
    fields: "tool_name, tool_input, tool_use_id, reason",
    can: 'the call stays denied; tell the model it may retry it ({"hookSpecificOutput":{"hookEventName":"PermissionDenied","retry":true}}); add context',
    matcher: { tool: "Bash" },
  },
});
