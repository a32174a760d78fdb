/** plan(): which hooks an agent event starts, as a value. */
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../source/agent/events.js";
import type { HookDefinition } from "../../../source/hooks/contract/definition.js";
import { createHookIndex, indexHooks, matcherNow, plan } from "../../../source/hooks/run/plan.js";
import { makeHook } from "../support.js";

const bash = (command: string): AgentEvent => ({
  type: "tool_call_start",
  turn: 1,
  step: 1,
  toolCallId: "c1",
  toolName: "Bash",
  input: { command },
});

const indexOf = (hooks: HookDefinition[], onBadMatcher?: (hook: HookDefinition) => void) =>
  createHookIndex(indexHooks(hooks), {
    projectDir: "/project",
    ...(onBadMatcher ? { onBadMatcher } : {}),
  });

describe("plan", () => {
  it("is undefined when no hook can match (the hot path)", () => {
    const index = indexOf([makeHook({ events: ["after_tool"] })]);
    expect(plan(index, "before_tool", bash("ls"))).toBeUndefined();
    const other = indexOf([makeHook({ matcher: { tool: "Write" } })]);
    expect(plan(other, "before_tool", bash("ls"))).toBeUndefined();
  });

  it("chains a gate's sync hooks from the first that matches, keeping later ones to re-match", () => {
    const first = makeHook({ name: "a", priority: 900, matcher: { command: "^rm" } });
    const guard = makeHook({ name: "b", priority: 500, matcher: { command: "deploy" } });
    const last = makeHook({ name: "c", priority: 100 });
    const index = indexOf([last, guard, first]);
    expect(plan(index, "before_tool", bash("ls"))?.chain).toEqual([last]);
    expect(plan(index, "before_tool", bash("rm x"))?.chain).toEqual([first, guard, last]);
    // The guard is matched again against the input as replaced before its turn.
    const matches = matcherNow(index, "before_tool", bash("rm x"));
    const asGiven = {};
    expect(matches(guard, asGiven)).toBe(false);
    expect(matches(first, asGiven)).toBe(true);
    const replaced = { toolInput: { command: "deploy" } };
    expect(matches(guard, replaced)).toBe(true);
    expect(matches(first, replaced)).toBe(false);
    // Values replaced again: matched against the new ones, not the ones before.
    expect(matches(guard, { toolInput: { command: "rm -rf deploy" } })).toBe(true);
    expect(matches(guard, asGiven)).toBe(false);
  });

  it("separates async hooks, and gives observe-only events only the hooks that match", () => {
    const sync = makeHook({ name: "s", events: ["after_tool_failure"], matcher: { command: "x" } });
    const other = makeHook({ name: "t", events: ["after_tool_failure"] });
    const background = makeHook({ name: "u", events: ["after_tool_failure"], async: true });
    const index = indexOf([sync, other, background]);
    const failure: AgentEvent = {
      type: "tool_call_error",
      turn: 1,
      step: 1,
      toolCallId: "c1",
      toolName: "Bash",
      input: { command: "ls" },
      error: "boom",
      interrupted: false,
      blocked: false,
      durationMs: 1,
    };
    expect(plan(index, "after_tool_failure", failure)).toEqual({
      event: "after_tool_failure",
      chain: [],
      observers: [other],
      async: [background],
    });
  });

  it("runs session_end's async hooks with the others (nothing comes after it)", () => {
    const a = makeHook({ name: "a", events: ["session_end"], async: true });
    const b = makeHook({ name: "b", events: ["session_end"] });
    const planned = plan(indexOf([a, b]), "session_end", {
      type: "session_end",
      reason: "completed",
    });
    expect(planned?.observers).toEqual([a, b]);
    expect(planned?.async).toEqual([]);
  });

  it("leaves out a hook whose matcher cannot be evaluated, and says so", () => {
    const bad = makeHook({ name: "bad", matcher: { command: "(" } });
    const told: string[] = [];
    const index = indexOf([bad], (hook) => told.push(hook.name));
    expect(plan(index, "before_tool", bash("ls"))).toBeUndefined();
    expect(told).toContain("bad");
  });
});
