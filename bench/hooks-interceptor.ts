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
 * work): the worst case, printed for information.
 */
import { performance } from "node:perf_hooks";
import type { AgentEvent, Verdict } from "../dist/agent/events.js";
import type { HookDefinition, HookEventName } from "../dist/hooks/contract/definition.js";
import { createHookInterceptor } from "../dist/hooks/run/interceptor.js";
import type { RunResult } from "../dist/process/types.js";

const EVENTS = 100_000;
const ROUNDS = 11;

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

function realisticStream(): AgentEvent[] {
  const events: AgentEvent[] = [];
  for (let step = 1; events.length < EVENTS; step++) {
    const s = { turn: 1, step };
    events.push({ type: "step_start", ...s });
    events.push({ type: "model_request", ...s, model: "m" });
    for (let i = 0; i < 10; i++) events.push({ type: "text_delta", ...s, text: "token " });
    events.push({
      type: "model_response",
      ...s,
      model: "m",
      text: "…",
      toolCalls: [],
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      finishReason: "tool-calls",
      durationMs: 1,
    });
    const call = { ...s, toolCallId: `c${step}`, toolName: "Bash", input: { command: "ls -la" } };
    events.push({ type: "tool_call_start", ...call });
    events.push({ type: "tool_call_end", ...call, output: "ok", response: {}, durationMs: 1 });
    events.push({ type: "step_end", ...s });
  }
  return events.slice(0, EVENTS);
}

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

async function once(hooks: HookDefinition[], events: AgentEvent[]): Promise<number> {
  const intercept = createHookInterceptor({
    hooks,
    runner: failRunner,
    env: {},
    projectDir: "/bench",
    acaiHome: "/nonexistent",
    audit: { write() {} },
  });
  const started = performance.now();
  let count = 0;
  for await (const _ of intercept(agent(events))) count++;
  const elapsed = performance.now() - started;
  if (count !== events.length) throw new Error(`expected ${events.length} events, got ${count}`);
  return elapsed;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

async function compare(label: string, events: AgentEvent[]): Promise<number> {
  for (let i = 0; i < 3; i++) {
    await once([], events);
    await once(TWENTY, events);
  }
  const none: number[] = [];
  const twenty: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    // Alternate which goes first so drift (GC, CPU contention) spreads evenly.
    if (i % 2 === 0) {
      none.push(await once([], events));
      twenty.push(await once(TWENTY, events));
    } else {
      twenty.push(await once(TWENTY, events));
      none.push(await once([], events));
    }
  }
  const a = median(none);
  const b = median(twenty);
  const perEvent = (ms: number) => ((ms * 1e6) / events.length).toFixed(0);
  console.log(
    `${label}: no hooks ${a.toFixed(1)} ms (${perEvent(a)} ns/event), 20 non-matching hooks ${b.toFixed(1)} ms (${perEvent(b)} ns/event), ratio ${(b / a).toFixed(3)}`,
  );
  return b / a;
}

console.log(
  `hooks-interceptor: ${EVENTS} events, median of ${ROUNDS} interleaved rounds, node ${process.version}`,
);
const ratio = await compare("realistic stream", realisticStream());
await compare("worst case (every event a tool call)", toolStream());
console.log(
  `RESULT ratio ${ratio.toFixed(3)} (target ≤ 1.05): ${ratio <= 1.05 ? "met" : "NOT met"}`,
);
