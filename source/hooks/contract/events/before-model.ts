/** before_model: the model is about to be called (one step of a turn). */
import { z } from "zod";
import { RAISES } from "../../../agent/raises.js";
import { promptIdField } from "./fields.js";
import { promptId } from "./payload-parts.js";
import { defineEvent, GATE, matchNothing } from "./row.js";

const payload = {
  model: z.string(),
  step: z.number().int(),
  turn: z.number().int().optional(),
  system_prompt: z.string().optional().describe("The system prompt the request carries"),
  available_tools: z.array(z.string()).optional().describe("Names of the tools offered"),
  message_count: z.number().int().optional().describe("Messages of the conversation sent"),
  ...promptId,
};

export const beforeModel = defineEvent({
  name: "before_model",
  agentEvent: RAISES.before_model,
  claude: "before_model",
  kind: "gate",
  subject: "none",
  honours: [...GATE, "retry"],
  changes: [],
  plainStdoutIsContext: false,
  asyncHooks: "background",
  onBlock: "end the turn and show the reason",
  carriesPendingContext: true,
  plugins: { a3s: { name: "GenerateStart", snake: "generate_start" } },
  payload,
  fields: (ev) => ({
    model: ev.model,
    step: ev.step,
    turn: ev.turn,
    ...(ev.systemPrompt === undefined ? {} : { system_prompt: ev.systemPrompt }),
    ...(ev.availableTools === undefined ? {} : { available_tools: ev.availableTools }),
    ...(ev.messageCount === undefined ? {} : { message_count: ev.messageCount }),
    ...promptIdField(ev),
  }),
  matchOn: matchNothing,
  sample: (s) => ({
    type: "model_request",
    turn: 1,
    step: 1,
    model: s.model,
    systemPrompt: "You are acai, a coding agent working in a terminal on the user's project.",
    availableTools: ["Bash", "Read", "Write", "Edit", "Glob", "Grep"],
    messageCount: 1,
  }),
  help: {
    fields: "model, step, turn",
    can: 'block (turn ends); retry ({"action":"retry","retry_after_ms":2000}); add context',
    change: { label: "retry", answer: { action: "retry", retry_after_ms: 2000 } },
  },
});
