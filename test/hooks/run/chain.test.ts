import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../source/agent/events.js";
import type { Decision } from "../../../source/hooks/contract/decision.js";
import type { HookDefinition, HookEventName } from "../../../source/hooks/contract/definition.js";
import type { GateState } from "../../../source/hooks/contract/payload.js";
import type { AskUser, HookActivityEvent } from "../../../source/hooks/run/activity.js";
import { type ChainOptions, runChain } from "../../../source/hooks/run/chain.js";
import { type ObserveResult, runObservers } from "../../../source/hooks/run/observe.js";
import { indexHooks } from "../../../source/hooks/run/plan.js";
import { fakeRecord, makeHook } from "../support.js";

const toolEvent: AgentEvent = {
  type: "tool_call_start",
  turn: 1,
  step: 1,
  toolCallId: "c1",
  toolName: "Bash",
  input: { command: "ls", timeout: 1000 },
};

type Answer = Decision | ((state: GateState) => Decision);

async function drive<T, E = HookActivityEvent>(gen: AsyncGenerator<E, T, undefined>) {
  const activity: E[] = [];
  for (;;) {
    const step = await gen.next();
    if (step.done) return { result: step.value, activity };
    activity.push(step.value);
  }
}

function chain(
  hooks: HookDefinition[],
  answers: Map<HookDefinition, Answer>,
  extra: Partial<ChainOptions> = {},
) {
  const seen: { hook: string; state: GateState }[] = [];
  const options: ChainOptions = {
    event: "before_tool",
    agentEvent: toolEvent,
    hooks,
    matches: () => true,
    run: async (hook, state) => {
      seen.push({ hook: hook.name, state });
      const answer = answers.get(hook) ?? { action: "continue" };
      return fakeRecord(typeof answer === "function" ? answer(state) : answer);
    },
    signal: new AbortController().signal,
    contextCapChars: 10_000,
    now: () => 0,
    ...extra,
  };
  return { seen, run: () => drive(runChain(options)) };
}

describe("plan order", () => {
  it("priority high→low, then user before project, then name, then id — whatever the input order", () => {
    const hooks = [
      makeHook({ name: "b", priority: 100, scope: "project", id: "p:b" }),
      makeHook({ name: "a", priority: 100, scope: "project", id: "p:a" }),
      makeHook({ name: "z", priority: 100, scope: "user", id: "u:z" }),
      makeHook({ name: "low", priority: 1, scope: "user", id: "u:low" }),
      makeHook({ name: "high", priority: 900, scope: "project", id: "p:high" }),
      makeHook({ name: "a", priority: 100, scope: "project", id: "p:a2" }),
    ];
    const expected = ["p:high", "u:z", "p:a", "p:a2", "p:b", "u:low"];
    for (const order of [
      hooks,
      [...hooks].reverse(),
      [hooks[3]!, hooks[0]!, hooks[5]!, hooks[2]!, hooks[1]!, hooks[4]!],
    ]) {
      const planned = indexHooks(order).get("before_tool")!;
      expect(planned.map((h) => h.id)).toEqual(expected);
    }
  });
});

describe("runChain", () => {
  it("chains modifications: each hook sees the input as modified before it", async () => {
    const first = makeHook({ name: "first" });
    const second = makeHook({ name: "second" });
    const third = makeHook({ name: "third" });
    const answers = new Map<HookDefinition, Answer>([
      [first, { action: "modify", input: { command: "ls -la" } }],
      [second, { action: "modify", inputPatch: { timeout: 5, extra: "x" } }],
      [third, { action: "modify", inputPatch: { extra: null } }],
    ]);
    const { seen, run } = chain([first, second, third], answers);
    const { result } = await run();
    expect(seen.map((s) => s.state.toolInput)).toEqual([
      undefined,
      { command: "ls -la" },
      { command: "ls -la", timeout: 5, extra: "x" },
    ]);
    expect(result.end).toEqual({ kind: "continue" });
    expect(result.state.toolInput).toEqual({ command: "ls -la", timeout: 5 });
  });

  it("input_patch applies onto the original input when no hook replaced it", async () => {
    const hook = makeHook();
    const { run } = chain(
      [hook],
      new Map([[hook, { action: "modify", inputPatch: { timeout: 30 } }]]),
    );
    const { result } = await run();
    expect(result.state.toolInput).toEqual({ command: "ls", timeout: 30 });
  });

  it("the first block wins and stops the chain", async () => {
    const [a, b, c] = [makeHook({ name: "a" }), makeHook({ name: "b" }), makeHook({ name: "c" })];
    const { seen, run } = chain(
      [a, b, c],
      new Map<HookDefinition, Answer>([
        [a, { action: "continue", context: "from a" }],
        [b, { action: "block", reason: "b says no", context: "from b" }],
        [c, { action: "block", reason: "c says no" }],
      ]),
    );
    const { result, activity } = await run();
    expect(seen.map((s) => s.hook)).toEqual(["a", "b"]);
    expect(result.end).toEqual({ kind: "block", reason: "b says no" });
    expect(result.context).toEqual(["from a", "from b"]);
    expect(
      activity.filter((e) => e.type === "hook_end").map((e) => e.type === "hook_end" && e.outcome),
    ).toEqual(["continue", "block"]);
  });

  it("a block without a reason names the hook", async () => {
    const a = makeHook({ name: "guard" });
    const { run } = chain([a], new Map([[a, { action: "block" }]]));
    expect((await run()).result.end).toEqual({ kind: "block", reason: 'blocked by hook "guard"' });
  });

  it("skip stops the chain and goes on, keeping earlier modifications", async () => {
    const [a, b, c] = [makeHook({ name: "a" }), makeHook({ name: "b" }), makeHook({ name: "c" })];
    const { seen, run } = chain(
      [a, b, c],
      new Map<HookDefinition, Answer>([
        [a, { action: "modify", input: { command: "pwd" } }],
        [b, { action: "skip" }],
        [c, { action: "block" }],
      ]),
    );
    const { result } = await run();
    expect(seen.map((s) => s.hook)).toEqual(["a", "b"]);
    expect(result.end).toEqual({ kind: "continue" });
    expect(result.state.toolInput).toEqual({ command: "pwd" });
  });

  it("the same set of hooks gives the same decision, whatever order it is given in", async () => {
    const hooks = [
      makeHook({ name: "m", id: "m" }),
      makeHook({ name: "n", id: "n" }),
      makeHook({ name: "o", id: "o" }),
    ];
    const answers = new Map<HookDefinition, Answer>([
      [
        hooks[0]!,
        (s) => ({
          action: "modify",
          input: { command: `${(s.toolInput as { command?: string })?.command ?? "ls"} m` },
        }),
      ],
      [
        hooks[1]!,
        (s) => ({
          action: "modify",
          input: { command: `${(s.toolInput as { command?: string })?.command ?? "ls"} n` },
        }),
      ],
      [
        hooks[2]!,
        (s) => ({
          action: "modify",
          input: { command: `${(s.toolInput as { command?: string })?.command ?? "ls"} o` },
        }),
      ],
    ]);
    const results: unknown[] = [];
    for (const order of [hooks, [...hooks].reverse(), [hooks[1]!, hooks[2]!, hooks[0]!]]) {
      const planned = indexHooks(order).get("before_tool")!;
      results.push((await chain([...planned], answers).run()).result.state.toolInput);
    }
    expect(results).toEqual([
      { command: "ls m n o" },
      { command: "ls m n o" },
      { command: "ls m n o" },
    ]);
  });

  it("later matchers see the modified input", async () => {
    const rewriter = makeHook({ name: "rewriter" });
    const guard = makeHook({ name: "guard" });
    const { seen, run } = chain(
      [rewriter, guard],
      new Map<HookDefinition, Answer>([
        [rewriter, { action: "modify", input: { command: "rm -rf /" } }],
        [guard, { action: "block", reason: "destructive" }],
      ]),
      {
        matches: (hook, state) =>
          hook !== guard || JSON.stringify(state.toolInput ?? toolEvent).includes("rm -rf"),
      },
    );
    const { result } = await run();
    expect(seen.map((s) => s.hook)).toEqual(["rewriter", "guard"]);
    expect(result.end).toEqual({ kind: "block", reason: "destructive" });
  });

  it("failure open warns and goes on; failure closed blocks, naming the hook and the failure", async () => {
    const open = makeHook({ name: "flaky", failure: "open" });
    const next = makeHook({ name: "next" });
    const { seen, run } = chain(
      [open, next],
      new Map<HookDefinition, Answer>([[open, { action: "failed", error: "exited with 1: oops" }]]),
    );
    const opened = await run();
    expect(seen.map((s) => s.hook)).toEqual(["flaky", "next"]);
    expect(opened.result.end).toEqual({ kind: "continue" });
    const warnings = opened.activity.filter((e) => e.type === "hook_warning");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toContain('hook "flaky" failed: exited with 1: oops');

    const closed = makeHook({ name: "strict", failure: "closed" });
    const closedRun = await chain(
      [closed, next],
      new Map<HookDefinition, Answer>([
        [closed, { action: "failed", error: "timed out after 100 ms" }],
      ]),
    ).run();
    expect(closedRun.result.end.kind).toBe("block");
    if (closedRun.result.end.kind === "block") {
      expect(closedRun.result.end.reason).toContain(
        'hook "strict" failed (timed out after 100 ms)',
      );
    }
  });

  it("an invalid modified input refuses the call, whatever the failure policy", async () => {
    const bad = makeHook({ name: "bad", failure: "closed" });
    const validateToolInput = (_tool: string, input: unknown) =>
      typeof (input as { command?: unknown }).command === "string"
        ? ({ ok: true } as const)
        : ({ ok: false, error: "command: expected string" } as const);
    const { run } = chain([bad], new Map([[bad, { action: "modify", input: { command: 42 } }]]), {
      validateToolInput,
    });
    const { result } = await run();
    expect(result.end.kind).toBe("block");
    if (result.end.kind === "block")
      expect(result.end.reason).toContain("command: expected string");
    expect(result.state.toolInput).toBeUndefined();

    const lax = makeHook({ name: "lax" });
    const laxRun = await chain(
      [lax],
      new Map([[lax, { action: "modify", input: { command: 42 } }]]),
      {
        validateToolInput,
      },
    ).run();
    // failure "open" too: the original input must not run in its place.
    expect(laxRun.result.end).toEqual({
      kind: "block",
      reason:
        'hook "lax" replaced the input of this Bash call with one that fails the tool\'s schema (command: expected string); the call is refused and did not run',
    });
    expect(laxRun.result.state.toolInput).toBeUndefined();
    expect(
      laxRun.activity.some((e) => e.type === "hook_warning" && e.message.includes("refused")),
    ).toBe(true);
    expect(
      laxRun.activity.some((e) => e.type === "hook_warning" && e.message.includes("going on")),
    ).toBe(false);
  });

  it("context is capped per hook and the cut is marked", async () => {
    const hook = makeHook({ name: "chatty" });
    const { run } = chain(
      [hook],
      new Map([[hook, { action: "continue", context: "x".repeat(50) }]]),
      {
        contextCapChars: 20,
      },
    );
    const { result, activity } = await run();
    expect(result.context).toEqual([`${"x".repeat(20)}\n… [context cut at 20 characters by acai]`]);
    expect(activity.some((e) => e.type === "hook_warning" && e.message.includes("cut at 20"))).toBe(
      true,
    );
  });

  describe("ask", () => {
    const asker = makeHook({ name: "asker", events: ["user_prompt"] });
    const answers = new Map<HookDefinition, Answer>([
      [asker, { action: "ask", reason: "send it?" }],
    ]);
    const onPrompt: Partial<ChainOptions> = {
      event: "user_prompt",
      agentEvent: { type: "user_prompt", turn: 1, prompt: "deploy" },
    };

    it("without askUser it is denied", async () => {
      const { result } = await chain([asker], answers, onPrompt).run();
      expect(result.end.kind).toBe("block");
      if (result.end.kind === "block") expect(result.end.reason).toMatch(/send it\?.*--yes/);
    });

    it("assumeYes allows without asking", async () => {
      const { result } = await chain([asker], answers, { ...onPrompt, assumeYes: true }).run();
      expect(result.end).toEqual({ kind: "continue" });
    });

    it("askUser decides, and sees the event and the reason", async () => {
      const requests: unknown[] = [];
      const yes: AskUser = async (request) => {
        requests.push(request);
        return true;
      };
      const allowed = await chain([asker], answers, { ...onPrompt, askUser: yes }).run();
      expect(allowed.result.end).toEqual({ kind: "continue" });
      expect(requests[0]).toMatchObject({
        reason: "send it?",
        event: "user_prompt",
        hook: { name: "asker" },
      });
      const no: AskUser = async () => false;
      const denied = (await chain([asker], answers, { ...onPrompt, askUser: no }).run()).result.end;
      expect(denied).toEqual({ kind: "block", reason: "send it? — denied by the user" });
      const broken: AskUser = async () => {
        throw new Error("no tty");
      };
      const failed = await chain([asker], answers, { ...onPrompt, askUser: broken }).run();
      expect(failed.result.end.kind).toBe("block");
    });

    it("on before_tool it asks nobody: the chain goes on and says the permission must be asked", async () => {
      const guard = makeHook({ name: "guard" });
      const later = makeHook({ name: "later" });
      const asked: unknown[] = [];
      const { result } = await chain(
        [guard, later],
        new Map<HookDefinition, Answer>([[guard, { action: "ask", reason: "run rm?" }]]),
        {
          askUser: async (r) => {
            asked.push(r);
            return true;
          },
        },
      ).run();
      expect(asked).toEqual([]);
      expect(result.end).toEqual({ kind: "continue" });
      expect(result.permission).toEqual({ behavior: "ask", reason: "run rm?", by: "guard" });
    });
  });

  it("retry ends the chain on before_model and is ignored elsewhere", async () => {
    const hook = makeHook({ name: "limiter", events: ["before_model"] });
    const answers = new Map<HookDefinition, Answer>([
      [hook, { action: "retry", retryAfterMs: 50 }],
    ]);
    const model = await chain([hook], answers, {
      event: "before_model",
      agentEvent: { type: "model_request", turn: 1, step: 1, model: "m" },
    }).run();
    expect(model.result.end).toMatchObject({ kind: "retry", afterMs: 50 });
    const tool = await chain([hook], answers).run();
    expect(tool.result.end).toEqual({ kind: "continue" });
    expect(tool.activity.some((e) => e.type === "hook_warning")).toBe(true);
  });

  it("stop ends the chain", async () => {
    const [a, b] = [makeHook({ name: "a" }), makeHook({ name: "b" })];
    const { seen, run } = chain([a, b], new Map([[a, { action: "stop", reason: "enough" }]]));
    expect((await run()).result.end).toEqual({ kind: "stop", reason: "enough" });
    expect(seen).toHaveLength(1);
  });

  it("prompt and output modifications apply on their events; others are ignored with a warning", async () => {
    const hook = makeHook({ events: ["user_prompt"] });
    const prompt = await chain(
      [hook],
      new Map([[hook, { action: "modify", prompt: "better", output: "x" }]]),
      {
        event: "user_prompt",
        agentEvent: { type: "user_prompt", turn: 1, prompt: "orig" },
      },
    ).run();
    expect(prompt.result.state).toEqual({ prompt: "better" });
    expect(
      prompt.activity.some((e) => e.type === "hook_warning" && e.message.includes("output")),
    ).toBe(true);
  });

  it("asks the next hook before the last answer's activity goes up; the consumer still sees each hook_end before the next hook_start, the audit in order", async () => {
    const hooks = ["a", "b", "c"].map((name) => makeHook({ name }));
    const log: string[] = [];
    const options: ChainOptions = {
      event: "before_tool",
      agentEvent: toolEvent,
      hooks,
      matches: () => true,
      run: async (hook) => {
        log.push(`asked ${hook.name}`);
        return fakeRecord({ action: "continue" });
      },
      onRun: (hook) => log.push(`audit ${hook.name}`),
      signal: new AbortController().signal,
      contextCapChars: 10_000,
      now: () => 0,
    };
    for await (const event of runChain(options)) {
      if (event.type === "hook_start" || event.type === "hook_end")
        log.push(`${event.type} ${event.hook.name}`);
    }
    expect(log).toEqual([
      "asked a",
      "hook_start a",
      "asked b",
      "audit a",
      "hook_end a",
      "hook_start b",
      "asked c",
      "audit b",
      "hook_end b",
      "hook_start c",
      "audit c",
      "hook_end c",
    ]);
  });

  it("an abort stops the chain with a block", async () => {
    const controller = new AbortController();
    const [a, b] = [makeHook({ name: "a" }), makeHook({ name: "b" })];
    const { seen, run } = chain([a, b], new Map(), {
      signal: controller.signal,
      run: async (hook) => {
        seen.push({ hook: hook.name, state: {} });
        controller.abort();
        return fakeRecord({ action: "failed", error: "aborted" }, { aborted: true });
      },
    });
    const { result, activity } = await run();
    expect(result.end).toEqual({ kind: "block", reason: "aborted" });
    expect(seen).toHaveLength(1);
    expect(activity.some((e) => e.type === "hook_end" && e.outcome === "aborted")).toBe(true);
  });
});

describe("runObservers", () => {
  it("runs every hook at once and collects context in plan order", async () => {
    const hooks = [
      makeHook({ name: "slow" }),
      makeHook({ name: "fast" }),
      makeHook({ name: "broken" }),
    ];
    let running = 0;
    let peak = 0;
    const delays: Record<string, number> = { slow: 60, fast: 10, broken: 30 };
    const event: HookEventName = "after_tool_failure";
    const { result, activity } = await drive<ObserveResult>(
      runObservers({
        event,
        agentEvent: { type: "notification", message: "m", notificationType: "t" },
        hooks,
        matches: () => true,
        run: async (hook) => {
          running++;
          peak = Math.max(peak, running);
          await new Promise((r) => setTimeout(r, delays[hook.name]));
          running--;
          if (hook.name === "broken")
            return fakeRecord({ action: "failed", error: "exited with 1" });
          return fakeRecord({ action: "block", context: `ctx ${hook.name}` });
        },
        signal: new AbortController().signal,
        contextCapChars: 100,
        now: () => 0,
      }),
    );
    expect(peak).toBe(3);
    expect(result.context).toEqual(["ctx slow", "ctx fast"]);
    const ends = activity
      .filter((e) => e.type === "hook_end")
      .map((e) => (e.type === "hook_end" ? e.hook.name : ""));
    expect(ends).toEqual(["fast", "broken", "slow"]);
    const warnings = activity.flatMap((e) => (e.type === "hook_warning" ? [e.message] : []));
    expect(warnings).toEqual([
      'hook "fast" answered block: block is ignored on after_tool_failure; after_tool_failure is an observe-only event',
      'hook "broken" failed: exited with 1',
      'hook "slow" answered block: block is ignored on after_tool_failure; after_tool_failure is an observe-only event',
    ]);
    // An ignored answer is never shown as if it had acted.
    expect(activity.filter((e) => e.type === "hook_end" && e.outcome === "block")).toEqual([]);
    expect(result.stop).toBeUndefined();
  });

  function observe(event: HookEventName, answers: Record<string, Decision>, canStop?: boolean) {
    const hooks = Object.keys(answers).map((name) => makeHook({ name }));
    const onRun: { name: string; effective: Decision }[] = [];
    return drive<ObserveResult>(
      runObservers({
        event,
        agentEvent: { type: "notification", message: "m", notificationType: "t" },
        hooks,
        matches: () => true,
        run: async (hook) => fakeRecord(answers[hook.name] ?? { action: "continue" }),
        signal: new AbortController().signal,
        contextCapChars: 100,
        now: () => 0,
        onRun: (hook, _record, _answered, effective) => onRun.push({ name: hook.name, effective }),
        ...(canStop === undefined ? {} : { canStop }),
      }),
    ).then((r) => ({ ...r, onRun }));
  }

  it("honours stop where canStop (after_agent): the first stopping hook in plan order", async () => {
    const { result, activity, onRun } = await observe(
      "after_agent",
      {
        quiet: { action: "continue" },
        first: { action: "stop", reason: "budget spent" },
        second: { action: "stop", reason: "later" },
      },
      true,
    );
    expect(result.stop).toMatchObject({ reason: "budget spent", hook: { name: "first" } });
    expect(
      activity.flatMap((e) => (e.type === "hook_end" && e.outcome === "stop" ? [e.hook.name] : [])),
    ).toEqual(["first", "second"]);
    expect(activity.filter((e) => e.type === "hook_warning")).toEqual([]);
    expect(onRun.find((r) => r.name === "first")?.effective).toMatchObject({ action: "stop" });
  });

  it("ignores stop elsewhere with a warning, and never reports it as a stop", async () => {
    const { result, activity, onRun } = await observe("session_end", {
      stopper: { action: "stop", reason: "enough" },
    });
    expect(result.stop).toBeUndefined();
    expect(activity).toContainEqual(
      expect.objectContaining({ type: "hook_end", outcome: "continue", detail: "enough" }),
    );
    expect(activity).toContainEqual({
      type: "hook_warning",
      hook: expect.objectContaining({ name: "stopper" }),
      message:
        'hook "stopper" answered stop (enough): stop is ignored on session_end; session_end is an observe-only event',
    });
    expect(onRun[0]?.effective).toEqual({ action: "continue" });
  });

  it("after_agent still ignores block and modify (only stop is honoured there)", async () => {
    const { result, activity } = await observe(
      "after_agent",
      { blocker: { action: "block", reason: "no" } },
      true,
    );
    expect(result.stop).toBeUndefined();
    expect(activity).toContainEqual(
      expect.objectContaining({
        type: "hook_warning",
        message:
          'hook "blocker" answered block (no): block is ignored on after_agent; after_agent is an observe-only event (only stop is honoured there)',
      }),
    );
  });
});
