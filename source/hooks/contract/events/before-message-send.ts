/**
 * before_message_send: this agent is about to send a message to another
 * (`@relay:NAME` in its reply, a hook's sendMessage). A gate beside the loop:
 * a hook may rewrite the message or cancel it (OpenClaw's `message-sending`,
 * `{ content }` / `{ cancel: true }`); message_sent follows for a message sent.
 */
import { z } from "zod";
import { defineEvent, GATE } from "./row.js";

const payload = () => ({
  from: z.string().describe("This agent's name"),
  to: z.string().describe("The recipient's name, or * for every running agent"),
  content: z.string().describe("The message as it will be sent (as replaced by earlier hooks)"),
  broadcast: z.boolean(),
  agent_name: z.string().describe("This agent's name"),
});

export const beforeMessageSend = defineEvent({
  name: "before_message_send",
  agentEvent: "before_message_send",
  listedAfter: "message_received",
  claude: "before_message_send",
  kind: "gate",
  // `source` matchers see the recipient's name (`*` for a broadcast).
  subject: "source",
  // ask: the REPL asks the user whether the message goes; headless denies. stop acts as a block here.
  honours: GATE,
  changes: ["prompt"],
  plainStdoutIsContext: false,
  asyncHooks: "background",
  onBlock:
    "the message is not sent (OpenClaw's cancel; stop acts as a block here); the user is told",
  plugins: { openclaw: ["message-sending"] },
  payload,
  fields: (ev, state) => ({
    from: ev.message.from,
    to: ev.message.to,
    content: state.prompt ?? ev.message.content,
    broadcast: ev.message.to === "*",
    agent_name: ev.message.from,
  }),
  matchOn: (ev) => ({ source: ev.message.to }),
  sample: () => ({
    type: "before_message_send",
    message: {
      from: "Reviewer",
      to: "Coordinator",
      content: "Reviewed src/auth.ts: two issues, see the PR comments.",
    },
  }),
  help: {
    fields: "from, to, content, broadcast, agent_name",
    can: 'block = the message is not sent; replace it ({"action":"modify","prompt":"..."})',
    matcher: { source: "Coordinator" },
    change: {
      label: "send this text instead",
      answer: { action: "modify", prompt: "Reviewed src/auth.ts (details withheld)." },
    },
  },
});
