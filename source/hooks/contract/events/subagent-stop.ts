/** subagent_stop (Claude Code's SubagentStop): a subagent wants to end; a gate like before_stop. */
import { z } from "zod";
import { subagentShape } from "./payload-parts.js";
import { defineEvent, GATE } from "./row.js";
import { SAMPLE_SUBAGENT } from "./sample-parts.js";

const payload = () => ({
  ...subagentShape(),
  stop_hook_active: z.boolean().describe("True when this subagent's previous stop was blocked"),
  last_assistant_message: z.string(),
  agent_transcript_path: z.string().describe("The subagent's own JSONL transcript"),
  subagent_name: z.string().optional(),
  subagent_type: z.string().optional(),
  step: z.number().int().optional(),
  turn: z.number().int().optional(),
});

export const subagentStop = defineEvent({
  name: "subagent_stop",
  agentEvent: "subagent_stop",
  listedAfter: "subagent_start",
  claude: "SubagentStop",
  kind: "gate",
  subject: "source",
  honours: GATE,
  blocks: "all",
  changes: [],
  plainStdoutIsContext: false,
  asyncHooks: "background",
  onBlock: "not stop the subagent: the reason becomes its next user message and it goes on",
  payload,
  fields: (ev) => ({
    agent_id: ev.agentId,
    agent_type: ev.agentType,
    subagent_name: ev.agentType,
    subagent_type: ev.agentType,
    stop_hook_active: ev.stopHookActive,
    last_assistant_message: ev.lastAssistantMessage,
    agent_transcript_path: ev.agentTranscriptPath,
    step: ev.step,
    turn: ev.turn,
  }),
  matchOn: (ev) => ({ source: ev.agentType }),
  sample: (s) => ({
    type: "subagent_stop",
    ...SAMPLE_SUBAGENT,
    turn: 1,
    step: 2,
    lastAssistantMessage: "The greeting module looks fine; no bugs found.",
    stopHookActive: false,
    consecutiveBlocks: 0,
    agentTranscriptPath: s.transcriptPath.replace(
      /\.jsonl$/,
      `/subagents/agent-${SAMPLE_SUBAGENT.agentId}.jsonl`,
    ),
  }),
  help: {
    fields: "agent_id, agent_type, stop_hook_active, last_assistant_message, agent_transcript_path",
    can: "block = the reason becomes the subagent's next message and it goes on; check stop_hook_active to avoid loops",
  },
});
