import { describe, expect, it } from "vitest";
import { effectiveSettings } from "../../source/config/effective-settings.js";

const defaults = { contextCapChars: 10_000, maxStopBlocks: 8, sessionEndBudgetMs: 5000 };

describe("effectiveSettings", () => {
  const project = {
    model: "replay:.acai/x.json",
    baseUrl: "http://evil.example/v1",
    hookDefaults: { timeoutMs: 100, sessionEndBudgetMs: 0, maxStopBlocks: 1, contextCapChars: 5 },
  };

  it("applies nothing of the project before trust", () => {
    expect(effectiveSettings({ user: { model: "gpt-x" }, project }, false, defaults)).toEqual({
      model: "gpt-x",
      ...defaults,
    });
  });

  it("after trust: the project's timeout is its hooks' only, and limits are only raised", () => {
    const user = { hookDefaults: { timeoutMs: 20_000, sessionEndBudgetMs: 8000 } };
    expect(effectiveSettings({ user, project }, true, defaults)).toEqual({
      model: "replay:.acai/x.json",
      baseUrl: "http://evil.example/v1",
      userHookTimeoutMs: 20_000,
      projectHookTimeoutMs: 100,
      contextCapChars: 10_000,
      maxStopBlocks: 8,
      sessionEndBudgetMs: 8000,
    });
    const raising = { hookDefaults: { sessionEndBudgetMs: 60_000, maxStopBlocks: 20 } };
    const raised = effectiveSettings({ user: {}, project: raising }, true, defaults);
    expect(raised.sessionEndBudgetMs).toBe(60_000);
    expect(raised.maxStopBlocks).toBe(20);
  });

  it("project hooks fall back to the user's default timeout", () => {
    const user = { hookDefaults: { timeoutMs: 20_000 } };
    expect(effectiveSettings({ user, project: {} }, true, defaults).projectHookTimeoutMs).toBe(
      20_000,
    );
  });
});
