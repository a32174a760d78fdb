/** after_tool_batch (Claude Code's PostToolBatch): every tool call of a step is done, before the next model request. */
import { z } from "zod";
import { promptIdField, toolInputField } from "./fields.js";
import { promptId } from "./payload-parts.js";
import { defineEvent, matchNothing } from "./row.js";

const payload = () => ({
  tool_calls: z
    .array(
      z.looseObject({
        tool_use_id: z.string(),
        tool_name: z.string(),
        tool_input: z.record(z.string(), z.unknown()),
        tool_response: z.string().describe("The text the model gets for the call"),
        is_error: z.boolean().describe("The call failed, was refused or did not run"),
      }),
    )
    .describe("Every call of the step, in order, with its result"),
  step: z.number().int(),
  turn: z.number().int(),
  ...promptId(),
});

export const afterToolBatch = defineEvent({
  name: "after_tool_batch",
  agentEvent: "tool_batch_end",
  listedAfter: "after_tool_failure",
  claude: "PostToolBatch",
  kind: "gate",
  subject: "none",
  honours: ["block", "stop"],
  changes: [],
  plainStdoutIsContext: false,
  asyncHooks: "background",
  onBlock: "end the turn: no further model request (the reason is the turn's message)",
  payload,
  fields: (ev) => ({
    tool_calls: ev.calls.map((call) => ({
      tool_use_id: call.toolCallId,
      tool_name: call.toolName,
      tool_input: toolInputField(call.input),
      tool_response: call.result,
      is_error: call.isError,
    })),
    step: ev.step,
    turn: ev.turn,
    ...promptIdField(ev),
  }),
  matchOn: matchNothing,
  sample: (s) => ({
    type: "tool_batch_end",
    turn: 1,
    step: 2,
    calls: [
      {
        toolCallId: "call_test_1",
        toolName: s.toolName,
        input: s.input,
        result: "(the tool's output)",
        isError: false,
      },
    ],
  }),
  help: {
    fields: "tool_calls (tool_use_id, tool_name, tool_input, tool_response, is_error), step, turn",
    can: "add context for the next model request (once per step, not per call); block = end the turn",
  },
});
