/** user_prompt (Claude Code's UserPromptSubmit): the user sent a prompt, before the model sees it. */
import { z } from "zod";
import { promptIdField } from "./fields.js";
import { promptId } from "./payload-parts.js";
import { defineEvent, GATE, matchNothing } from "./row.js";

const payload = () => ({
  prompt: z.string().describe("As replaced by earlier hooks"),
  turn: z.number().int().optional(),
  ...promptId(),
});

export const userPrompt = defineEvent({
  name: "user_prompt",
  agentEvent: "user_prompt",
  listedAfter: "session_start",
  claude: "UserPromptSubmit",
  gemini: ["BeforeAgent"],
  agentHooks: { name: "pre-agent-turn", aliases: ["before_agent"] },
  kind: "gate",
  subject: "none",
  honours: GATE,
  changes: ["prompt"],
  plainStdoutIsContext: true,
  asyncHooks: "background",
  onBlock: "drop the prompt and show the reason",
  plugins: { openclaw: ["before-agent-start", "message-received"] },
  payload,
  fields: (ev, state) => ({
    prompt: state.prompt ?? ev.prompt,
    turn: ev.turn,
    ...promptIdField(ev),
  }),
  matchOn: matchNothing,
  sample: () => ({
    type: "user_prompt",
    turn: 1,
    prompt: "Add a unit test for the greeting module",
  }),
  help: {
    fields: "prompt, turn",
    can: 'block (prompt dropped); replace it ({"action":"modify","prompt":"..."}); add context (or plain stdout)',
    change: { label: "replace", answer: { action: "modify", prompt: "the rewritten prompt" } },
  },
});
