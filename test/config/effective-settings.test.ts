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
      capabilities: {},
      memory: {},
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
      capabilities: {},
      memory: {},
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

  it("capabilities come from the user's file only; memory and idleMs from the project once trusted", () => {
    const user = { capabilities: { unlimitedInjection: true }, memory: { injectOnStart: 2 } };
    const granting = {
      capabilities: { unlimitedInjection: true },
      memory: { enabled: false },
      idleMs: 500,
    };
    expect(effectiveSettings({ user: {}, project: granting }, true, defaults).capabilities).toEqual(
      {},
    );
    const both = effectiveSettings({ user, project: granting }, true, defaults);
    expect(both.capabilities).toEqual({ unlimitedInjection: true });
    expect(both.memory).toEqual({ injectOnStart: 2, enabled: false });
    expect(both.idleMs).toBe(500);
    expect(effectiveSettings({ user, project: granting }, false, defaults).idleMs).toBeUndefined();
  });
});
