/** before_stop (Claude Code's Stop): the model is done (or hit --max-steps) and the turn would end. */
import { z } from "zod";
import { promptIdField } from "./fields.js";
import { promptId } from "./payload-parts.js";
import { defineEvent, GATE, matchNothing } from "./row.js";
import { SAMPLE_FINAL_TEXT } from "./sample-parts.js";

const payload = () => ({
  stop_hook_active: z.boolean().describe("True when this turn's previous stop was blocked"),
  last_assistant_message: z.string(),
  prompt: z.string().optional().describe("The turn's user prompt (as a hook may have replaced it)"),
  stop_reason: z
    .enum(["end_turn", "tool_rejected", "max_steps"])
    .optional()
    .describe("end_turn: no tool calls; tool_rejected: after refused tool calls; max_steps"),
  step: z.number().int().optional(),
  turn: z.number().int().optional(),
  ...promptId(),
});

export const beforeStop = defineEvent({
  name: "before_stop",
  agentEvent: "stop_request",
  listedAfter: "after_tool_failure",
  claude: "Stop",
  // AfterAgent: a deny rejects the final answer and the reason goes back to the model, as Stop.
  gemini: ["AfterAgent"],
  agentHooks: { name: "pre-agent-turn-stop" },
  kind: "gate",
  subject: "none",
  honours: GATE,
  blocks: "all",
  changes: [],
  plainStdoutIsContext: false,
  asyncHooks: "background",
  onBlock: "not stop: the reason becomes a user message and the agent goes on",
  payload,
  fields: (ev) => ({
    stop_hook_active: ev.stopHookActive,
    last_assistant_message: ev.lastAssistantMessage,
    ...(ev.prompt === undefined ? {} : { prompt: ev.prompt }),
    stop_reason: ev.stopReason ?? "end_turn",
    step: ev.step,
    turn: ev.turn,
    ...promptIdField(ev),
  }),
  /** Agent Hooks' own fields. */
  agentHooksExtras: (ev) => ({
    // The spec's spelling of end_turn.
    stop_reason: (ev.stopReason ?? "end_turn") === "end_turn" ? "no_tool_calls" : ev.stopReason,
    step_count: ev.step,
    final_message: { role: "assistant", content: ev.lastAssistantMessage },
  }),
  matchOn: matchNothing,
  sample: () => ({
    type: "stop_request",
    turn: 1,
    step: 3,
    prompt: "Fix the failing test in src/parse.ts",
    lastAssistantMessage: SAMPLE_FINAL_TEXT,
    stopHookActive: false,
    consecutiveBlocks: 0,
    stopReason: "end_turn",
  }),
  help: {
    fields: "stop_hook_active, last_assistant_message, prompt",
    can: "block = the reason becomes a user message and the agent goes on (quality gate); check stop_hook_active to avoid loops",
  },
});
