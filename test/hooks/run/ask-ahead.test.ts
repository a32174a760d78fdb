/**
 * Asking ahead (source/hooks/run/ask-ahead.ts, decision 0012) with fake runs that
 * answer only when the test releases them: which hooks are asked at once, and
 * that the chain still folds their answers strictly in its order.
 */
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../source/agent/events.js";
import type { Decision } from "../../../source/hooks/contract/decision.js";
import {
  askAheadIgnoredWarning,
  canAskAhead,
  type HookDefinition,
  type HookLaunch,
} from "../../../source/hooks/contract/definition.js";
import type { GateState } from "../../../source/hooks/contract/gate-state.js";
import type { HookActivityEvent } from "../../../source/hooks/run/activity.js";
import { askWindow } from "../../../source/hooks/run/ask-ahead.js";
import { type ChainOptions, type ChainResult, runChain } from "../../../source/hooks/run/chain.js";
import type { HookRunRecord } from "../../../source/hooks/run/run.js";
import { fakeRecord, makeHook } from "../support.js";

const AGENT_INPUT = { command: "ls" };
const toolEvent: AgentEvent = {
  type: "tool_call_start",
  turn: 1,
  step: 1,
  toolCallId: "c1",
  toolName: "Bash",
  input: AGENT_INPUT,
};

const persistent: HookLaunch = {
  mode: "persistent",
  command: "/hooks/p",
  args: [],
  viaShell: false,
};
const plugin: HookLaunch = {
  mode: "plugin",
  command: "/plugins/x.mjs",
  args: ["#0"],
  viaShell: false,
  registration: 0,
};

/** A persistent hook that asked to be asked ahead. */
const ahead = (name: string, extra: Partial<HookDefinition> = {}) =>
  makeHook({ name, launch: persistent, askAhead: true, ...extra });

/** The command a hook sees: the one an earlier hook wrote, else the agent's. */
function commandIn(state: GateState): string {
  const input = (state.toolInput ?? AGENT_INPUT) as { command: string };
  return input.command;
}

/** One question to a hook, answered when the test says so. */
interface Question {
  hook: string;
  command: string;
  answer(decision: Decision): void;
  record: Promise<HookRunRecord>;
}

/** Fake hooks that are asked (recorded at once) and answer only when released. */
function questions() {
  const asked: Question[] = [];
  const run: ChainOptions["run"] = (hook, state) => {
    let answer: (decision: Decision) => void = () => {};
    const record = new Promise<HookRunRecord>((resolve) => {
      answer = (decision) => resolve(fakeRecord(decision, { hookId: hook.id }));
    });
    asked.push({ hook: hook.name, command: commandIn(state), answer, record });
    return record;
  };
  /** The `n`-th question to `name` (0: the first). */
  const to = (name: string, n = 0): Question => {
    const found = asked.filter((q) => q.hook === name)[n];
    if (found === undefined) throw new Error(`${name} was not asked ${n + 1} time(s)`);
    return found;
  };
  return { asked, run, to, names: () => asked.map((q) => `${q.hook}:${q.command}`) };
}

/** Lets every settled promise and queued continuation run (no clock involved). */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Runs the chain in the background, collecting its activity as it is yielded. */
function startChain(
  hooks: HookDefinition[],
  run: ChainOptions["run"],
  extra: Partial<ChainOptions> = {},
) {
  const activity: HookActivityEvent[] = [];
  const unused: Array<{ hook: string; decision: Decision }> = [];
  const options: ChainOptions = {
    event: "before_tool",
    agentEvent: toolEvent,
    hooks,
    matches: () => true,
    run,
    signal: new AbortController().signal,
    contextCapChars: 10_000,
    now: () => 0,
    onUnused: (hook, pending) => {
      void pending.then((record) => unused.push({ hook: hook.name, decision: record.decision }));
    },
    ...extra,
  };
  const done = (async (): Promise<ChainResult> => {
    const gen = runChain(options);
    for (;;) {
      const step = await gen.next();
      if (step.done) return step.value;
      if (step.value.type === "hook_start" || step.value.type === "hook_end")
        activity.push(step.value);
    }
  })();
  /** `start a`, `end a continue`, … in the order the chain yielded them. */
  const trace = () =>
    activity.map((e) =>
      e.type === "hook_start"
        ? `start ${e.hook.name}`
        : e.type === "hook_end"
          ? `end ${e.hook.name} ${e.outcome}`
          : e.type,
    );
  return { done, trace, unused };
}

describe("canAskAhead", () => {
  it("is true only for persistent hooks and plugins that set askAhead", () => {
    expect(canAskAhead(ahead("p"))).toBe(true);
    expect(canAskAhead(makeHook({ launch: plugin, askAhead: true }))).toBe(true);
    expect(canAskAhead(makeHook({ launch: persistent }))).toBe(false);
    expect(canAskAhead(makeHook({ launch: plugin, askAhead: false }))).toBe(false);
    // Spawned: a process started for an answer that may not be used.
    expect(canAskAhead(makeHook({ askAhead: true }))).toBe(false);
    expect(
      canAskAhead(
        makeHook({
          askAhead: true,
          launch: { mode: "spawn", command: "x", args: [], viaShell: false },
        }),
      ),
    ).toBe(false);
  });

  it("warns about askAhead on a spawned hook only", () => {
    const spawned = makeHook({ name: "slow", file: "/hooks/slow", askAhead: true });
    expect(askAheadIgnoredWarning(spawned)).toMatch(
      /hook "slow" \(\/hooks\/slow\) sets ask_ahead, which has no effect on a spawned hook/,
    );
    expect(askAheadIgnoredWarning(ahead("p"))).toBeUndefined();
    expect(askAheadIgnoredWarning(makeHook())).toBeUndefined();
  });
});

describe("askWindow", () => {
  const windowOf = (
    hooks: HookDefinition[],
    first = 0,
    matches: (hook: HookDefinition) => boolean = () => true,
  ) => {
    const q = questions();
    const asked = askWindow(
      { hooks, matches, run: q.run, signal: new AbortController().signal, now: () => 0 },
      first,
      {},
    );
    return asked.map((a) => `${a.hook.name}@${a.index}`);
  };

  it("asks the hook reached with the hooks after it that can be asked ahead, up to the first that cannot", () => {
    const hooks = [
      ahead("a"),
      makeHook({ name: "b", launch: plugin, askAhead: true }),
      ahead("c"),
      makeHook({ name: "spawned", askAhead: true }),
      ahead("d"),
    ];
    expect(windowOf(hooks)).toEqual(["a@0", "b@1", "c@2"]);
    // A spawned hook the chain has reached is asked now, and the hooks ahead with it.
    expect(windowOf(hooks, 3)).toEqual(["spawned@3", "d@4"]);
    expect(windowOf(hooks, 4)).toEqual(["d@4"]);
  });

  it("the hook reached need not ask to be asked ahead; a hook after it that did not ends the window", () => {
    const guard = makeHook({ name: "guard", launch: persistent });
    expect(windowOf([guard, ahead("b"), ahead("c")])).toEqual(["guard@0", "b@1", "c@2"]);
    expect(windowOf([ahead("a"), guard, ahead("c")])).toEqual(["a@0"]);
  });

  it("skips hooks that do not match the values, without ending the window", () => {
    const hooks = [ahead("a"), ahead("quiet"), ahead("c")];
    expect(windowOf(hooks, 0, (h: HookDefinition) => h.name !== "quiet")).toEqual(["a@0", "c@2"]);
  });
});

describe("runChain asking ahead", () => {
  it("asks every hook of the window before the first answer, and folds the answers in chain order", async () => {
    const q = questions();
    const chain = startChain([ahead("a"), ahead("b"), ahead("c")], q.run);
    await settle();
    // (a) all three asked at once, with the agent's values; nothing answered yet.
    expect(q.names()).toEqual(["a:ls", "b:ls", "c:ls"]);
    expect(chain.trace()).toEqual(["start a"]);
    // (b) answers arrive last first; the fold still goes a, b, c.
    q.to("c").answer({ action: "continue", context: "from c" });
    q.to("b").answer({ action: "continue", context: "from b" });
    await settle();
    expect(chain.trace()).toEqual(["start a"]);
    q.to("a").answer({ action: "continue", context: "from a" });
    const result = await chain.done;
    expect(chain.trace()).toEqual([
      "start a",
      "end a continue",
      "start b",
      "end b continue",
      "start c",
      "end c continue",
    ]);
    expect(result.end).toEqual({ kind: "continue" });
    expect(result.context).toEqual(["from a", "from b", "from c"]);
    expect(q.asked).toHaveLength(3);
    expect(chain.unused).toEqual([]);
  });

  it("a block ends the chain: the answers after it are not used, and are reported as unused", async () => {
    const q = questions();
    const chain = startChain([ahead("a"), ahead("b"), ahead("c")], q.run);
    await settle();
    expect(q.names()).toEqual(["a:ls", "b:ls", "c:ls"]);
    // (c) b answers before a blocks; c only after the chain has ended.
    q.to("b").answer({ action: "continue", context: "from b" });
    q.to("a").answer({ action: "block", reason: "a says no" });
    const result = await chain.done;
    expect(result.end).toEqual({ kind: "block", reason: "a says no" });
    expect(result.context).toEqual([]);
    expect(chain.trace()).toEqual(["start a", "end a block"]);
    q.to("c").answer({ action: "block", reason: "c says no" });
    await settle();
    expect(chain.unused).toEqual([
      { hook: "b", decision: { action: "continue", context: "from b" } },
      { hook: "c", decision: { action: "block", reason: "c says no" } },
    ]);
    expect(q.asked).toHaveLength(3);
  });

  it("a modification drops the window: the hooks after it are asked again with the new values", async () => {
    const q = questions();
    const chain = startChain([ahead("a"), ahead("b")], q.run);
    await settle();
    expect(q.names()).toEqual(["a:ls", "b:ls"]);
    q.to("b").answer({ action: "continue", context: "b saw ls" });
    q.to("a").answer({ action: "modify", input: { command: "pwd" } });
    await settle();
    // (d) b asked again, about the rewritten command; its first answer is unused.
    expect(q.names()).toEqual(["a:ls", "b:ls", "b:pwd"]);
    expect(chain.unused).toEqual([
      { hook: "b", decision: { action: "continue", context: "b saw ls" } },
    ]);
    q.to("b", 1).answer({ action: "continue", context: "b saw pwd" });
    const result = await chain.done;
    expect(result.end).toEqual({ kind: "continue" });
    expect(result.state.toolInput).toEqual({ command: "pwd" });
    expect(result.context).toEqual(["b saw pwd"]);
    expect(chain.trace()).toEqual(["start a", "end a modify", "start b", "end b continue"]);
  });

  it("a spawned hook or one without askAhead is asked only when the chain reaches it, with the askAhead hooks after it", async () => {
    const q = questions();
    const hooks = [
      ahead("a"),
      makeHook({ name: "spawned", askAhead: true }),
      ahead("b"),
      makeHook({ name: "unasked", launch: persistent }),
      ahead("c"),
    ];
    const chain = startChain(hooks, q.run);
    await settle();
    // (e) the spawned hook ends a's window: it is not asked before a answered.
    expect(q.names()).toEqual(["a:ls"]);
    q.to("a").answer({ action: "continue" });
    await settle();
    // Reached, the spawned hook is asked, and b (askAhead) with it; "unasked" ends the window.
    expect(q.names()).toEqual(["a:ls", "spawned:ls", "b:ls"]);
    q.to("b").answer({ action: "continue" });
    await settle();
    expect(q.names()).toEqual(["a:ls", "spawned:ls", "b:ls"]);
    q.to("spawned").answer({ action: "continue" });
    await settle();
    // Reached, the hook without askAhead is asked, and c with it.
    expect(q.names()).toEqual(["a:ls", "spawned:ls", "b:ls", "unasked:ls", "c:ls"]);
    q.to("unasked").answer({ action: "continue" });
    q.to("c").answer({ action: "continue" });
    expect((await chain.done).end).toEqual({ kind: "continue" });
    expect(chain.unused).toEqual([]);
  });

  it("matching follows the values: a hook matching only the rewritten command is asked after the rewrite", async () => {
    const q = questions();
    const rmOnly = (hook: HookDefinition, state: GateState) =>
      hook.name !== "rm-guard" || /\brm\b/.test(commandIn(state));
    const lsOnly = (hook: HookDefinition, state: GateState) =>
      hook.name !== "ls-logger" || /\bls\b/.test(commandIn(state));
    const chain = startChain([ahead("rewriter"), ahead("rm-guard"), ahead("ls-logger")], q.run, {
      matches: (hook, state) => rmOnly(hook, state) && lsOnly(hook, state),
    });
    await settle();
    // (f) rm-guard does not match `ls`: not asked ahead; ls-logger is.
    expect(q.names()).toEqual(["rewriter:ls", "ls-logger:ls"]);
    q.to("ls-logger").answer({ action: "continue", context: "logged ls" });
    q.to("rewriter").answer({ action: "modify", input: { command: "rm -rf x" } });
    await settle();
    // rm-guard now matches and is asked; ls-logger no longer matches: not asked again.
    expect(q.names()).toEqual(["rewriter:ls", "ls-logger:ls", "rm-guard:rm -rf x"]);
    expect(chain.unused).toEqual([
      { hook: "ls-logger", decision: { action: "continue", context: "logged ls" } },
    ]);
    q.to("rm-guard").answer({ action: "block", reason: "no rm" });
    const result = await chain.done;
    expect(result.end).toEqual({ kind: "block", reason: "no rm" });
    expect(chain.trace()).toEqual([
      "start rewriter",
      "end rewriter modify",
      "start rm-guard",
      "end rm-guard block",
    ]);
  });
});
