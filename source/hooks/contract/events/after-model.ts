/** after_model: the model answered one step (text, tool calls, usage). */
import { z } from "zod";
import { promptIdField, toolCallFields, usageFields } from "./fields.js";
import { LlmResponseSchema, llmResponseField } from "./model-parts.js";
import { promptId, ToolCallSchema, UsageSchema } from "./payload-parts.js";
import { defineEvent, GATE, matchNothing } from "./row.js";
import { SAMPLE_USAGE } from "./sample-parts.js";

const payload = () => ({
  model: z.string(),
  step: z.number().int(),
  turn: z.number().int().optional(),
  prompt: z.string().optional().describe("The turn's user prompt the model answered"),
  text: z.string(),
  tool_calls: z.array(ToolCallSchema()),
  usage: UsageSchema(),
  finish_reason: z.string(),
  duration_ms: z.number(),
  llm_response: LlmResponseSchema().optional(),
  ...promptId(),
});

export const afterModel = defineEvent({
  name: "after_model",
  agentEvent: "model_response",
  listedAfter: "before_model",
  claude: "after_model",
  gemini: ["AfterModel"],
  kind: "gate",
  subject: "none",
  honours: GATE,
  // llm_response (the text the conversation keeps), drop_tool_calls (before they run).
  changes: ["response", "tool_calls"],
  plainStdoutIsContext: false,
  asyncHooks: "background",
  onBlock: "end the turn and show the reason",
  plugins: { a3s: { name: "GenerateEnd", snake: "generate_end" } },
  payload,
  fields: (ev, state) => {
    const text = state.response?.text ?? ev.text;
    const dropped = new Set(state.dropToolCalls ?? []);
    return {
      model: ev.model,
      step: ev.step,
      turn: ev.turn,
      ...(ev.prompt === undefined ? {} : { prompt: ev.prompt }),
      text,
      tool_calls: ev.toolCalls.filter((c) => !dropped.has(c.toolCallId)).map(toolCallFields),
      usage: usageFields(ev.usage),
      finish_reason: ev.finishReason,
      duration_ms: ev.durationMs,
      llm_response: llmResponseField(text, ev.finishReason),
      ...promptIdField(ev),
    };
  },
  matchOn: matchNothing,
  sample: (s) => ({
    type: "model_response",
    turn: 1,
    step: 1,
    model: s.model,
    prompt: "Fix the failing test in src/parse.ts",
    text: "I'll run the tests first.",
    toolCalls: [{ toolCallId: "call_test_1", toolName: s.toolName, input: s.input }],
    usage: SAMPLE_USAGE,
    finishReason: "tool-calls",
    durationMs: 1840,
  }),
  help: {
    fields:
      "model, step, prompt, text, tool_calls, usage {input_tokens, output_tokens, total_tokens}, finish_reason, duration_ms",
    can: 'block = end the turn (e.g. a token budget); replace the text ({"llm_response":{"text":"..."}}); drop tool calls before they run ({"drop_tool_calls":["call_1"]}, or true for all)',
  },
});
