import { describe, expect, test } from "vitest";
import { startFakeOpenAI } from "../support/fake-openai-server.js";
import {
  type Api,
  agentFixture,
  drive,
  makeAgent,
  ofType,
  prompts,
  readTranscript,
  requestText,
  toolOutputs,
  types,
} from "./helpers.js";

const fx = agentFixture();

describe.each<Api>(["chat", "responses"])("agent loop over the %s API", (api) => {
  test("runs a multi-step tool loop and sends tool results back to the model", async () => {
    fx.server = await startFakeOpenAI([
      {
        text: "Let me echo.",
        toolCalls: [
          { name: "Echo", input: { text: "one" } },
          { name: "Echo", input: { text: "two" } },
        ],
      },
      {
        toolCalls: [{ name: "Echo", input: { text: "three" } }],
        usage: { inputTokens: 20, outputTokens: 7 },
      },
      { text: "All echoed." },
    ]);
    const agent = makeAgent(fx.server, api, fx.dir);
    const events = await drive(agent, { prompts: prompts("echo three things") });

    expect(types(events)).toEqual([
      "session_start",
      "user_prompt",
      "turn_start",
      "step_start",
      "model_request",
      "model_response",
      "output",
      "tool_call_start",
      "tool_call_end",
      "tool_call_start",
      "tool_call_end",
      "tool_batch_end",
      "step_end",
      "step_start",
      "model_request",
      "model_response",
      "tool_call_start",
      "tool_call_end",
      "tool_batch_end",
      "step_end",
      "step_start",
      "model_request",
      "model_response",
      "output",
      "step_end",
      "stop_request",
      "turn_end",
      "session_end",
    ]);
    const deltas = ofType(events, "text_delta").map((e) => e.text);
    expect(deltas.join("")).toBe("Let me echo.All echoed.");
    expect(deltas.length).toBeGreaterThan(2);

    const ends = ofType(events, "tool_call_end");
    expect(ends.map((e) => e.output)).toEqual(["echo: one", "echo: two", "echo: three"]);
    // One tool_batch_end per step that ran tools, with every call of the step and its result.
    const batches = ofType(events, "tool_batch_end");
    expect(batches.map((b) => b.calls.map((c) => [c.toolName, c.result, c.isError]))).toEqual([
      [
        ["Echo", "echo: one", false],
        ["Echo", "echo: two", false],
      ],
      [["Echo", "echo: three", false]],
    ]);
    expect(ends[0]?.response).toEqual({ echoed: "one" });

    const firstResponse = ofType(events, "model_response")[0]!;
    expect(firstResponse.toolCalls.map((c) => c.input)).toEqual([{ text: "one" }, { text: "two" }]);
    expect(firstResponse.finishReason).toBe("tool-calls");
    expect(firstResponse.usage).toEqual({ inputTokens: 10, outputTokens: 5, totalTokens: 15 });

    const turnEnd = ofType(events, "turn_end")[0]!;
    expect(turnEnd).toMatchObject({ stopReason: "end_turn", text: "All echoed." });
    expect(turnEnd.usage).toEqual({ inputTokens: 40, outputTokens: 17, totalTokens: 57 });
    expect(ofType(events, "session_end")[0]?.reason).toBe("completed");

    expect(fx.server.requests).toHaveLength(3);
    expect(requestText(fx.server.requests[0]?.body)).toContain("echo three things");
    expect(requestText(fx.server.requests[0]?.body)).toContain("You are acai");
    const second = toolOutputs(fx.server.requests[1]?.body);
    expect(Object.values(second)).toEqual(["echo: one", "echo: two"]);
    expect(Object.values(toolOutputs(fx.server.requests[2]?.body))).toContain("echo: three");
    expect(fx.server.requests[0]?.path).toBe(
      api === "chat" ? "/v1/chat/completions" : "/v1/responses",
    );
  });

  test("tool errors, unknown tools and invalid inputs go back to the model as text", async () => {
    fx.server = await startFakeOpenAI([
      {
        toolCalls: [
          { name: "Fail", input: {} },
          { name: "Throw", input: {} },
          { name: "NoSuchTool", input: {} },
          { name: "Echo", input: { text: 42 } },
          { name: "Echo", input: {}, rawArguments: "{not json" },
        ],
      },
      { text: "done" },
    ]);
    const events = await drive(makeAgent(fx.server, api, fx.dir), {
      prompts: prompts("try things"),
    });
    const errors = ofType(events, "tool_call_error");
    expect(errors.map((e) => e.toolName)).toEqual(["Fail", "Throw", "NoSuchTool", "Echo", "Echo"]);
    expect(errors.every((e) => !e.blocked && !e.interrupted)).toBe(true);
    expect(errors[0]?.error).toBe("Fail went wrong on purpose");
    expect(errors[1]?.error).toContain("thrown inside the tool");
    expect(errors[2]?.error).toContain('no tool named "NoSuchTool"');
    expect(errors[3]?.error).toMatch(/Invalid input for Echo: text: .*string/);
    expect(errors[4]?.error).toContain("not valid JSON");
    // Invalid calls never reach tool_call_start.
    expect(ofType(events, "tool_call_start").map((e) => e.toolName)).toEqual(["Fail", "Throw"]);

    const outputs = Object.values(toolOutputs(fx.server.requests[1]?.body));
    expect(outputs).toHaveLength(5);
    expect(outputs[0]).toContain("Fail went wrong on purpose");
    expect(outputs[2]).toContain("NoSuchTool");
    expect(outputs[3]).toContain("Invalid input for Echo");
    expect(ofType(events, "turn_end")[0]?.stopReason).toBe("end_turn");
  });

  test("max_steps ends the turn and answers pending tool calls", async () => {
    fx.server = await startFakeOpenAI(() => ({
      toolCalls: [{ name: "Echo", input: { text: "again" } }],
    }));
    const events = await drive(makeAgent(fx.server, api, fx.dir, { maxSteps: 3 }), {
      prompts: prompts("loop forever", "second prompt"),
    });
    const ends = ofType(events, "turn_end");
    expect(ends[0]).toMatchObject({ stopReason: "max_steps", steps: 3 });
    expect(ends[0]?.message).toContain("3");
    expect(ofType(events, "model_request").filter((e) => e.turn === 1)).toHaveLength(3);
    // The second turn's first request carries the whole, consistent history.
    expect(fx.server.requests).toHaveLength(6);
    const body = requestText(fx.server.requests[3]?.body);
    expect(body).toContain("loop forever");
    expect(body).toContain("second prompt");
    expect(Object.keys(toolOutputs(fx.server.requests[3]?.body))).toHaveLength(3);
  });

  test("several prompts are turns of one session and the transcript records events and verdicts", async () => {
    fx.server = await startFakeOpenAI([{ text: "first answer" }, { text: "second answer" }]);
    const agent = makeAgent(fx.server, api, fx.dir);
    const events = await drive(agent, { prompts: prompts("hello", "and again") }, (event) =>
      event.type === "user_prompt" && event.turn === 2
        ? { action: "continue", context: ["ctx-for-turn-2"] }
        : undefined,
    );
    const turnEnds = ofType(events, "turn_end");
    expect(turnEnds.map((e) => [e.turn, e.text])).toEqual([
      [1, "first answer"],
      [2, "second answer"],
    ]);
    const second = requestText(fx.server.requests[1]?.body);
    // The Responses API (store on, as for api.openai.com) refers to earlier output items by id.
    expect(second).toContain(api === "chat" ? "first answer" : '"item_reference","id":"msg_1"');
    expect(second).toContain("and again");
    expect(second).toContain("<system-reminder>\\nctx-for-turn-2\\n</system-reminder>");

    const lines = await readTranscript(`${fx.dir}/home/transcripts/session-test.jsonl`);
    const eventLines = lines.filter((l) => "event" in l);
    expect(eventLines).toHaveLength(events.length);
    expect(eventLines.at(-1)?.event).toMatchObject({ type: "session_end" });
    expect(typeof eventLines[0]?.time).toBe("string");
    const verdicts = lines.filter((l) => "verdict" in l);
    expect(verdicts).toEqual([
      expect.objectContaining({
        for: "user_prompt",
        verdict: { action: "continue", context: ["ctx-for-turn-2"] },
      }),
    ]);
  });
});

test("an unwritable transcript is a warning, not a crash", async () => {
  fx.server = await startFakeOpenAI([{ text: "still answers" }]);
  const { writeFile } = await import("node:fs/promises");
  await writeFile(`${fx.dir}/not-a-dir`, "x");
  const agent = makeAgent(fx.server, "chat", fx.dir, {
    transcriptPath: `${fx.dir}/not-a-dir/t.jsonl`,
  });
  const events = await drive(agent, { prompts: prompts("hi") });
  expect(ofType(events, "turn_end")[0]?.text).toBe("still answers");
  const warning = ofType(events, "warning")[0];
  expect(warning?.message).toContain("not-a-dir/t.jsonl");
  expect(events.at(-1)).toMatchObject({ type: "session_end", reason: "completed" });
});

test("session_end gives the caller's endReason when the prompts run out, asked at that moment", async () => {
  fx.server = await startFakeOpenAI([{ text: "one" }, { text: "two" }]);
  const agent = makeAgent(fx.server, "chat", fx.dir);
  let left = false;
  const events = await drive(
    agent,
    { prompts: prompts("hi"), endReason: () => (left ? "user_exit" : "completed") },
    (event) => {
      if (event.type === "turn_end") left = true;
      return undefined;
    },
  );
  expect(events.at(-1)).toMatchObject({ type: "session_end", reason: "user_exit" });
  const plain = await drive(makeAgent(fx.server, "chat", fx.dir), { prompts: prompts("again") });
  expect(plain.at(-1)).toMatchObject({ type: "session_end", reason: "completed" });
});
