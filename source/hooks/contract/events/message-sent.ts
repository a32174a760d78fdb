/** message_sent: this agent sent a message to another (`@relay:NAME`, a hook's sendMessage). */
import { z } from "zod";
import { defineEvent, OBSERVED } from "./row.js";

const payload = () => ({
  from: z.string().describe("This agent's name"),
  to: z.string().describe("The recipient's name, or * for every running agent"),
  content: z.string(),
  broadcast: z.boolean(),
  delivered_to: z.array(z.string()).describe("Recipients running: on their way"),
  kept_for: z.array(z.string()).describe("Recipients not running: kept for them"),
  agent_name: z.string().describe("This agent's name"),
});

export const messageSent = defineEvent({
  name: "message_sent",
  agentEvent: "message_sent",
  listedAfter: "before_message_send",
  claude: "message_sent",
  kind: "observe",
  // `source` matchers see the recipient's name (`*` for a broadcast).
  subject: "source",
  honours: [],
  changes: [],
  plainStdoutIsContext: false,
  asyncHooks: "background",
  onBlock: OBSERVED,
  payload,
  fields: (ev) => ({
    from: ev.message.from,
    to: ev.message.to,
    content: ev.message.content,
    broadcast: ev.message.to === "*",
    delivered_to: ev.message.delivered,
    kept_for: ev.message.kept,
    agent_name: ev.message.from,
  }),
  matchOn: (ev) => ({ source: ev.message.to }),
  sample: () => ({
    type: "message_sent",
    message: {
      from: "Reviewer",
      to: "Coordinator",
      content: "Reviewed src/auth.ts: two issues, see the PR comments.",
      delivered: ["Coordinator"],
      kept: [],
    },
  }),
  help: {
    fields: "from, to, content, broadcast, delivered_to, kept_for, agent_name",
    can: "observe",
  },
});
