/**
 * Persistent hooks (hooks.md §6.4), two figures, each against a baseline
 * measured in the same run:
 *
 * 1. One persistent hook (a Node script: reads a request line, parses it,
 *    answers `{"id":…}`) driven through acai's path — runHookOnce → the
 *    persistent host → long-lived process → line reader → answer decoding —
 *    vs the same script driven by a bare driver (write a line, split stdout
 *    lines, match the id: no acai code). Throughput with 32 requests in
 *    flight (target ≥ 20,000 decisions/s) and latency one request at a time
 *    (target p99 < 1 ms). Two bare baselines: the child in acai's session,
 *    and in a session of its own (`detached`, as acai starts hooks so that a
 *    kill reaches their whole group) — under load the scheduler (autogroups
 *    per session) wakes a process of another session later, which shows in
 *    the tail. The same hook written with the typed helper (`defineHook`,
 *    which validates every payload with zod) for information.
 * 2. A session with 20 persistent hooks on before_tool: one tool_call_start
 *    through the whole interceptor (match, payload, 20 requests in chain
 *    order, fold, audit line) vs the same interceptor with no hooks (target:
 *    adds < 1 ms per tool call).
 *
 * Run after a build (Node 24 strips the types itself; the bench uses dist/):
 *   npx tsc -p tsconfig.json && node bench/hooks-persistent.ts
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import type { AgentEvent, Verdict } from "../dist/agent/events.js";
import type { HookDefinition } from "../dist/hooks/definition.js";
import { createHookInterceptor } from "../dist/hooks/interceptor.js";
import { buildPayload } from "../dist/hooks/payload.js";
import { createPersistentHost } from "../dist/hooks/persistent/host.js";
import { runHookOnce } from "../dist/hooks/run.js";
import { startProcess } from "../dist/process/long-lived.js";
import { runProcess } from "../dist/process/runner.js";

const THROUGHPUT_N = 40_000;
const IN_FLIGHT = 32;
const LATENCY_N = 5_000;
const CALLS = 300;
const SDK = fileURLToPath(new URL("../dist/sdk/hooks.js", import.meta.url));

const root = await mkdtemp(path.join(os.tmpdir(), "acai-bench-persistent-"));
const rawScript = path.join(root, "raw.mjs");
await writeFile(
  rawScript,
  `import { createInterface } from "node:readline";
createInterface({ input: process.stdin }).on("line", (line) => {
  const request = JSON.parse(line);
  process.stdout.write(\`{"id":\${request.id}}\\n\`);
});
`,
);
const sdkScript = path.join(root, "sdk.mjs");
await writeFile(
  sdkScript,
  `import { defineHook } from ${JSON.stringify(SDK)};
defineHook({ name: "sdk", events: ["before_tool"], mode: "persistent" }, () => undefined);
`,
);

const parentEnv: Record<string, string> = {};
for (const [k, v] of Object.entries(process.env)) if (v !== undefined) parentEnv[k] = v;

function persistentHook(name: string, script: string): HookDefinition {
  return {
    id: `user:executable:${script}#${name}`,
    name,
    events: ["before_tool"],
    matcher: { tool: "Bash" },
    priority: 100,
    timeoutMs: 30_000,
    async: false,
    failure: "closed",
    env: [],
    scope: "user",
    sourceKind: "executable",
    file: script,
    dialect: "acai",
    launch: { command: process.execPath, args: [script], viaShell: false, mode: "persistent" },
  };
}

const toolStart: AgentEvent = {
  type: "tool_call_start",
  turn: 1,
  step: 1,
  toolCallId: "c1",
  toolName: "Bash",
  input: { command: "ls -la" },
};
const session = { sessionId: "bench", transcriptPath: path.join(root, "t.jsonl"), cwd: root };
const payload = buildPayload({
  event: "before_tool",
  agentEvent: toolStart,
  session,
  dialect: "acai",
  now: Date.now(),
});

type Ask = () => Promise<void>;

/**
 * The bare driver: the same script, the payload serialized per request, lines
 * written and matched by id, nothing of acai. `detached` puts the child in a
 * session of its own, as acai must (its process group is what a kill reaches).
 */
function bareDriver(script: string, detached: boolean): { ask: Ask; close: () => void } {
  const child = spawn(process.execPath, [script], {
    cwd: root,
    detached,
    stdio: ["pipe", "pipe", "inherit"],
  });
  const waiting = new Map<number, () => void>();
  let next = 0;
  let rest = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) {
      const id = (JSON.parse(line) as { id: number }).id;
      waiting.get(id)?.();
      waiting.delete(id);
    }
  });
  return {
    ask: () =>
      new Promise<void>((resolve) => {
        const id = ++next;
        waiting.set(id, resolve);
        child.stdin.write(`{"id":${id},${JSON.stringify(payload).slice(1)}\n`);
      }),
    close: () => child.kill("SIGKILL"),
  };
}

/** acai's path: runHookOnce through the persistent host. */
function acaiDriver(script: string, name: string): { ask: Ask; close: () => void } {
  const host = createPersistentHost({
    starter: startProcess,
    env: parentEnv,
    projectDir: root,
    sessionId: () => "bench",
  });
  const hook = persistentHook(name, script);
  const options = {
    runner: runProcess,
    persistent: host,
    env: parentEnv,
    projectDir: root,
    sessionId: "bench",
  };
  return {
    ask: async () => {
      const record = await runHookOnce(hook, "before_tool", payload, options);
      if (record.decision.action !== "continue") throw new Error(JSON.stringify(record.decision));
    },
    close: () => host.kill(),
  };
}

async function throughput(ask: Ask): Promise<number> {
  let sent = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (sent < THROUGHPUT_N) {
      sent++;
      await ask();
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return THROUGHPUT_N / ((performance.now() - started) / 1000);
}

async function latencies(ask: Ask, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await ask();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

const pct = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const ms = (value: number): string => `${value.toFixed(3)} ms`;

async function measure(label: string, driver: { ask: Ask; close: () => void }) {
  try {
    await latencies(driver.ask, 500); // start + warm up
    const rate = await throughput(driver.ask);
    const lat = await latencies(driver.ask, LATENCY_N);
    console.log(
      `${label.padEnd(30)} ${Math.round(rate).toString().padStart(7)} decisions/s (${IN_FLIGHT} in flight); one at a time p50 ${ms(pct(lat, 0.5))}, p99 ${ms(pct(lat, 0.99))}`,
    );
    return { rate, p50: pct(lat, 0.5), p99: pct(lat, 0.99) };
  } finally {
    driver.close();
  }
}

async function* oneToolCall(): AsyncGenerator<AgentEvent, void, Verdict | undefined> {
  const verdict = yield toolStart;
  if (verdict !== undefined && verdict.action !== "continue") {
    throw new Error(`interceptor verdict ${JSON.stringify(verdict)}`);
  }
}

/** One interceptor run (a session) answering CALLS tool calls; the time of each. */
async function perToolCall(hooks: HookDefinition[]): Promise<number[]> {
  const intercept = createHookInterceptor({
    hooks,
    runner: runProcess,
    starter: startProcess,
    env: parentEnv,
    projectDir: root,
    acaiHome: path.join(root, "acai-home"),
  });
  async function* session(): AsyncGenerator<AgentEvent, void, Verdict | undefined> {
    for (let i = 0; i < CALLS + 20; i++) {
      const started = performance.now();
      yield* oneToolCall();
      if (i >= 20) times.push(performance.now() - started); // the first 20 start the processes
    }
  }
  const times: number[] = [];
  for await (const _ of intercept(session())) {
    // drain
  }
  return times.sort((a, b) => a - b);
}

try {
  console.log(`hooks-persistent: node ${process.version}, load ${os.loadavg()[0]?.toFixed(2)}`);
  await measure("bare driver, same session", bareDriver(rawScript, false));
  const bare = await measure("bare driver, own session", bareDriver(rawScript, true));
  const acai = await measure("acai (runHookOnce, host)", acaiDriver(rawScript, "raw"));
  await measure("acai, hook with defineHook", acaiDriver(sdkScript, "sdk"));
  console.log(
    `ratios acai / bare (own session): throughput ${(acai.rate / bare.rate).toFixed(2)}, p50 ${(acai.p50 / bare.p50).toFixed(2)}, p99 ${(acai.p99 / bare.p99).toFixed(2)}`,
  );
  const twenty = Array.from({ length: 20 }, (_, i) => persistentHook(`p${i}`, rawScript));
  const none = await perToolCall([]);
  const with20 = await perToolCall(twenty);
  const added = pct(with20, 0.5) - pct(none, 0.5);
  console.log(
    `tool call through the interceptor: no hooks p50 ${ms(pct(none, 0.5))}; 20 persistent hooks p50 ${ms(pct(with20, 0.5))}, p99 ${ms(pct(with20, 0.99))}`,
  );
  console.log(
    `RESULT decisions/s ${Math.round(acai.rate)} (target ≥ 20000): ${acai.rate >= 20_000 ? "met" : "NOT met"}; p99 ${ms(acai.p99)} (target < 1 ms): ${acai.p99 < 1 ? "met" : "NOT met"}; 20 hooks add ${ms(added)} per tool call (target < 1 ms): ${added < 1 ? "met" : "NOT met"}`,
  );
} finally {
  await rm(root, { recursive: true, force: true });
}
