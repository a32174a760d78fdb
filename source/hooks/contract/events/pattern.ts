/** pattern: a `@namespace:target message` line in assistant output (agent-relay patterns, docs/relay.md). */
import { z } from "zod";
import { promptIdField } from "./fields.js";
import { promptId } from "./payload-parts.js";
import { defineEvent } from "./row.js";

const payload = () => ({
  namespace: z.string().describe("`deploy` in `@deploy:staging Release v1.2.3`"),
  target: z.string().describe("`staging` in `@deploy:staging Release v1.2.3`"),
  message: z.string().describe("`Release v1.2.3`: the rest of the line (may be empty)"),
  line: z.number().int().describe("1-based line of the assistant message"),
  step: z.number().int(),
  turn: z.number().int(),
  ...promptId(),
});

export const pattern = defineEvent({
  name: "pattern",
  agentEvent: "pattern",
  listedAfter: "output",
  claude: "pattern",
  kind: "gate",
  subject: "namespace",
  honours: ["skip"],
  changes: [],
  // A handler's plain answer is its reply to the agent, as agent-relay's inject.
  plainStdoutIsContext: true,
  asyncHooks: "background",
  onBlock:
    "ignore it: a pattern handler answers with context (inject), or skips the handlers after it",
  payload,
  fields: (ev) => ({
    namespace: ev.namespace,
    target: ev.target,
    message: ev.message,
    line: ev.line,
    step: ev.step,
    turn: ev.turn,
    ...promptIdField(ev),
  }),
  matchOn: (ev) => ({ namespace: ev.namespace }),
  sample: () => ({
    type: "pattern",
    turn: 1,
    step: 2,
    namespace: "deploy",
    target: "staging",
    message: "Release v1.2.3",
    line: 2,
  }),
  help: {
    fields: "namespace, target, message, line, step, turn",
    can: 'answer the agent ({"context": "..."}, {"inject": "..."} or plain stdout); {"stop": true} skips later handlers',
    matcher: { namespace: "deploy" },
  },
});
