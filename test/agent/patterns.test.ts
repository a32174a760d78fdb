/** The agent's output and pattern events, and the bounded follow-up step for a pattern answered after the model finished. */
import { describe, expect, test } from "vitest";
import { startFakeOpenAI } from "../support/fake-openai-server.js";
import { agentFixture, drive, makeAgent, ofType, prompts, requestText, types } from "./helpers.js";

const fx = agentFixture();

describe("output and pattern events", () => {
  test("each complete message is an output event; each pattern line a pattern event", async () => {
    fx.server = await startFakeOpenAI([
      { text: "Shipping.\n@deploy:staging v1.2.3\n@memory:list" },
    ]);
    const events = await drive(makeAgent(fx.server, "chat", fx.dir), { prompts: prompts("go") });
    expect(ofType(events, "output").map((e) => e.text)).toEqual([
      "Shipping.\n@deploy:staging v1.2.3\n@memory:list",
    ]);
    expect(
      ofType(events, "pattern").map(({ namespace, target, message, line }) => ({
        namespace,
        target,
        message,
        line,
      })),
    ).toEqual([
      { namespace: "deploy", target: "staging", message: "v1.2.3", line: 2 },
      { namespace: "memory", target: "list", message: "", line: 3 },
    ]);
    // Unanswered patterns: the turn ends as usual, after output and patterns.
    expect(types(events).indexOf("output")).toBeGreaterThan(
      types(events).indexOf("model_response"),
    );
    expect(fx.server.requests).toHaveLength(1);
    expect(ofType(events, "turn_end")[0]?.stopReason).toBe("end_turn");
  });

  test("an answered pattern reaches the model; after the model finished, in a follow-up step", async () => {
    fx.server = await startFakeOpenAI([{ text: "@deploy:staging v1" }, { text: "thanks" }]);
    const events = await drive(
      makeAgent(fx.server, "chat", fx.dir),
      { prompts: prompts("go") },
      (e) => (e.type === "pattern" ? { action: "continue", context: ["deployed v1"] } : undefined),
    );
    expect(fx.server.requests).toHaveLength(2);
    expect(requestText(fx.server.requests[1]?.body)).toContain("deployed v1");
    expect(ofType(events, "stop_request")).toHaveLength(1);
    expect(ofType(events, "turn_end")[0]?.text).toBe("thanks");
  });

  test("follow-up steps are bounded per turn (a model answering itself cannot loop)", async () => {
    fx.server = await startFakeOpenAI(() => ({ text: "@ping:x again" }));
    const events = await drive(
      makeAgent(fx.server, "chat", fx.dir, { maxPatternFollowUps: 2 }),
      { prompts: prompts("go") },
      (e) => (e.type === "pattern" ? { action: "continue", context: ["pong"] } : undefined),
    );
    expect(fx.server.requests).toHaveLength(3);
    expect(ofType(events, "turn_end")[0]?.stopReason).toBe("end_turn");
  });
});
