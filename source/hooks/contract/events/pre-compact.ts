/** pre_compact (Claude Code's PreCompact): the conversation is about to be summarised (/compact or automatic). */
import { z } from "zod";
import { defineEvent, GATE } from "./row.js";

const payload = () => ({
  trigger: z
    .enum(["manual", "auto"])
    .describe("manual: /compact; auto: the context is nearly full"),
  custom_instructions: z.string().describe("What /compact was given (empty when nothing)"),
  tokens_before: z.number().int().describe("The conversation's tokens, as last measured"),
  message_count: z.number().int().optional(),
});

export const preCompact = defineEvent({
  name: "pre_compact",
  agentEvent: "compact_start",
  listedAfter: "subagent_stop",
  claude: "PreCompact",
  gemini: ["PreCompress"],
  kind: "gate",
  subject: "source",
  honours: GATE,
  changes: [],
  plainStdoutIsContext: false,
  asyncHooks: "background",
  onBlock: "not compact now (an automatic compaction is tried again before a later request)",
  plugins: { openclaw: ["before-compaction"] },
  payload,
  fields: (ev) => ({
    trigger: ev.trigger,
    custom_instructions: ev.customInstructions,
    tokens_before: ev.tokensBefore,
    message_count: ev.messages,
  }),
  matchOn: (ev) => ({ source: ev.trigger }),
  sample: () => ({
    type: "compact_start",
    trigger: "manual",
    customInstructions: "keep the list of failing tests",
    tokensBefore: 152_340,
    messages: 84,
  }),
  help: {
    fields: "trigger (manual | auto), custom_instructions, tokens_before",
    can: "block = not now; add context = instructions for the summary",
    matcher: { source: "auto" },
  },
});
