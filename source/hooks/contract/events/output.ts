/** output: a complete assistant message of one model step. */
import { z } from "zod";
import { promptIdField } from "./fields.js";
import { promptId } from "./payload-parts.js";
import { defineEvent, matchNothing, OBSERVED } from "./row.js";

const payload = () => ({
  text: z.string().describe("The complete assistant message of one model step"),
  step: z.number().int(),
  turn: z.number().int(),
  ...promptId(),
});

export const output = defineEvent({
  name: "output",
  agentEvent: "output",
  listedAfter: "session_end",
  claude: "output",
  kind: "observe",
  subject: "none",
  honours: [],
  changes: [],
  plainStdoutIsContext: false,
  asyncHooks: "background",
  onBlock: OBSERVED,
  payload,
  fields: (ev) => ({
    text: ev.text,
    step: ev.step,
    turn: ev.turn,
    ...promptIdField(ev),
  }),
  matchOn: matchNothing,
  sample: () => ({
    type: "output",
    turn: 1,
    step: 2,
    text: "Deployed the fix.\n@deploy:staging Release v1.2.3",
  }),
  help: {
    fields: "text, step, turn",
    can: "observe; add context",
  },
});
