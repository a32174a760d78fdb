import type { ModelMessage } from "ai";
import { expect, test } from "vitest";
import {
  blocksOfMessage,
  ConversationLineSchema,
  messageOfLine,
} from "../../source/agent/transcript-messages.js";

const roundTrip = (message: ModelMessage) =>
  messageOfLine(ConversationLineSchema.parse(JSON.parse(JSON.stringify(blocksOfMessage(message)))));

test("every message kind the agent writes comes back the same", () => {
  const messages: ModelMessage[] = [
    { role: "user", content: "hello" },
    {
      role: "user",
      content: [
        { type: "text", text: "a" },
        { type: "text", text: "b" },
      ],
    },
    {
      role: "assistant",
      content: [
        { type: "reasoning", text: "thinking", providerOptions: { openai: { itemId: "rs_1" } } },
        { type: "text", text: "I will read it.", providerOptions: { openai: { itemId: "msg_1" } } },
        { type: "tool-call", toolCallId: "call_1", toolName: "Read", input: { file_path: "a" } },
      ],
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "call_1",
          toolName: "Read",
          output: { type: "text", value: "x" },
        },
        {
          type: "tool-result",
          toolCallId: "call_2",
          toolName: "Bash",
          output: { type: "error-text", value: "boom" },
        },
        {
          type: "tool-result",
          toolCallId: "call_3",
          toolName: "T",
          output: { type: "json", value: { a: 1 } },
        },
      ],
    },
  ];
  for (const message of messages) expect(roundTrip(message)).toEqual(message);
});

test("Claude Code's shape: tool_use on the assistant, tool_result on a user line", () => {
  const assistant = blocksOfMessage({
    role: "assistant",
    content: [{ type: "tool-call", toolCallId: "c", toolName: "Bash", input: { command: "ls" } }],
  });
  expect(assistant).toMatchObject({
    type: "assistant",
    message: {
      role: "assistant",
      content: [{ type: "tool_use", id: "c", name: "Bash", input: { command: "ls" } }],
    },
  });
  const tool = blocksOfMessage({
    role: "tool",
    content: [
      {
        type: "tool-result",
        toolCallId: "c",
        toolName: "Bash",
        output: { type: "text", value: "out" },
      },
    ],
  });
  expect(tool).toMatchObject({
    type: "user",
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: "c", content: "out" }] },
  });
});

test("a line with blocks acai did not write is not a message", () => {
  const line = ConversationLineSchema.parse({
    type: "assistant",
    message: { role: "assistant", content: [{ type: "mystery" }] },
  });
  expect(messageOfLine(line)).toBeUndefined();
});
