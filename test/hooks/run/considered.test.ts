/** The `considered` line's hooks, remembered (createConsideredMemo) only where nothing but the plan and subject decides them. */
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../source/agent/events.js";
import type { HookDefinition } from "../../../source/hooks/contract/definition.js";
import { consideredHooks, createConsideredMemo } from "../../../source/hooks/run/considered.js";
import { createHookIndex, indexHooks, plan, subjectFor } from "../../../source/hooks/run/plan.js";
import { makeHook } from "../support.js";

const call = (toolName: string, command: string): AgentEvent => ({
  type: "tool_call_start",
  turn: 1,
  step: 1,
  toolCallId: "c1",
  toolName,
  input: { command },
});

function setUp(configured: HookDefinition[], spent = new Set<string>()) {
  const index = createHookIndex(indexHooks(configured), {
    projectDir: "/project",
    spent,
    ruleCatches: () => false,
  });
  const args = (event: AgentEvent) => ({
    configured,
    index,
    planned: plan(index, "before_tool", event),
    subject: subjectFor(index, "before_tool", event),
  });
  return { args, memo: createConsideredMemo() };
}

describe("createConsideredMemo", () => {
  it("gives what consideredHooks gives, for every plan and subject, and keeps it frozen", () => {
    const configured = [
      makeHook({ name: "a", id: "a", matcher: { tool: "Bash", command: "^rm" } }),
      makeHook({ name: "b", id: "b", matcher: { tool: "Write" } }),
      makeHook({ name: "c", id: "c", disabled: "turned off in settings" }),
    ];
    const { args, memo } = setUp(configured);
    const events = [
      call("Bash", "ls"),
      call("Bash", "rm x"),
      call("Read", "ls"),
      call("Bash", "ls"),
    ];
    for (const event of events) {
      const remembered = memo(args(event));
      expect(JSON.stringify(remembered)).toBe(JSON.stringify(consideredHooks(args(event))));
      expect(Object.isFrozen(remembered) && remembered.every(Object.isFrozen)).toBe(true);
    }
    // The same plan and subject: the same line, built once.
    expect(memo(args(call("Bash", "ls")))).toBe(memo(args(call("Bash", "ls && pwd"))));
    expect(memo(args(call("Bash", "rm x")))).not.toBe(memo(args(call("Bash", "ls"))));
    expect(memo(args(call("Bash", "rm x")))[0]).toMatchObject({ status: "planned" });
    expect(memo(args(call("Read", "ls")))[1]).toMatchObject({
      detail: "its matcher does not match tool Read",
    });
  });

  it("follows a `once` hook's state: not remembered once it ran", () => {
    const spent = new Set<string>();
    const configured = [makeHook({ name: "o", id: "o", once: true, matcher: { tool: "Write" } })];
    const { args, memo } = setUp(configured, spent);
    expect(memo(args(call("Bash", "ls")))[0]).toMatchObject({ why: "matcher" });
    spent.add("o");
    expect(memo(args(call("Bash", "ls")))[0]).toMatchObject({ why: "once" });
  });

  it("follows an `if` hook's input: the same tool may miss by its matcher or by its `if`", () => {
    const configured = [
      makeHook({ name: "i", id: "i", matcher: { command: "^git", if: "Bash(git push *)" } }),
    ];
    const { args, memo } = setUp(configured);
    expect(memo(args(call("Bash", "ls")))[0]).toMatchObject({ why: "matcher" });
    expect(memo(args(call("Bash", "git status")))[0]).toMatchObject({ why: "if" });
    expect(memo(args(call("Bash", "ls")))[0]).toMatchObject({ why: "matcher" });
  });
});
