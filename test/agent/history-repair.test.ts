import type { ModelMessage } from "ai";
import { describe, expect, test } from "vitest";
import { errorResult, textResult } from "../../source/agent/history.js";
import {
  answerInterruptedCalls,
  INTERRUPTED_RESULT,
  interruptedNote,
} from "../../source/agent/history-repair.js";

const call = (toolCallId: string, toolName = "Bash") => ({
  type: "tool-call" as const,
  toolCallId,
  toolName,
  input: {},
});
const assistant = (...ids: string[]): ModelMessage => ({
  role: "assistant",
  content: [{ type: "text", text: "working" }, ...ids.map((id) => call(id))],
});
const tool = (...ids: string[]): ModelMessage => ({
  role: "tool",
  content: ids.map((id) => textResult(id, "Bash", `done ${id}`)),
});

describe("answerInterruptedCalls", () => {
  test("a history whose calls all have results is unchanged", () => {
    const messages: ModelMessage[] = [
      { role: "user", content: "go" },
      assistant("a", "b"),
      tool("a", "b"),
      { role: "assistant", content: "done" },
    ];
    expect(answerInterruptedCalls(messages)).toEqual({ messages, interrupted: [] });
  });

  test("the last call without a result (a killed session) gets an interrupted one", () => {
    const messages: ModelMessage[] = [{ role: "user", content: "go" }, assistant("a")];
    const repaired = answerInterruptedCalls(messages);
    expect(repaired.interrupted).toEqual([{ toolCallId: "a", toolName: "Bash" }]);
    expect(repaired.messages).toEqual([
      ...messages,
      { role: "tool", content: [errorResult("a", "Bash", INTERRUPTED_RESULT)] },
    ]);
  });

  test("a step with some results: the missing ones follow them, before the next message", () => {
    const messages: ModelMessage[] = [
      assistant("a", "b"),
      tool("a"),
      { role: "user", content: "later" },
    ];
    const repaired = answerInterruptedCalls(messages);
    expect(repaired.interrupted.map((c) => c.toolCallId)).toEqual(["b"]);
    expect(repaired.messages.map((m) => m.role)).toEqual(["assistant", "tool", "tool", "user"]);
    expect(repaired.messages[2]).toEqual({
      role: "tool",
      content: [errorResult("b", "Bash", INTERRUPTED_RESULT)],
    });
  });

  test("the note is one line naming the tools", () => {
    const note = interruptedNote("/t.jsonl", [
      { toolCallId: "a", toolName: "Bash" },
      { toolCallId: "b", toolName: "Write" },
    ]);
    expect(note.split("\n")).toHaveLength(1);
    expect(note).toContain("2 tool calls (Bash, Write)");
  });
});
