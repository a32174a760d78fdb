/** before_model: the model is about to be called (one step of a turn). */
import { z } from "zod";
import { promptIdField } from "./fields.js";
import { LlmRequestSchema, llmRequestField } from "./model-parts.js";
import { promptId } from "./payload-parts.js";
import { defineEvent, GATE, matchNothing } from "./row.js";

const payload = () => ({
  model: z.string(),
  model_provider: z.string().optional().describe("openai, anthropic, replay, …"),
  step: z.number().int(),
  turn: z.number().int().optional(),
  prompt: z
    .string()
    .optional()
    .describe(
      "The turn's user prompt, as it stands in the conversation (as replaced by earlier hooks)",
    ),
  system_prompt: z.string().optional().describe("The system prompt the request carries"),
  available_tools: z.array(z.string()).optional().describe("Names of the tools offered"),
  message_count: z.number().int().optional().describe("Messages of the conversation sent"),
  llm_request: LlmRequestSchema().optional(),
  ...promptId(),
});

export const beforeModel = defineEvent({
  name: "before_model",
  agentEvent: "model_request",
  listedAfter: "user_prompt",
  claude: "before_model",
  // BeforeToolSelection: restricting the tools offered is a before_model answer here (`tools`, `toolConfig`).
  gemini: ["BeforeModel", "BeforeToolSelection"],
  kind: "gate",
  subject: "none",
  honours: [...GATE, "retry"],
  // prompt (the turn's, in the conversation); llm_request (this request only);
  // llm_response (an answer in place of the model's).
  changes: ["prompt", "request", "response"],
  plainStdoutIsContext: false,
  asyncHooks: "background",
  onBlock: "end the turn and show the reason",
  carriesPendingContext: true,
  plugins: { a3s: { name: "GenerateStart", snake: "generate_start" } },
  payload,
  fields: (ev, state) => ({
    model: ev.model,
    ...(ev.modelProvider === undefined ? {} : { model_provider: ev.modelProvider }),
    step: ev.step,
    turn: ev.turn,
    ...(ev.prompt === undefined ? {} : { prompt: state.prompt ?? ev.prompt }),
    ...(ev.systemPrompt === undefined ? {} : { system_prompt: ev.systemPrompt }),
    ...(ev.availableTools === undefined ? {} : { available_tools: ev.availableTools }),
    ...(ev.messageCount === undefined ? {} : { message_count: ev.messageCount }),
    llm_request: llmRequestField(ev, state.request),
    ...promptIdField(ev),
  }),
  matchOn: matchNothing,
  sample: (s) => ({
    type: "model_request",
    turn: 1,
    step: 1,
    model: s.model,
    modelProvider: "openai",
    prompt: "Fix the failing test in src/parse.ts",
    systemPrompt: "You are acai, a coding agent working in a terminal on the user's project.",
    availableTools: ["Bash", "Read", "Write", "Edit", "Glob", "Grep"],
    messageCount: 1,
    messages: () => [{ role: "user", content: "Run the tests and fix what fails." }],
  }),
  help: {
    fields:
      "model, model_provider, step, turn, prompt, system_prompt, available_tools, llm_request {model, messages, system, config, toolConfig}",
    can: 'block (turn ends); retry ({"action":"retry","retry_after_ms":2000}); replace the prompt ({"action":"modify","prompt":"..."}); change this request ({"llm_request":{"config":{"temperature":0},"tools":["Read"]}}); answer in place of the model ({"llm_response":{"text":"..."}}); add context',
    change: { label: "retry", answer: { action: "retry", retry_after_ms: 2000 } },
  },
});
