import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { StopReason } from "../../source/agent/event-data.js";
import type { InterceptedEvent } from "../../source/hooks/run/activity.js";
import { modelPrice } from "../../source/models/pricing.js";
import { replOptionsFromCli } from "../../source/repl/cli-adapter.js";
import { StatusLine } from "../../source/repl/components/StatusLine.js";
import { initialViewState, reduce, type ViewState } from "../../source/repl/state.js";
import type { SessionModules } from "../../source/repl/types.js";
import type { PreparedSession } from "../../source/session/types.js";
import { render } from "../support/ink-render.js";

const usage = (i: number, o: number) => ({ inputTokens: i, outputTokens: o, totalTokens: i + o });
const GPT5 = { inputPerMTok: 1.25, outputPerMTok: 10 };

function session(state: ViewState, model: string, price?: typeof GPT5): ViewState {
  return reduce(state, { type: "session", model, sessionId: "s", ...(price ? { price } : {}) });
}

function turn(
  state: ViewState,
  n: number,
  u: ReturnType<typeof usage>,
  stop: StopReason = "end_turn",
) {
  const events: InterceptedEvent[] = [
    { type: "user_prompt", turn: n, prompt: `p${n}` },
    {
      type: "model_response",
      turn: n,
      step: 1,
      model: "m",
      text: "",
      toolCalls: [],
      usage: u,
      finishReason: "stop",
      durationMs: 1,
    },
    { type: "turn_end", turn: n, stopReason: stop, text: "", usage: u },
  ];
  events.forEach((event, i) => {
    state = reduce(state, { type: "event", event, at: 1000 * n + 500 * i });
  });
  return state;
}

const line = (view: ViewState, busy = false) =>
  render(<StatusLine view={view} busy={busy} queued={0} />).lastFrame() ?? "";

describe("cost per turn and per session", () => {
  it("adds up the cost of priced turns and shows turn and session cost", () => {
    let s = session(initialViewState(), "gpt-5.1", GPT5);
    expect(line(s)).toContain("session 0 tok $0.00");
    s = turn(s, 1, usage(8000, 450));
    expect(s.lastTurn?.costUsd).toBeCloseTo(0.0145, 10);
    s = turn(s, 2, usage(10_000, 1000));
    expect(s.sessionCostUsd).toBeCloseTo(0.0145 + 0.0225, 10);
    const text = line(s);
    expect(text).toContain("last turn 1.0s ↑10k ↓1.0k $0.0225");
    expect(text).toContain("session 19k tok $0.0370");
  });

  it("shows the running turn's cost from the usage reported so far", () => {
    let s = session(initialViewState(), "gpt-5.1", GPT5);
    s = reduce(s, { type: "event", event: { type: "user_prompt", turn: 1, prompt: "p" }, at: 1 });
    s = reduce(s, {
      type: "event",
      event: {
        type: "model_response",
        turn: 1,
        step: 1,
        model: "gpt-5.1",
        text: "",
        toolCalls: [],
        usage: usage(4000, 100),
        finishReason: "tool-calls",
        durationMs: 1,
      },
      at: 2,
    });
    expect(line(s, true)).toContain("↑4.0k ↓100 $0.0060");
  });

  it("an unpriced model (local server, replay) shows no cost, and the session cost is dropped once one ran", () => {
    let s = session(initialViewState(), "llama3.1");
    s = turn(s, 1, usage(500, 20));
    expect(s.lastTurn?.costUsd).toBeUndefined();
    expect(line(s)).not.toContain("$");

    // Priced first, then /model to an unpriced one: a partial total would be wrong.
    let t = session(initialViewState(), "gpt-5.1", GPT5);
    t = turn(t, 1, usage(8000, 450));
    t = session(t, "replay:demo.json");
    expect(t.price).toBeUndefined();
    t = turn(t, 2, usage(100, 10));
    expect(t.sessionCostUsd).toBeNull();
    expect(line(t)).not.toContain("$");
  });

  it("a turn that ends other than normally records its cost on the turn line", () => {
    let s = session(initialViewState(), "gpt-5.1", GPT5);
    s = turn(s, 1, usage(8000, 450), "max_steps");
    const item = s.items.find((i) => i.kind === "turn");
    expect(item?.kind === "turn" ? item.costUsd : undefined).toBeCloseTo(0.0145, 10);
  });

  it("/clear keeps the model's price and starts the session cost over", () => {
    let s = session(initialViewState(), "gpt-5.1", GPT5);
    s = turn(s, 1, usage(8000, 450));
    s = reduce(s, { type: "clear" });
    expect(s.price).toEqual(GPT5);
    expect(s.sessionCostUsd).toBe(0);
  });
});

describe("the CLI's pricing: OpenAI's list price only against OpenAI's API", () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  async function priceWith(over: {
    baseUrl?: string;
    env?: Record<string, string>;
    /** The settings in effect, as the prepared session reports them. */
    settings?: PreparedSession["settings"];
    model?: string;
  }) {
    const dir = await mkdtemp(path.join(os.tmpdir(), "acai-repl-cost-"));
    dirs.push(dir);
    const acaiHome = path.join(dir, "acai-home");
    const project = path.join(dir, "project");
    await mkdir(acaiHome);
    await mkdir(project);
    const options = replOptionsFromCli({
      cwd: project,
      env: { ACAI_HOME: acaiHome, ...over.env },
      homeDir: dir,
      flags: { projectHooks: "require-trust", ...(over.baseUrl ? { baseUrl: over.baseUrl } : {}) },
      // Only the pricing is asked for here: the session's other modules stay unloaded.
      sessionModules: async () => ({ modelPrice }) as unknown as SessionModules,
    });
    const prepared = {
      modelId: over.model ?? "gpt-5.1",
      settings: over.settings ?? {},
    } as PreparedSession;
    return options.pricing?.(prepared);
  }

  it("prices gpt-5.1 with no base URL, and not replay", async () => {
    expect(await priceWith({})).toEqual(GPT5);
    expect(await priceWith({ model: "replay:examples/replay/demo.json" })).toBeUndefined();
  });

  it("no price with --base-url, a baseUrl setting or OPENAI_BASE_URL pointing elsewhere", async () => {
    expect(await priceWith({ baseUrl: "http://127.0.0.1:11434/v1" })).toBeUndefined();
    expect(
      await priceWith({ env: { OPENAI_BASE_URL: "http://127.0.0.1:8080/v1" } }),
    ).toBeUndefined();
    expect(await priceWith({ settings: { baseUrl: "http://127.0.0.1:1234/v1" } })).toBeUndefined();
    expect(await priceWith({ baseUrl: "https://api.openai.com/v1" })).toEqual(GPT5);
  });

  it("settings `pricing` prices a local model and overrides the list price", async () => {
    const pricing = { "my-model": { input: 0.5, output: 1.5 }, "gpt-5.1": { input: 1, output: 2 } };
    const local = "http://127.0.0.1:11434/v1";
    expect(await priceWith({ model: "my-model", baseUrl: local, settings: { pricing } })).toEqual({
      inputPerMTok: 0.5,
      outputPerMTok: 1.5,
    });
    expect(await priceWith({ settings: { pricing } })).toEqual({
      inputPerMTok: 1,
      outputPerMTok: 2,
    });
    expect(await priceWith({ model: "my-model", baseUrl: local })).toBeUndefined();
  });
});
