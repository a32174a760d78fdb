/**
 * A persistent hook's answer line is read for the event its request asked
 * about, as a spawned hook's stdout is: A3S's `modified` is the tool's result
 * on after_tool, the prompt on before_model, the input on before_tool.
 */
import { describe, expect, it } from "vitest";
import type { HookEventName } from "../../../../source/hooks/contract/definition.js";
import { readAnswerLine } from "../../../../source/hooks/run/persistent/protocol.js";

const answer = (modified: Record<string, unknown>) =>
  JSON.stringify({ id: 3, action: "Continue", modified });

describe("readAnswerLine", () => {
  it("reads A3S's modified for the event of the request's id", () => {
    const on = (event: HookEventName) => (id: number) => (id === 3 ? event : undefined);
    expect(readAnswerLine(answer({ output: "cut" }), on("after_tool"))).toMatchObject({
      kind: "answer",
      id: 3,
      decision: { action: "modify", output: "cut" },
    });
    expect(readAnswerLine(answer({ prompt: "new" }), on("before_model"))).toMatchObject({
      decision: { action: "modify", prompt: "new" },
    });
    expect(readAnswerLine(answer({ command: "ls" }), on("before_tool"))).toMatchObject({
      decision: { action: "modify", input: { command: "ls" } },
    });
  });

  it("a modified PostToolUse result without an output is a failure, not a silent continue", () => {
    const line = readAnswerLine(answer({ text: "cut" }), () => "after_tool");
    expect(line).toMatchObject({ kind: "answer", decision: { action: "failed" } });
  });

  it("reads the usual answer, the id alone, as a plain continue, and anything near it as JSON would", () => {
    const read = (line: string) => readAnswerLine(line);
    const go = (id: number) => ({ kind: "answer", id, decision: { action: "continue" } });
    expect(read('{"id":7}')).toEqual(go(7));
    expect(read('{"id": 7}')).toEqual(go(7));
    expect(read('{"id":0}')).toEqual(go(0));
    expect(read('{"id":999999999999999}')).toEqual(go(999_999_999_999_999));
    expect(read(' {"id":7} ')).toEqual(go(7));
    expect(read('{"id":"7"}')).toEqual(go(7));
    expect(read('{"id":1e1}')).toEqual(go(10));
    expect(read('{"id":07}')).toMatchObject({ kind: "garbage" });
    expect(read('{"id":9007199254740993}')).toMatchObject({ kind: "garbage" });
    expect(read('{"id":-1}')).toEqual(go(-1));
    expect(read('{"id":7,"action":"block","reason":"no"}')).toMatchObject({
      kind: "answer",
      id: 7,
      decision: { action: "block", reason: "no" },
    });
  });
});
