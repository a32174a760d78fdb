import { describe, expect, it } from "vitest";
import { costUsd, formatUsd, modelPrice, openAiPrice } from "../../source/models/pricing.js";

const usage = (i: number, o: number) => ({ inputTokens: i, outputTokens: o, totalTokens: i + o });

describe("model pricing", () => {
  it("knows the list prices of common OpenAI models on OpenAI's API", () => {
    expect(openAiPrice({ modelId: "gpt-5.1" })).toEqual({ inputPerMTok: 1.25, outputPerMTok: 10 });
    expect(openAiPrice({ modelId: "gpt-5-mini" })).toEqual({
      inputPerMTok: 0.25,
      outputPerMTok: 2,
    });
    expect(openAiPrice({ modelId: "gpt-5-nano" })).toEqual({
      inputPerMTok: 0.05,
      outputPerMTok: 0.4,
    });
    expect(openAiPrice({ modelId: "gpt-4.1-mini" })).toEqual({
      inputPerMTok: 0.4,
      outputPerMTok: 1.6,
    });
    expect(openAiPrice({ modelId: "gpt-4o" })).toEqual({ inputPerMTok: 2.5, outputPerMTok: 10 });
    expect(openAiPrice({ modelId: "gpt-4o-mini" })).toEqual({
      inputPerMTok: 0.15,
      outputPerMTok: 0.6,
    });
    expect(openAiPrice({ modelId: " GPT-5 " })).toEqual({ inputPerMTok: 1.25, outputPerMTok: 10 });
    expect(openAiPrice({ modelId: "gpt-5.1", baseUrl: "https://api.openai.com/v1" })).toBeDefined();
  });

  it("gives no price rather than a wrong one: unknown, snapshot, replay, local servers", () => {
    expect(openAiPrice({ modelId: "llama3.1:8b" })).toBeUndefined();
    expect(openAiPrice({ modelId: "gpt-4o-2024-05-13" })).toBeUndefined();
    expect(openAiPrice({ modelId: "replay:examples/replay/demo.json" })).toBeUndefined();
    expect(openAiPrice({ modelId: "toString" })).toBeUndefined();
    expect(
      openAiPrice({ modelId: "gpt-4o", baseUrl: "http://localhost:11434/v1" }),
    ).toBeUndefined();
    expect(openAiPrice({ modelId: "gpt-4o", baseUrl: "not a url" })).toBeUndefined();
    // An empty OPENAI_BASE_URL is no base URL.
    expect(openAiPrice({ modelId: "gpt-4o", baseUrl: "  " })).toBeDefined();
  });

  it("settings `pricing` wins over the built-in table, on any server; the table is the fallback", () => {
    const overrides = {
      "my-model": { input: 0.5, output: 1.5 },
      "gpt-5.1": { input: 1, output: 2 },
      "Qwen3-Coder": { input: 0, output: 0 },
    };
    const local = "http://localhost:11434/v1";
    expect(modelPrice({ modelId: "my-model", baseUrl: local, overrides })).toEqual({
      inputPerMTok: 0.5,
      outputPerMTok: 1.5,
    });
    expect(modelPrice({ modelId: "my-model", overrides })).toEqual({
      inputPerMTok: 0.5,
      outputPerMTok: 1.5,
    });
    expect(modelPrice({ modelId: "gpt-5.1", overrides })).toEqual({
      inputPerMTok: 1,
      outputPerMTok: 2,
    });
    expect(modelPrice({ modelId: "qwen3-coder ", baseUrl: local, overrides })).toEqual({
      inputPerMTok: 0,
      outputPerMTok: 0,
    });
    // Not overridden: OpenAI's list price, still only against OpenAI's API.
    expect(modelPrice({ modelId: "gpt-5-mini", overrides })).toEqual({
      inputPerMTok: 0.25,
      outputPerMTok: 2,
    });
    expect(modelPrice({ modelId: "gpt-5-mini", baseUrl: local, overrides })).toBeUndefined();
    expect(modelPrice({ modelId: "other", baseUrl: local, overrides })).toBeUndefined();
    expect(modelPrice({ modelId: "toString", overrides })).toBeUndefined();
    expect(modelPrice({ modelId: "gpt-4o" })).toEqual({ inputPerMTok: 2.5, outputPerMTok: 10 });
  });

  it("costs usage per million tokens, input and output apart", () => {
    const price = { inputPerMTok: 1.25, outputPerMTok: 10 };
    expect(costUsd(usage(1_000_000, 0), price)).toBeCloseTo(1.25, 10);
    expect(costUsd(usage(0, 1_000_000), price)).toBeCloseTo(10, 10);
    expect(costUsd(usage(8000, 450), price)).toBeCloseTo(0.0145, 10);
    expect(costUsd(usage(0, 0), price)).toBe(0);
  });

  it("formats dollars: 4 decimals under a dollar, 2 from a dollar on", () => {
    expect(formatUsd(0.0145)).toBe("$0.0145");
    expect(formatUsd(0.01234)).toBe("$0.0123");
    expect(formatUsd(0.00004)).toBe("<$0.0001");
    expect(formatUsd(0)).toBe("$0.00");
    expect(formatUsd(0.99996)).toBe("$1.00");
    expect(formatUsd(12.345)).toBe("$12.35");
    expect(formatUsd(Number.NaN)).toBe("$0.00");
  });
});
