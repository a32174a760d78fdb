/** step(): the pure fold of one answer into a gate's chain. */
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../source/agent/events.js";
import type { HookEventName } from "../../source/hooks/definition.js";
import { type Gate, settleAsk, startChain, step } from "../../source/hooks/step.js";
import { makeHook } from "./support.js";

const toolStart: AgentEvent = {
  type: "tool_call_start",
  turn: 1,
  step: 1,
  toolCallId: "c1",
  toolName: "Bash",
  input: { command: "ls" },
};

const gate = (overrides: Partial<Gate> = {}): Gate => ({
  event: "before_tool",
  agentEvent: toolStart,
  contextCapChars: 100,
  ...overrides,
});

describe("step", () => {
  it("folds a modification without touching the state it was given", () => {
    const state = startChain(gate());
    const hook = makeHook({ name: "m" });
    const next = step(state, hook, { action: "modify", inputPatch: { timeout: 5 }, context: "c" });
    expect(state.replaced).toEqual({});
    expect(state.context).toEqual([]);
    expect(next.state.replaced).toEqual({ toolInput: { command: "ls", timeout: 5 } });
    expect(next.state.context).toEqual(["c"]);
    expect(next.end).toBeUndefined();
    expect(next.notes).toEqual([]);
  });

  it("keeps the schema's value of a replaced input for the verdict, the hook's for later hooks", () => {
    const checked = { command: "ls -la", timeout: 120_000 };
    const g = gate({ validateToolInput: () => ({ ok: true, value: checked }) });
    const next = step(startChain(g), makeHook({ name: "m" }), {
      action: "modify",
      input: { command: "ls -la" },
    });
    expect(next.state.replaced).toEqual({
      toolInput: { command: "ls -la" },
      checkedToolInput: checked,
    });
    expect(next.state.replaced.checkedToolInput).toBe(checked);
  });

  it("refuses an input that fails the tool's schema, whatever the failure policy", () => {
    const g = gate({
      validateToolInput: (_tool, input) =>
        typeof (input as { command?: unknown }).command === "string"
          ? { ok: true }
          : { ok: false, error: "command: expected string" },
    });
    const hook = makeHook({ name: "lax", failure: "open" });
    const next = step(startChain(g), hook, { action: "modify", input: { command: 1 } });
    expect(next.answered.action).toBe("failed");
    expect(next.effective.action).toBe("block");
    expect(next.end).toMatchObject({ kind: "block" });
    expect(next.state.replaced).toEqual({});
    expect(next.notes[0]).toContain('hook "lax" replaced the input of this Bash call');
  });

  it("ends on block, skip and stop; honours retry only where the table says so", () => {
    const hook = makeHook({ name: "h" });
    const s = startChain(gate());
    expect(step(s, hook, { action: "block", reason: "no" }).end).toEqual({
      kind: "block",
      reason: "no",
    });
    expect(step(s, hook, { action: "skip" }).end).toEqual({ kind: "continue" });
    expect(step(s, hook, { action: "stop" }).end).toMatchObject({ kind: "stop" });
    const ignored = step(s, hook, { action: "retry", retryAfterMs: 5 });
    expect(ignored.end).toBeUndefined();
    expect(ignored.notes[0]).toContain("only before_model supports");
    const model: AgentEvent = { type: "model_request", turn: 1, step: 1, model: "m" };
    const retry = step(
      startChain(gate({ event: "before_model" as HookEventName, agentEvent: model })),
      hook,
      { action: "retry", retryAfterMs: 5 },
    );
    expect(retry.end).toMatchObject({ kind: "retry", afterMs: 5 });
  });

  it("waits for the user on ask; a denial blocks with the reason", () => {
    const hook = makeHook({ name: "asker" });
    const asked = step(startChain(gate()), hook, { action: "ask", reason: "sure?" });
    expect(asked.end).toMatchObject({
      kind: "ask",
      request: { reason: "sure?", toolName: "Bash" },
    });
    expect(settleAsk(asked, { allowed: true, reason: "sure?" }).end).toBeUndefined();
    expect(settleAsk(asked, { allowed: false, reason: "sure? — denied" }).end).toEqual({
      kind: "block",
      reason: "sure? — denied",
    });
  });

  it("caps context and says so", () => {
    const next = step(startChain(gate({ contextCapChars: 3 })), makeHook({ name: "long" }), {
      action: "continue",
      context: "abcdef",
    });
    expect(next.state.context[0]).toMatch(/^abc\n… \[context cut at 3/);
    expect(next.notes).toEqual(['hook "long" gave 6 characters of context; cut at 3']);
  });
});
