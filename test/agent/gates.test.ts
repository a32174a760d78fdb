import { describe, expect, test } from "vitest";
import type { AgentEvent } from "../../source/agent/events.js";
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

const echoTurn = (text: string) => ({ toolCalls: [{ name: "Echo", input: { text } }] });

describe.each<Api>(["chat", "responses"])("gates over the %s API", (api) => {
  test("session_start: block refuses the session, context reaches the first request", async () => {
    fx.server = await startFakeOpenAI([{ text: "hi" }]);
    const refused = await drive(
      makeAgent(fx.server, api, fx.dir),
      { prompts: prompts("hello") },
      (e) => (e.type === "session_start" ? { action: "block", reason: "not today" } : undefined),
    );
    expect(types(refused)).toEqual(["session_start", "error", "session_end"]);
    expect(ofType(refused, "error")[0]?.message).toContain("not today");
    expect(ofType(refused, "session_end")[0]?.reason).toBe("error");
    expect(fx.server.requests).toHaveLength(0);

    const events = await drive(
      makeAgent(fx.server, api, fx.dir),
      { prompts: prompts("hello") },
      (e) =>
        e.type === "session_start"
          ? { action: "continue", context: ["branch is main"] }
          : undefined,
    );
    expect(ofType(events, "turn_end")[0]?.stopReason).toBe("end_turn");
    expect(requestText(fx.server.requests[0]?.body)).toContain(
      "<system-reminder>\\nbranch is main\\n</system-reminder>",
    );
  });

  test("user_prompt: block drops the prompt, continue.prompt replaces it", async () => {
    fx.server = await startFakeOpenAI([{ text: "answer" }]);
    const events = await drive(
      makeAgent(fx.server, api, fx.dir),
      { prompts: prompts("secret stuff", "original") },
      (e) => {
        if (e.type !== "user_prompt") return undefined;
        return e.turn === 1
          ? { action: "block", reason: "contains a secret" }
          : { action: "continue", prompt: "rewritten prompt", context: ["prompt context"] };
      },
    );
    const ends = ofType(events, "turn_end");
    expect(ends[0]).toMatchObject({ turn: 1, stopReason: "blocked", steps: 0 });
    expect(ends[1]).toMatchObject({ turn: 2, stopReason: "end_turn", steps: 1 });
    expect(ends[0]?.message).toContain("contains a secret");
    expect(ofType(events, "turn_start").map((e) => [e.turn, e.prompt])).toEqual([
      [2, "rewritten prompt"],
    ]);
    expect(fx.server.requests).toHaveLength(1);
    const body = requestText(fx.server.requests[0]?.body);
    expect(body).toContain("rewritten prompt");
    expect(body).toContain("prompt context");
    expect(body).not.toContain("original");
    expect(body).not.toContain("secret stuff");
  });

  test("user_prompt: a block's context is not sent with the blocked prompt; the next turn's request carries it once", async () => {
    fx.server = await startFakeOpenAI([{ text: "second answer" }, { text: "third answer" }]);
    await drive(
      makeAgent(fx.server, api, fx.dir),
      { prompts: prompts("forbidden words", "second prompt", "third prompt") },
      (e) =>
        e.type === "user_prompt" && e.turn === 1
          ? { action: "block", reason: "not this", context: ["the blocked prompt's note"] }
          : undefined,
    );
    expect(fx.server.requests).toHaveLength(2);
    const second = requestText(fx.server.requests[0]?.body);
    expect(second).toContain("second prompt");
    expect(second).toContain("the blocked prompt's note");
    expect(second).not.toContain("forbidden words");
    const third = requestText(fx.server.requests[1]?.body);
    expect(third.split("the blocked prompt's note").length - 1).toBe(1);
  });

  test("model_request: block ends the turn; retry waits and asks again; context reaches this request", async () => {
    fx.server = await startFakeOpenAI([{ text: "after retries" }]);
    let retries = 0;
    const started = Date.now();
    const events = await drive(
      makeAgent(fx.server, api, fx.dir),
      { prompts: prompts("blocked one", "retry one") },
      (e) => {
        if (e.type !== "model_request") return undefined;
        if (e.turn === 1) return { action: "block", reason: "budget exhausted" };
        if (retries < 2) {
          retries++;
          return { action: "retry", afterMs: 60, context: [`retry-context-${retries}`] };
        }
        return { action: "continue", context: ["request-context"] };
      },
    );
    const elapsed = Date.now() - started;
    const ends = ofType(events, "turn_end");
    expect(ends[0]).toMatchObject({ stopReason: "blocked" });
    expect(ends[0]?.message).toContain("budget exhausted");
    expect(ends[1]).toMatchObject({ stopReason: "end_turn", text: "after retries" });
    expect(ofType(events, "model_request").filter((e) => e.turn === 2)).toHaveLength(3);
    expect(elapsed).toBeGreaterThanOrEqual(120);
    expect(fx.server.requests).toHaveLength(1);
    const body = requestText(fx.server.requests[0]?.body);
    for (const text of ["retry-context-1", "retry-context-2", "request-context"])
      expect(body).toContain(text);
    // A blocked request leaves its prompt in the conversation (a later "continue" can pick it up).
    expect(body).toContain("blocked one");
  });

  test("model_request: endless retries are capped", async () => {
    fx.server = await startFakeOpenAI([{ text: "sent anyway" }]);
    const events = await drive(
      makeAgent(fx.server, api, fx.dir, { maxHookRetries: 2 }),
      { prompts: prompts("go") },
      (e) => (e.type === "model_request" ? { action: "retry", afterMs: 1 } : undefined),
    );
    expect(ofType(events, "model_request")).toHaveLength(3);
    expect(ofType(events, "warning")[0]?.message).toContain("retry");
    expect(ofType(events, "turn_end")[0]?.text).toBe("sent anyway");
  });

  test("model_response: block ends the turn before its tool calls run", async () => {
    fx.server = await startFakeOpenAI([echoTurn("never"), { text: "next turn works" }]);
    const events = await drive(
      makeAgent(fx.server, api, fx.dir),
      { prompts: prompts("one", "two") },
      (e) =>
        e.type === "model_response" && e.turn === 1
          ? { action: "block", reason: "token budget" }
          : undefined,
    );
    expect(ofType(events, "tool_call_start")).toHaveLength(0);
    expect(ofType(events, "turn_end").map((e) => e.stopReason)).toEqual(["blocked", "end_turn"]);
    // The dangling call is answered so the next request is valid.
    expect(Object.values(toolOutputs(fx.server.requests[1]?.body))[0]).toContain("Not run");
  });

  test("tool_call_start: block, replaced input, invalid replaced input", async () => {
    fx.server = await startFakeOpenAI([
      {
        toolCalls: [
          { name: "Echo", input: { text: "rm -rf /" } },
          { name: "Echo", input: { text: "a" } },
          { name: "Echo", input: { text: "b" } },
        ],
      },
      { text: "ok" },
    ]);
    const events = await drive(
      makeAgent(fx.server, api, fx.dir),
      { prompts: prompts("go") },
      (e) => {
        if (e.type !== "tool_call_start") return undefined;
        const text = (e.input as { text: string }).text;
        if (text === "rm -rf /")
          return { action: "block", reason: "destructive command", context: ["guard context"] };
        if (text === "a") return { action: "continue", input: { text: "patched" } };
        return { action: "continue", input: { text: 7 } };
      },
    );
    const errors = ofType(events, "tool_call_error");
    expect(errors[0]).toMatchObject({
      blocked: true,
      error: "destructive command",
      input: { text: "rm -rf /" },
    });
    expect(errors[1]).toMatchObject({ blocked: false, input: { text: 7 } });
    expect(errors[1]?.error).toContain("invalid");
    expect(ofType(events, "tool_call_end").map((e) => [e.input, e.output])).toEqual([
      [{ text: "patched" }, "echo: patched"],
    ]);

    const outputs = Object.values(toolOutputs(fx.server.requests[1]?.body));
    expect(outputs[0]).toContain("destructive command");
    expect(outputs[1]).toBe("echo: patched");
    expect(outputs[2]).toContain("replaced the input");
    expect(requestText(fx.server.requests[1]?.body)).toContain("guard context");

    const verdicts = (await readTranscript(`${fx.dir}/home/transcripts/session-test.jsonl`)).filter(
      (l) => "verdict" in l,
    );
    expect(verdicts.map((v) => [v.for, (v.verdict as { action: string }).action])).toEqual([
      ["tool_call_start", "block"],
      ["tool_call_start", "continue"],
      ["tool_call_start", "continue"],
    ]);
  });

  test("tool_call_end: replaced output and block reason reach the model", async () => {
    fx.server = await startFakeOpenAI([
      {
        toolCalls: [
          { name: "Echo", input: { text: "one" } },
          { name: "Echo", input: { text: "two" } },
        ],
      },
      { text: "ok" },
    ]);
    await drive(makeAgent(fx.server, api, fx.dir), { prompts: prompts("go") }, (e) => {
      if (e.type !== "tool_call_end") return undefined;
      return e.output === "echo: one"
        ? { action: "continue", output: "[redacted]", context: ["after-tool context"] }
        : { action: "block", reason: "lint failed on file" };
    });
    const outputs = Object.values(toolOutputs(fx.server.requests[1]?.body));
    expect(outputs[0]).toBe("[redacted]");
    expect(outputs[1]).toContain("echo: two");
    expect(outputs[1]).toContain("lint failed on file");
    expect(requestText(fx.server.requests[1]?.body)).toContain("after-tool context");
  });
});

describe("stop_request and stop verdicts", () => {
  test("a blocked stop becomes a user message and the agent goes on", async () => {
    fx.server = await startFakeOpenAI([{ text: "done?" }, { text: "now really done" }]);
    const seen: Extract<AgentEvent, { type: "stop_request" }>[] = [];
    const events = await drive(
      makeAgent(fx.server, "chat", fx.dir),
      { prompts: prompts("work") },
      (e) => {
        if (e.type !== "stop_request") return undefined;
        seen.push(e);
        return seen.length === 1
          ? { action: "block", reason: "tests are failing, fix them" }
          : undefined;
      },
    );
    expect(
      seen.map((e) => [e.stopHookActive, e.consecutiveBlocks, e.lastAssistantMessage]),
    ).toEqual([
      [false, 0, "done?"],
      [true, 1, "now really done"],
    ]);
    expect(ofType(events, "turn_end")[0]).toMatchObject({
      stopReason: "end_turn",
      text: "now really done",
    });
    expect(requestText(fx.server.requests[1]?.body)).toContain("tests are failing, fix them");
  });

  test("consecutive stop blocks are capped and the turn says so", async () => {
    fx.server = await startFakeOpenAI(() => ({ text: "trying to stop" }));
    const events = await drive(
      makeAgent(fx.server, "chat", fx.dir, { maxStopBlocks: 3 }),
      { prompts: prompts("work") },
      (e) => (e.type === "stop_request" ? { action: "block", reason: "not yet" } : undefined),
    );
    expect(ofType(events, "stop_request").map((e) => e.consecutiveBlocks)).toEqual([0, 1, 2]);
    const end = ofType(events, "turn_end")[0]!;
    expect(end.stopReason).toBe("stop_hook_limit");
    expect(end.message).toContain("3 times");
    expect(fx.server.requests).toHaveLength(3);
    expect(ofType(events, "session_end")[0]?.reason).toBe("completed");
  });

  test("stop at a tool gate ends the turn and the session; later prompts are not run", async () => {
    fx.server = await startFakeOpenAI([echoTurn("x"), { text: "never" }]);
    const events = await drive(
      makeAgent(fx.server, "chat", fx.dir),
      { prompts: prompts("one", "two") },
      (e) =>
        e.type === "tool_call_start" ? { action: "stop", reason: "emergency stop" } : undefined,
    );
    expect(types(events).slice(-2)).toEqual(["turn_end", "session_end"]);
    expect(ofType(events, "turn_end")[0]).toMatchObject({
      stopReason: "hook_stop",
      message: "emergency stop",
    });
    expect(ofType(events, "session_end")[0]?.reason).toBe("hook_stop");
    expect(ofType(events, "tool_call_end")).toHaveLength(0);
    expect(fx.server.requests).toHaveLength(1);
  });

  test("stop at session_start ends the session with a warning", async () => {
    fx.server = await startFakeOpenAI([{ text: "never" }]);
    const events = await drive(
      makeAgent(fx.server, "chat", fx.dir),
      { prompts: prompts("one") },
      (e) => (e.type === "session_start" ? { action: "stop", reason: "maintenance" } : undefined),
    );
    expect(types(events)).toEqual(["session_start", "warning", "session_end"]);
    expect(ofType(events, "session_end")[0]?.reason).toBe("hook_stop");
    expect(fx.server.requests).toHaveLength(0);
  });
});
