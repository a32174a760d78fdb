/** step(): the pure fold of one answer into a gate's chain. */
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../source/agent/events.js";
import type { HookEventName } from "../../../source/hooks/contract/definition.js";
import { type Gate, settleAsk, startChain, step } from "../../../source/hooks/run/step.js";
import { makeHook } from "../support.js";

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

  it("waits for the user on ask (events other than before_tool); a denial blocks with the reason", () => {
    const hook = makeHook({ name: "asker" });
    const prompt: AgentEvent = { type: "user_prompt", turn: 1, prompt: "hi" };
    const asked = step(startChain(gate({ event: "user_prompt", agentEvent: prompt })), hook, {
      action: "ask",
      reason: "sure?",
    });
    expect(asked.end).toMatchObject({
      kind: "ask",
      request: { reason: "sure?", event: "user_prompt", hook: { name: "asker" } },
    });
    expect(settleAsk(asked, { allowed: true, reason: "sure?" }).end).toBeUndefined();
    expect(settleAsk(asked, { allowed: false, reason: "sure? — denied" }).end).toEqual({
      kind: "block",
      reason: "sure? — denied",
    });
  });

  it("before_tool: ask and allow are the hooks' say on the permission; the first ask wins", () => {
    const allowed = step(startChain(gate()), makeHook({ name: "ok" }), {
      action: "allow",
      reason: "safe",
    });
    expect(allowed.end).toBeUndefined();
    expect(allowed.state.permission).toEqual({ behavior: "allow", reason: "safe", by: "ok" });
    const asked = step(allowed.state, makeHook({ name: "guard" }), { action: "ask", reason: "?" });
    expect(asked.end).toBeUndefined();
    expect(asked.state.permission).toEqual({ behavior: "ask", reason: "?", by: "guard" });
    const after = step(asked.state, makeHook({ name: "late" }), { action: "allow" });
    expect(after.state.permission?.by).toBe("guard");
    // A HOOK.md hook's allow is the Agent Hooks spec's "no objection", no permission.
    const spec = step(startChain(gate()), makeHook({ name: "md", dialect: "agenthooks" }), {
      action: "allow",
    });
    expect(spec.state.permission).toBeUndefined();
  });

  it("permission_request: allow ends the chain granting the call; ask is no decision", () => {
    const request: AgentEvent = {
      type: "permission_request",
      turn: 1,
      step: 1,
      toolCallId: "c1",
      toolName: "Bash",
      input: { command: "ls" },
      reason: "no rule allows Bash in default mode",
      permissionMode: "default",
      suggestion: "Bash(ls:*)",
    };
    const g = gate({ event: "permission_request", agentEvent: request });
    expect(step(startChain(g), makeHook({ name: "a" }), { action: "ask" }).end).toBeUndefined();
    const granted = step(startChain(g), makeHook({ name: "a" }), {
      action: "allow",
      input: { command: "ls -la" },
    });
    expect(granted.end).toEqual({ kind: "allow" });
    expect(granted.state.replaced).toEqual({ toolInput: { command: "ls -la" } });
  });

  it("caps context and says so", () => {
    const next = step(startChain(gate({ contextCapChars: 3 })), makeHook({ name: "long" }), {
      action: "continue",
      context: "abcdef",
    });
    expect(next.state.context[0]).toMatch(/^abc\n… \[context cut at 3/);
    expect(next.notes).toEqual(['hook "long" gave 6 characters of context; cut at 3']);
  });

  it("keeps Gemini's clearContext on a before_stop block only; elsewhere a note says it is ignored", () => {
    const hook = makeHook({ name: "gate" });
    const stopRequest: AgentEvent = {
      type: "stop_request",
      turn: 1,
      step: 1,
      lastAssistantMessage: "draft",
      stopHookActive: false,
      consecutiveBlocks: 0,
    };
    const answer = { action: "block", reason: "again", clearContext: true } as const;
    const onStop = step(
      startChain(gate({ event: "before_stop", agentEvent: stopRequest })),
      hook,
      answer,
    );
    expect(onStop.end).toEqual({ kind: "block", reason: "again", clearContext: true });
    expect(onStop.notes).toEqual([]);
    const onTool = step(startChain(gate()), hook, answer);
    expect(onTool.end).toEqual({ kind: "block", reason: "again" });
    expect(onTool.notes).toEqual([
      'hook "gate" answered clearContext, which only AfterAgent (before_stop) supports; ignored',
    ]);
  });
});
