/** after_agent: a turn is over (the agent answered the prompt, or the turn ended otherwise). */
import { z } from "zod";
import { promptIdField, usageFields } from "./fields.js";
import { promptId, UsageSchema } from "./payload-parts.js";
import { defineEvent, matchNothing, OBSERVED } from "./row.js";
import { SAMPLE_FINAL_TEXT, SAMPLE_USAGE } from "./sample-parts.js";

const payload = () => ({
  turn: z.number().int(),
  stop_reason: z.string(),
  last_assistant_message: z.string(),
  usage: UsageSchema().optional(),
  message: z.string().optional(),
  ...promptId(),
});

export const afterAgent = defineEvent({
  name: "after_agent",
  agentEvent: "turn_end",
  listedAfter: "before_stop",
  claude: "after_agent",
  agentHooks: { name: "post-agent-turn", aliases: ["post-agent-turn-stop"] },
  kind: "observe",
  subject: "none",
  // The turn is over: ending the session there is meaningful (the agent ends it "hook_stop").
  honours: ["stop"],
  changes: [],
  plainStdoutIsContext: false,
  asyncHooks: "background",
  onBlock: OBSERVED,
  plugins: { openclaw: ["message-sent"] },
  payload,
  fields: (ev) => ({
    turn: ev.turn,
    stop_reason: ev.stopReason,
    last_assistant_message: ev.text,
    usage: usageFields(ev.usage),
    ...(ev.message === undefined ? {} : { message: ev.message }),
    ...promptIdField(ev),
  }),
  /** Agent Hooks' own fields. */
  agentHooksExtras: (ev) => ({
    ...(ev.steps === undefined ? {} : { step_count: ev.steps }),
    final_message: { role: "assistant", content: ev.text },
  }),
  matchOn: matchNothing,
  sample: () => ({
    type: "turn_end",
    turn: 1,
    stopReason: "end_turn",
    text: SAMPLE_FINAL_TEXT,
    usage: SAMPLE_USAGE,
  }),
  help: {
    fields: "turn, stop_reason, last_assistant_message, usage",
    can: "observe",
  },
});
