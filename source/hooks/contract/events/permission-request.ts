/**
 * permission_request (Claude Code's PermissionRequest): acai is about to ask
 * the user to allow a tool call. The payload says why the user would be asked,
 * and a rule that would allow it (`permission_suggestions`, in Claude Code's shape).
 */
import { z } from "zod";
import { type Payload, promptIdField, toolInputField } from "./fields.js";
import { toolFields } from "./payload-parts.js";
import { defineEvent, toolAsReplaced } from "./row.js";
import { sampleCall } from "./sample-parts.js";

const payload = () => ({
  ...toolFields(),
  reason: z
    .string()
    .describe("Why the user would be asked: the ask rule, the hook that asked, or the mode"),
  permission_suggestions: z
    .array(z.looseObject({ type: z.string() }))
    .optional()
    .describe(
      'Claude Code\'s shape: [{type: "addRules", rules: [{toolName, ruleContent}], behavior: "allow", destination}]',
    ),
});

/** `Bash(npm test:*)` as Claude Code's `{toolName, ruleContent}`. */
function ruleValue(rule: string): Payload {
  const open = rule.indexOf("(");
  if (open === -1 || !rule.endsWith(")")) return { toolName: rule };
  return { toolName: rule.slice(0, open), ruleContent: rule.slice(open + 1, -1) };
}

export const permissionRequest = defineEvent({
  name: "permission_request",
  agentEvent: "permission_request",
  listedAfter: "before_tool",
  claude: "PermissionRequest",
  kind: "gate",
  subject: "tool",
  // ask is no decision here: the user is asked, as when no hook answers.
  honours: ["block", "allow", "modify", "skip", "stop"],
  changes: ["input"],
  plainStdoutIsContext: false,
  asyncHooks: "background",
  onBlock:
    "deny the tool call without asking the user; the reason goes to the model as the tool result",
  permission: "decision",
  route: "permission",
  payload,
  fields: (ev, state) => ({
    tool_name: ev.toolName,
    tool_input: toolInputField("toolInput" in state ? state.toolInput : ev.input),
    tool_use_id: ev.toolCallId,
    reason: ev.reason,
    permission_suggestions: [
      {
        type: "addRules",
        rules: [ruleValue(ev.suggestion)],
        behavior: "allow",
        destination: "localSettings",
      },
    ],
    ...promptIdField(ev),
  }),
  matchOn: toolAsReplaced,
  sample: (s) => ({
    type: "permission_request",
    ...sampleCall(s),
    reason: `no rule allows ${s.toolName} in default mode`,
    permissionMode: "default",
    suggestion: s.toolName === "Bash" ? "Bash(npm test:*)" : s.toolName,
  }),
  help: {
    fields: "tool_name, tool_input, tool_use_id, reason, permission_suggestions",
    can: 'allow for the user ({"action":"allow"}); deny ({"action":"block","reason":"..."}, the reason goes to the model); say nothing and the user is asked',
    matcher: { tool: "Bash" },
    change: { label: "allow", answer: { action: "allow" } },
  },
});
