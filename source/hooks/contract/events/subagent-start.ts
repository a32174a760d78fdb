/** subagent_start (Claude Code's SubagentStart): a subagent (the Task tool) is about to start. */
import { z } from "zod";
import { subagentShape } from "./payload-parts.js";
import { defineEvent, GATE } from "./row.js";
import { SAMPLE_SUBAGENT } from "./sample-parts.js";

const payload = () => ({
  ...subagentShape(),
  task_description: z.string().describe("The Task call's description"),
  prompt: z.string().optional().describe("The subagent's task, as the Task call gave it"),
  subagent_name: z.string().optional().describe("The Agent Hooks spec's name of agent_type"),
  subagent_type: z.string().optional().describe("The Agent Hooks spec's name of agent_type"),
  tool_use_id: z.string().optional().describe("The Task call that starts it"),
  depth: z.number().int().optional().describe("1 for a subagent of the session's agent"),
});

export const subagentStart = defineEvent({
  name: "subagent_start",
  agentEvent: "subagent_start",
  listedAfter: "after_agent",
  claude: "SubagentStart",
  kind: "gate",
  subject: "source",
  honours: GATE,
  changes: [],
  plainStdoutIsContext: false,
  asyncHooks: "background",
  onBlock: "not start the subagent: the Task call fails with the reason",
  payload,
  fields: (ev) => ({
    agent_id: ev.agentId,
    agent_type: ev.agentType,
    // The Agent Hooks spec's names for the same facts.
    subagent_name: ev.agentType,
    subagent_type: ev.agentType,
    task_description: ev.description,
    prompt: ev.prompt,
    tool_use_id: ev.toolCallId,
    depth: ev.depth,
  }),
  matchOn: (ev) => ({ source: ev.agentType }),
  sample: () => ({
    type: "subagent_start",
    ...SAMPLE_SUBAGENT,
    description: "Review the greeting module",
    prompt: "Review source/greeting.ts for bugs and report what you find.",
    toolCallId: "call_test_1",
    depth: 1,
  }),
  help: {
    fields: "agent_id, agent_type, task_description, prompt, subagent_name, subagent_type",
    can: "block (the Task call fails with the reason); add context for the subagent",
    matcher: { source: "general-purpose" },
  },
});
