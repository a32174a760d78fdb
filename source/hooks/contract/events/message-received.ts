/** message_received: a message from another agent (the relay) arrives, before the model gets it. */
import { z } from "zod";
import { defineEvent, GATE } from "./row.js";

const payload = () => ({
  message_id: z.string(),
  from: z.string().describe("The sender's agent name"),
  to: z.string().describe("This agent's name"),
  content: z.string().describe("The message as sent (at most 5,000 characters)"),
  broadcast: z.boolean().describe("Sent to every running agent (@relay:*)"),
  sent_at: z.string().describe("ISO 8601, the sender's clock"),
  text: z.string().describe("What the model gets (as replaced by earlier hooks)"),
  agent_name: z.string().describe("This agent's name"),
  metadata: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("What the sender attached (agent-relay's msg.metadata), when it attached any"),
  turn: z.number().int().optional(),
});

export const messageReceived = defineEvent({
  name: "message_received",
  agentEvent: "message_received",
  listedAfter: "notification",
  claude: "message_received",
  kind: "gate",
  // `source` matchers see the sender's name.
  subject: "source",
  // ask: the REPL asks the user whether the message goes to the model; headless denies (drops it).
  honours: [...GATE, "suppress"],
  changes: ["prompt"],
  plainStdoutIsContext: false,
  asyncHooks: "background",
  onBlock: "drop the message (as agent-relay's suppress does): it never reaches the model",
  payload,
  /** The message, and the text the model gets (as replaced by earlier hooks). */
  fields: (ev, state) => ({
    message_id: ev.message.id,
    from: ev.message.from,
    to: ev.message.to,
    content: ev.message.content,
    broadcast: ev.message.broadcast,
    sent_at: new Date(ev.message.sentAt).toISOString(),
    text: state.prompt ?? ev.message.text,
    agent_name: ev.message.to,
    ...(ev.message.metadata === undefined ? {} : { metadata: ev.message.metadata }),
    turn: ev.turn,
  }),
  matchOn: (ev) => ({ source: ev.message.from }),
  sample: () => ({
    type: "message_received",
    turn: 2,
    message: {
      id: "3b0c9a52-6f0e-4c43-9d55-8f3a51d2c001",
      from: "Coordinator",
      to: "Reviewer",
      content: "TASK: review src/auth.ts",
      broadcast: false,
      sentAt: Date.parse("2026-11-21T10:30:00.000Z"),
      metadata: { urgent: true },
      text: "Message from agent Coordinator (reply with @relay:Coordinator <text>):\nTASK: review src/auth.ts",
    },
  }),
  help: {
    fields: "message_id, from, to, content, broadcast, sent_at, text, agent_name, metadata",
    can: 'replace the text the model gets ({"context": "..."} or {"action":"modify","prompt":"..."}); block = drop the message',
    matcher: { source: "Coordinator" },
  },
});
