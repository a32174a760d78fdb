/**
 * What one plugin decision costs (docs/plugins.md): a handler that answers
 * `{"action":"block"}` on before_tool, called through the plugin host — in
 * its worker thread (the default: payload copied in, answer JSON out, decoded
 * like a hook's stdout, timeout bookkeeping) and, the same file, with
 * `isolation: "none"` (in acai's own thread, in-process.ts: the same host,
 * thread bookkeeping and decoding, no thread round trip). Baselines measured
 * in the same run: the same handler called on the main thread with the same
 * decode and nothing else, and one spawned hook process (acai's runner, a
 * `/bin/sh` answering the same).
 *
 * RESULT lines are one call in flight — what a decision costs a gate's
 * chain, which asks one plugin at a time — as µs a decision over the issue's
 * 5 µs budget (≤ 1 met): in-process, then the worker; the three take turns
 * block by block, three runs. The worker with 10, 100 and 1000 calls in
 * flight is printed beside it.
 *
 * Run: npx tsc -p tsconfig.json && node bench/plugins.ts
 */
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { HookDefinition } from "../dist/hooks/contract/definition.js";
import { PluginHost } from "../dist/hooks/run/plugins/host.js";
import { pluginRecord } from "../dist/hooks/run/plugins/record.js";
import { runHookOnce } from "../dist/hooks/run/run.js";
import { runProcess } from "../dist/process/runner.js";
import { median, printResult, threeRuns } from "./support/result.ts";

const TOTAL = 20_000;
const root = await mkdtemp(path.join(os.tmpdir(), "acai-bench-plugins-"));
const file = path.join(root, "guard.mjs");
// The same handler as \`handler\` below (the main-thread baseline).
const handlerText = `(event) => /rm/.test(event.tool_input.command) ? { action: "block", reason: "no" } : undefined`;
await writeFile(file, `export function register(api) { api.on("before_tool", ${handlerText}); }\n`);
const script = path.join(root, "guard.sh");
await writeFile(script, `#!/bin/sh\ncat >/dev/null\necho '{"action":"block","reason":"no"}'\n`);
await chmod(script, 0o755);

const base = {
  events: ["before_tool" as const],
  matcher: {},
  priority: 100,
  timeoutMs: 30_000,
  async: false,
  failure: "open" as const,
  env: [],
  scope: "user" as const,
  dialect: "acai" as const,
};
const pluginHook: HookDefinition = {
  ...base,
  id: `user:plugin:${file}#0`,
  name: "guard",
  sourceKind: "plugin",
  file,
  launch: { mode: "plugin", command: file, args: ["#0"], viaShell: false, registration: 0 },
};
const processHook: HookDefinition = {
  ...base,
  id: `user:executable:${script}`,
  name: "guard.sh",
  sourceKind: "executable",
  file: script,
  launch: { command: script, args: [], viaShell: false },
};
const payload = {
  session_id: "bench",
  event: "before_tool",
  tool_name: "Bash",
  tool_input: { command: "rm -rf build" },
};

const host = new PluginHost({ env: {} });
const load = await host.load(file);
if (!load.ok) throw new Error(load.reason);
const inProcessHost = new PluginHost({ env: {}, inProcess: new Set([file]) });
const inProcessLoad = await inProcessHost.load(file);
if (!inProcessLoad.ok) throw new Error(inProcessLoad.reason);
const launch = pluginHook.launch as Extract<HookDefinition["launch"], { mode: "plugin" }>;

async function perSecond(inFlight: number, call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let done = 0; done < TOTAL; done += inFlight) {
    const batch: Promise<unknown>[] = [];
    for (let i = 0; i < inFlight; i++) batch.push(call());
    await Promise.all(batch);
  }
  return TOTAL / ((performance.now() - started) / 1000);
}

const viaWorker = () => host.call({ hook: pluginHook, launch, event: "before_tool", payload });
const inProcess = () =>
  inProcessHost.call({ hook: pluginHook, launch, event: "before_tool", payload });
// The baseline: the handler on acai's own thread, its answer decoded the same way.
const handler = (event: typeof payload): unknown =>
  /rm/.test(event.tool_input.command) ? { action: "block", reason: "no" } : undefined;
const onMainThread = async () => {
  const answer = await handler(structuredClone(payload));
  return pluginRecord(
    {
      hook: pluginHook,
      event: "before_tool",
      shape: "acai",
      payload,
      startedAt: 0,
      now: 0,
      maxOutputBytes: 1 << 20,
    },
    answer === undefined ? { kind: "answer" } : { kind: "answer", json: JSON.stringify(answer) },
  );
};

for (const check of [await viaWorker(), await inProcess()]) {
  if (check.decision.action !== "block")
    throw new Error(`unexpected ${JSON.stringify(check.decision)}`);
}
await perSecond(100, viaWorker); // warm-up
await perSecond(100, onMainThread);
await perSecond(100, inProcess);

// The headline is ONE call in flight: a gate's chain asks one plugin at a time, so that is what a
// decision costs a tool call. Main thread and worker take turns, block by block, in each run.
const BLOCKS = 5;
const { values, loads } = await threeRuns(async (run) => {
  const main: number[] = [];
  const worker: number[] = [];
  const none: number[] = [];
  for (let block = 0; block < BLOCKS; block++) {
    main.push(await perSecond(1, onMainThread));
    none.push(await perSecond(1, inProcess));
    worker.push(await perSecond(1, viaWorker));
  }
  const rates = new Map<number, number>();
  for (const inFlight of [10, 100, 1000]) rates.set(inFlight, await perSecond(inFlight, viaWorker));
  const [m, w, n] = [median(main), median(worker), median(none)];
  const us = (rate: number) => `${(1e6 / rate).toFixed(2)} µs`;
  console.log(
    `run ${run + 1}: one call in flight: main thread, handler and decode only ${us(m)}; isolation "none" ${us(n)}; plugin worker ${us(w)} (${Math.round(w).toLocaleString("en")}/s); worker with more in flight: ${[...rates].map(([k, r]) => `${k} → ${Math.round(r).toLocaleString("en")}/s`).join(", ")}`,
  );
  return { main: m, worker: w, none: n };
});
const SPAWNS = 30;
const spawnStart = performance.now();
for (let i = 0; i < SPAWNS; i++) {
  await runHookOnce(processHook, "before_tool", payload, {
    runner: runProcess,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    projectDir: root,
    sessionId: "bench",
  });
}
const spawnRate = SPAWNS / ((performance.now() - spawnStart) / 1000);
const sequential = median(values.map((v) => v.worker));
console.log(
  `spawned hook process: ${spawnRate.toFixed(0)} decisions/s; a plugin, one at a time, is ${(sequential / spawnRate).toFixed(0)} × faster`,
);
const BUDGET_US = 5;
const micros = (rate: (v: (typeof values)[number]) => number) => values.map((v) => 1e6 / rate(v));
const list = (us: number[]) => us.map((u) => `${u.toFixed(2)} µs`).join(", ");
printResult({
  name: 'one plugin decision, one call in flight (a gate\'s chain), isolation "none": µs a decision / the 5 µs budget',
  ratios: micros((v) => v.none).map((u) => u / BUDGET_US),
  loads,
  target: { op: "≤", value: 1 },
  detail: `${list(micros((v) => v.none))} a decision; the handler and decode alone on the main thread ${list(micros((v) => v.main))}`,
});
printResult({
  name: "one plugin decision, one call in flight, in its worker thread (the default): µs a decision / the 5 µs budget",
  ratios: micros((v) => v.worker).map((u) => u / BUDGET_US),
  loads,
  target: { op: "≤", value: 1 },
  detail: `${list(micros((v) => v.worker))} a decision (a round trip between two threads)`,
});
await host.close();
await inProcessHost.close();
await rm(root, { recursive: true, force: true });
