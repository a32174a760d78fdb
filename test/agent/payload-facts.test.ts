/**
 * What the agent tells hooks beyond the basics (issue 10 item 5): the model
 * request's system prompt, tools and message count; the session's provider;
 * its totals at the end; and why the model's turn would end.
 */
import { describe, expect, test } from "vitest";
import { startFakeOpenAI } from "../support/fake-openai-server.js";
import { agentFixture, drive, makeAgent, ofType, prompts } from "./helpers.js";

const fx = agentFixture();
const echoTurn = (text: string) => ({ toolCalls: [{ name: "Echo", input: { text } }] });

describe("payload facts", () => {
  test("model_request carries the system prompt, the tools and the message count; session_start the provider", async () => {
    fx.server = await startFakeOpenAI([echoTurn("a"), { text: "done" }]);
    const events = await drive(
      makeAgent(fx.server, "chat", fx.dir, { systemPrompt: "SYSTEM TEXT" }),
      { prompts: prompts("hello") },
      () => undefined,
    );
    expect(ofType(events, "session_start")[0]?.modelProvider).toBe("openai");
    const requests = ofType(events, "model_request");
    expect(requests[0]).toMatchObject({ systemPrompt: "SYSTEM TEXT", messageCount: 1 });
    expect(requests[0]?.availableTools).toContain("Echo");
    // prompt, assistant tool call, tool result
    expect(requests[1]?.messageCount).toBe(3);
  });

  test("session_end carries the session's steps, tool calls, usage and duration", async () => {
    fx.server = await startFakeOpenAI([
      { ...echoTurn("a"), usage: { inputTokens: 100, outputTokens: 7 } },
      { text: "one", usage: { inputTokens: 120, outputTokens: 3 } },
      { text: "two", usage: { inputTokens: 130, outputTokens: 2 } },
    ]);
    let clock = 1_000;
    const events = await drive(
      makeAgent(fx.server, "chat", fx.dir, { now: () => (clock += 10) }),
      { prompts: prompts("first", "second") },
      () => undefined,
    );
    const end = ofType(events, "session_end")[0];
    expect(end?.totals).toMatchObject({
      steps: 3,
      toolCalls: 1,
      usage: { inputTokens: 350, outputTokens: 12, totalTokens: 362 },
    });
    expect(end?.totals?.durationMs).toBeGreaterThan(0);
  });

  test("stop_request says end_turn, tool_rejected after refused tool calls, and fires at max_steps", async () => {
    fx.server = await startFakeOpenAI([{ text: "plain" }, echoTurn("x"), { text: "gave up" }]);
    const events = await drive(
      makeAgent(fx.server, "chat", fx.dir),
      { prompts: prompts("one", "two") },
      (e) =>
        e.type === "tool_call_start" ? { action: "block", reason: "not allowed" } : undefined,
    );
    expect(ofType(events, "stop_request").map((e) => e.stopReason)).toEqual([
      "end_turn",
      "tool_rejected",
    ]);

    fx.server = await startFakeOpenAI([echoTurn("1"), echoTurn("2"), echoTurn("3")]);
    const limited = await drive(
      makeAgent(fx.server, "chat", fx.dir, { maxSteps: 2 }),
      { prompts: prompts("loop") },
      (e) => (e.type === "stop_request" ? { action: "block", reason: "keep going" } : undefined),
    );
    const stops = ofType(limited, "stop_request");
    expect(stops).toHaveLength(1);
    expect(stops[0]).toMatchObject({ stopReason: "max_steps", step: 2 });
    // A block cannot extend the turn past the limit: acai stops anyway and says so.
    expect(ofType(limited, "turn_end")[0]?.stopReason).toBe("max_steps");
    expect(
      ofType(limited, "warning")
        .map((w) => w.message)
        .join("\n"),
    ).toContain("blocked at the step limit");
    expect(fx.server.requests).toHaveLength(2);
  });
});
