/** post_compact: a compaction replaced the older conversation with a summary. */
import { z } from "zod";
import { usageFields } from "./fields.js";
import { UsageSchema } from "./payload-parts.js";
import { defineEvent, OBSERVED } from "./row.js";
import { SAMPLE_USAGE } from "./sample-parts.js";

const payload = () => ({
  trigger: z.enum(["manual", "auto"]),
  summary: z.string().describe("The summary that replaced the older conversation"),
  compact_summary: z.string().describe("The same summary under Claude Code's PostCompact name"),
  tokens_before: z.number().int(),
  tokens_after: z
    .number()
    .int()
    .describe("Estimated: the server measures it with the next request"),
  messages_before: z.number().int().optional(),
  messages_after: z.number().int().optional(),
  usage: UsageSchema().optional().describe("What the summary request cost"),
  duration_ms: z.number().optional(),
});

export const postCompact = defineEvent({
  name: "post_compact",
  agentEvent: "compact_end",
  listedAfter: "pre_compact",
  claude: "PostCompact",
  kind: "observe",
  subject: "source",
  honours: [],
  changes: [],
  plainStdoutIsContext: false,
  asyncHooks: "background",
  onBlock: OBSERVED,
  plugins: { openclaw: ["after-compaction"] },
  payload,
  fields: (ev) => ({
    trigger: ev.trigger,
    summary: ev.summary,
    compact_summary: ev.summary,
    tokens_before: ev.tokensBefore,
    tokens_after: ev.tokensAfter,
    messages_before: ev.messagesBefore,
    messages_after: ev.messagesAfter,
    usage: usageFields(ev.usage),
    duration_ms: ev.durationMs,
  }),
  matchOn: (ev) => ({ source: ev.trigger }),
  sample: () => ({
    type: "compact_end",
    trigger: "manual",
    summary: "The user asked for tests of the greeting module; two are written, one fails.",
    tokensBefore: 152_340,
    tokensAfter: 18_200,
    messagesBefore: 84,
    messagesAfter: 7,
    usage: SAMPLE_USAGE,
    durationMs: 9_400,
  }),
  help: {
    fields: "trigger, summary (compact_summary), tokens_before, tokens_after",
    can: "observe",
  },
});
