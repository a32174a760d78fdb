/** notification (Claude Code's Notification): acai tells the user something (waiting for input, …). */
import { z } from "zod";
import { defineEvent, OBSERVED } from "./row.js";

const payload = () => ({
  message: z.string(),
  notification_type: z.string(),
});

export const notification = defineEvent({
  name: "notification",
  agentEvent: "notification",
  listedAfter: "post_compact",
  claude: "Notification",
  gemini: ["Notification"],
  kind: "observe",
  subject: "source",
  honours: [],
  changes: [],
  plainStdoutIsContext: false,
  asyncHooks: "background",
  onBlock: OBSERVED,
  payload,
  fields: (ev) => ({
    message: ev.message,
    notification_type: ev.notificationType,
  }),
  // Gemini CLI calls its permission alert `ToolPermission`: a hook written for it matches acai's.
  matchOn: (ev) => ({
    source: ev.notificationType,
    ...(ev.notificationType === "permission_prompt" ? { sourceAliases: ["ToolPermission"] } : {}),
  }),
  sample: () => ({
    type: "notification",
    message: "acai is waiting for your input",
    notificationType: "idle_prompt",
  }),
  help: {
    fields: "message, notification_type",
    can: "observe",
  },
});
