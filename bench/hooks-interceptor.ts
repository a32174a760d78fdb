/**
 * Interceptor overhead: 100,000 synthetic agent events through the hook
 * interceptor with 20 configured hooks that do not match vs no hooks, in the
 * same process, rounds interleaved; prints the ratio of medians (target ≤ 1.05).
 *
 * Run (Node 24 strips the types itself; the bench uses the built code):
 *   cd /work/main && export PATH="$PWD/node_modules/.bin:$PATH"
 *   npx tsc -p tsconfig.json && node bench/hooks-interceptor.ts
 *
 * The event stream is a realistic step, repeated: step_start, model_request,
 * 10 text_delta, model_response, tool_call_start (Bash), tool_call_end,
 * step_end. The 20 hooks listen to before_tool / after_tool /
 * after_tool_failure with tool matchers no call matches (they start nothing).
 * A second figure runs only tool_call_start events (every event does matching
 * work): the worst case, printed for information. A third has 20 hooks that
 * DO match (10 on before_tool and 10 on after_tool, matcher `Bash`) with a
 * runner that answers at once without starting a process: the interceptor's
 * own work per matched hook (plan, payload, environment, decoding, the fold,
 * the hook_start/hook_end events, the audit record), in µs per hook run —
 * what a real hook's process time comes on top of. Three runs each; RESULT
 * lines give every run's ratio, the spread and the load.
 */
import { performance } from "node:perf_hooks";
import type { AgentEvent } from "../dist/agent/events.js";
import type { Verdict } from "../dist/agent/verdicts.js";
import type { HookDefinition, HookEventName } from "../dist/hooks/contract/definition.js";
import { createHookInterceptor } from "../dist/hooks/run/interceptor.js";
import type { RunResult } from "../dist/process/types.js";
import { median, printResult, type Target, threeRuns } from "./support/result.ts";
import { stepStream } from "./support/step-stream.ts";

const EVENTS = 100_000;
/** Fewer events for matched hooks: each tool call there runs 10 hooks. */
const MATCHED_EVENTS = 16_000;
const ROUNDS = 5;

function hook(index: number, event: HookEventName): HookDefinition {
  return {
    id: `user:executable:/bench/hook-${index}`,
    name: `hook-${index}`,
    events: [event],
    matcher: { tool: `Deploy${index}|Publish${index}` },
    priority: 100,
    timeoutMs: 30_000,
    async: false,
    failure: "open",
    env: [],
    scope: "user",
    sourceKind: "executable",
    file: `/bench/hook-${index}`,
    dialect: "acai",
    launch: { command: "/bin/false", args: [], viaShell: false },
  };
}

const TWENTY: HookDefinition[] = Array.from({ length: 20 }, (_, i) =>
  hook(i, i < 10 ? "before_tool" : i < 15 ? "after_tool" : "after_tool_failure"),
);
/** 20 hooks that match every Bash call: 10 before it, 10 after it. */
const MATCHING: HookDefinition[] = Array.from({ length: 20 }, (_, i) => ({
  ...hook(i, i < 10 ? "before_tool" : "after_tool"),
  matcher: { tool: "Bash" },
}));

const realisticStream = (count: number) => stepStream(count, () => "ls -la");

function toolStream(): AgentEvent[] {
  return Array.from({ length: EVENTS }, (_, i) => ({
    type: "tool_call_start" as const,
    turn: 1,
    step: i,
    toolCallId: `c${i}`,
    toolName: "Bash",
    input: { command: "ls -la" },
  }));
}

async function* agent(events: AgentEvent[]): AsyncGenerator<AgentEvent, void, Verdict | undefined> {
  for (const event of events) yield event;
}

const failRunner = async (): Promise<RunResult> => {
  throw new Error("a non-matching hook must not start a process");
};
/** A hook that answers "nothing to say" at once, with no process. */
const instantRunner = async (): Promise<RunResult> => ({
  exitCode: 0,
  signal: null,
  stdout: "",
  stderr: "",
  timedOut: false,
  aborted: false,
  truncated: { stdout: false, stderr: false },
  durationMs: 0,
});

/** Hook runs of MATCHING over `events`: 10 before and 10 after each Bash call. */
function matchedRuns(events: AgentEvent[]): number {
  return events.filter((e) => e.type === "tool_call_start").length * 20;
}

async function once(hooks: HookDefinition[], events: AgentEvent[]): Promise<number> {
  const intercept = createHookInterceptor({
    hooks,
    runner: hooks === MATCHING ? instantRunner : failRunner,
    env: {},
    projectDir: "/bench",
    acaiHome: "/nonexistent",
    audit: { write() {} },
  });
  const started = performance.now();
  let count = 0;
  for await (const _ of intercept(agent(events))) count++;
  const elapsed = performance.now() - started;
  // A matched hook adds its hook_start and hook_end events.
  const expected = events.length + (hooks === MATCHING ? 2 * matchedRuns(events) : 0);
  if (count !== expected) throw new Error(`expected ${expected} events, got ${count}`);
  return elapsed;
}

/** One run: ROUNDS interleaved rounds of no hooks and `hooks`; the medians (ms). */
async function compareOnce(
  hooks: HookDefinition[],
  events: AgentEvent[],
): Promise<[number, number]> {
  const none: number[] = [];
  const some: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    // Alternate which goes first so drift (GC, CPU contention) spreads evenly.
    if (i % 2 === 0) {
      none.push(await once([], events));
      some.push(await once(hooks, events));
    } else {
      some.push(await once(hooks, events));
      none.push(await once([], events));
    }
  }
  return [median(none), median(some)];
}

async function compare(
  label: string,
  hooks: HookDefinition[],
  events: AgentEvent[],
  target?: Target,
): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await once([], events);
    await once(hooks, events);
  }
  const perEvent = (ms: number) => ((ms * 1e6) / events.length).toFixed(0);
  const { values, loads } = await threeRuns(async (run) => {
    const [a, b] = await compareOnce(hooks, events);
    console.log(
      `${label}, run ${run + 1}: no hooks ${a.toFixed(1)} ms (${perEvent(a)} ns/event), 20 hooks ${b.toFixed(1)} ms (${perEvent(b)} ns/event), ratio ${(b / a).toFixed(3)}`,
    );
    return [a, b] as const;
  });
  const hookRuns =
    hooks === MATCHING ? events.filter((e) => e.type === "tool_call_start").length * 20 : 0;
  const perHook = values.map(([a, b]) => (((b - a) * 1000) / hookRuns).toFixed(1));
  printResult({
    name: `interceptor, ${label}: 20 hooks vs none`,
    ratios: values.map(([a, b]) => b / a),
    loads,
    ...(target ? { target } : {}),
    detail: hookRuns
      ? `acai's own work per matched hook run ${perHook.join(", ")} µs (no process: a runner that answers at once)`
      : `${values.map(([a, b]) => `${perEvent(a)} → ${perEvent(b)}`).join(", ")} ns/event`,
  });
}

console.log(
  `hooks-interceptor: median of ${ROUNDS} interleaved rounds per run, three runs, node ${process.version}`,
);
await compare("realistic stream, no hook matches", TWENTY, realisticStream(EVENTS), {
  op: "≤",
  value: 1.05,
});
await compare("worst case (every event a tool call), no hook matches", TWENTY, toolStream());
await compare(
  "realistic stream, every Bash call matches 20 hooks",
  MATCHING,
  realisticStream(MATCHED_EVENTS),
);
