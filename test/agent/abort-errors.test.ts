import { describe, expect, test } from "vitest";
import type { AgentEvent } from "../../source/agent/events.js";
import type { TurnInput } from "../../source/agent/types.js";
import { startFakeOpenAI } from "../support/fake-openai-server.js";
import {
  type Api,
  agentFixture,
  drive,
  makeAgent,
  ofType,
  prompts,
  requestText,
  types,
} from "./helpers.js";

const fx = agentFixture();

/** Drives a run fully and also checks nothing comes after session_end. */
async function driveChecked(...args: Parameters<typeof drive>): Promise<AgentEvent[]> {
  const events = await drive(...args);
  expect(events.at(-1)?.type).toBe("session_end");
  expect(ofType(events, "session_end")).toHaveLength(1);
  return events;
}

describe.each<Api>(["chat", "responses"])("abort over the %s API", (api) => {
  test("aborting mid-stream ends the turn and the session at once", async () => {
    fx.server = await startFakeOpenAI([{ text: "partial answer that stalls", hangMs: 10_000 }]);
    const controller = new AbortController();
    const started = Date.now();
    const events = await driveChecked(
      makeAgent(fx.server, api, fx.dir),
      { prompts: prompts("go"), signal: controller.signal },
      (e) => {
        if (e.type === "text_delta") controller.abort();
        return undefined;
      },
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(types(events).slice(-2)).toEqual(["turn_end", "session_end"]);
    expect(ofType(events, "turn_end")[0]?.stopReason).toBe("aborted");
    expect(ofType(events, "session_end")[0]?.reason).toBe("aborted");
    expect(ofType(events, "model_response")).toHaveLength(0);
  });

  test("aborting mid-tool interrupts the tool; nothing follows session_end", async () => {
    fx.server = await startFakeOpenAI([
      {
        toolCalls: [
          { name: "Slow", input: { ms: 20_000 } },
          { name: "Echo", input: { text: "later" } },
        ],
      },
      { text: "never" },
    ]);
    const controller = new AbortController();
    const started = Date.now();
    const events = await driveChecked(
      makeAgent(fx.server, api, fx.dir),
      { prompts: prompts("go", "next"), signal: controller.signal },
      (e) => {
        if (e.type === "tool_call_start") setTimeout(() => controller.abort(), 30);
        return undefined;
      },
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    const error = ofType(events, "tool_call_error")[0];
    expect(error).toMatchObject({ toolName: "Slow", interrupted: true, blocked: false });
    expect(ofType(events, "tool_call_start")).toHaveLength(1);
    expect(types(events).slice(-2)).toEqual(["turn_end", "session_end"]);
    expect(ofType(events, "turn_end")[0]?.stopReason).toBe("aborted");
    expect(ofType(events, "session_end")[0]?.reason).toBe("aborted");
    expect(fx.server.requests).toHaveLength(1);
  });
});

describe("turn and run signals", () => {
  test("a turn signal aborts only that turn; the next prompt runs", async () => {
    fx.server = await startFakeOpenAI([
      { text: "stalling here", hangMs: 10_000 },
      { text: "second turn ok" },
    ]);
    const turnController = new AbortController();
    const input: TurnInput[] = [
      { prompt: "first", signal: turnController.signal },
      { prompt: "second" },
    ];
    const events = await driveChecked(
      makeAgent(fx.server, "chat", fx.dir),
      { prompts: input },
      (e) => {
        if (e.type === "text_delta" && e.turn === 1) turnController.abort();
        return undefined;
      },
    );
    expect(ofType(events, "turn_end").map((e) => e.stopReason)).toEqual(["aborted", "end_turn"]);
    expect(ofType(events, "turn_end")[1]?.text).toBe("second turn ok");
    expect(ofType(events, "session_end")[0]?.reason).toBe("completed");
    expect(requestText(fx.server.requests[1]?.body)).toContain("second");
  });

  test("aborting while waiting for the next prompt ends the session", async () => {
    fx.server = await startFakeOpenAI([{ text: "one" }]);
    const controller = new AbortController();
    async function* queue(): AsyncGenerator<TurnInput> {
      yield { prompt: "first" };
      await new Promise(() => {}); // the user never types again
    }
    const events = await driveChecked(
      makeAgent(fx.server, "chat", fx.dir),
      { prompts: queue(), signal: controller.signal },
      (e) => {
        if (e.type === "turn_end") setTimeout(() => controller.abort(), 20);
        return undefined;
      },
    );
    expect(types(events).slice(-2)).toEqual(["turn_end", "session_end"]);
    expect(ofType(events, "session_end")[0]?.reason).toBe("aborted");
  });

  test("aborting during a hook-requested retry wait ends the turn", async () => {
    fx.server = await startFakeOpenAI([{ text: "never" }]);
    const controller = new AbortController();
    const started = Date.now();
    const events = await driveChecked(
      makeAgent(fx.server, "chat", fx.dir),
      { prompts: prompts("go"), signal: controller.signal },
      (e) => {
        if (e.type !== "model_request") return undefined;
        setTimeout(() => controller.abort(), 20);
        return { action: "retry", afterMs: 10_000 };
      },
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(ofType(events, "turn_end")[0]?.stopReason).toBe("aborted");
    expect(fx.server.requests).toHaveLength(0);
  });

  test("a consumer that stops iterating early does not leave the stream running", async () => {
    fx.server = await startFakeOpenAI([{ text: "stalling", hangMs: 10_000 }]);
    const gen = makeAgent(fx.server, "chat", fx.dir).run({ prompts: prompts("go") });
    for await (const event of gen) {
      if (event.type === "text_delta") break;
    }
    // The server sees the client go away (its stall ends) well before hangMs.
    const started = Date.now();
    await fx.server.close();
    fx.server = undefined;
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe.each<Api>(["chat", "responses"])("provider errors over the %s API", (api) => {
  test.each([
    [401, /refused the API key \(401\).*OPENAI_API_KEY/],
    [500, /failed \(500\)/],
    [404, /\(404\).*--model/],
  ])(
    "HTTP %d becomes an error event and turn_end error, and the session goes on",
    async (status, pattern) => {
      fx.server = await startFakeOpenAI([{ status }, { text: "recovered" }]);
      const events = await driveChecked(makeAgent(fx.server, api, fx.dir), {
        prompts: prompts("one", "two"),
      });
      const error = ofType(events, "error")[0];
      expect(error?.message).toMatch(pattern);
      expect(error?.message).not.toContain("\n");
      expect(error?.turn).toBe(1);
      expect(ofType(events, "turn_end").map((e) => e.stopReason)).toEqual(["error", "end_turn"]);
      expect(ofType(events, "turn_end")[0]?.message).toBe(error?.message);
      expect(ofType(events, "session_end")[0]?.reason).toBe("completed");
    },
  );

  test("429 is retried by the SDK, then reported with the attempt count", async () => {
    fx.server = await startFakeOpenAI(() => ({ status: 429, retryAfterMs: 20 }));
    const events = await driveChecked(makeAgent(fx.server, api, fx.dir, { maxModelRetries: 2 }), {
      prompts: prompts("one"),
    });
    expect(fx.server.requests).toHaveLength(3);
    expect(ofType(events, "error")[0]?.message).toMatch(
      /rate-limiting requests \(429\) after 3 attempts/,
    );
    expect(ofType(events, "turn_end")[0]?.stopReason).toBe("error");
  });
});

test("a refused connection is reported with what to check", async () => {
  const closed = await startFakeOpenAI([]);
  await closed.close();
  const events = await driveChecked(makeAgent(closed, "chat", fx.dir), { prompts: prompts("one") });
  const message = ofType(events, "error")[0]?.message ?? "";
  expect(message).toContain("ECONNREFUSED");
  expect(message).toContain("--base-url");
  expect(ofType(events, "turn_end")[0]?.stopReason).toBe("error");
});
