/**
 * Decisions per second of an in-process plugin (docs/plugins.md): a handler
 * that answers `{"action":"block"}` on before_tool, called through the plugin
 * host (a worker thread per plugin; payload copied in, answer JSON out,
 * decoded like a hook's stdout, timeout bookkeeping), with 1, 10, 100 and
 * 1000 calls in flight (calls made in the same tick share one message each
 * way). Baselines measured in the same run: the same handler called on the
 * main thread with the same decode (what an unisolated design would cost),
 * and one spawned hook process (acai's runner, a `/bin/sh` answering the same).
 * The RESULT line is one call in flight — what a decision costs a gate's
 * chain, which asks one plugin at a time — main thread and worker taking
 * turns block by block, three runs; the other levels are printed beside it.
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

const check = await viaWorker();
if (check.decision.action !== "block")
  throw new Error(`unexpected ${JSON.stringify(check.decision)}`);
await perSecond(100, viaWorker); // warm-up
await perSecond(100, onMainThread);

// The headline is ONE call in flight: a gate's chain asks one plugin at a time, so that is what a
// decision costs a tool call. Main thread and worker take turns, block by block, in each run.
const BLOCKS = 5;
const { values, loads } = await threeRuns(async (run) => {
  const main: number[] = [];
  const worker: number[] = [];
  for (let block = 0; block < BLOCKS; block++) {
    main.push(await perSecond(1, onMainThread));
    worker.push(await perSecond(1, viaWorker));
  }
  const rates = new Map<number, number>();
  for (const inFlight of [10, 100, 1000]) rates.set(inFlight, await perSecond(inFlight, viaWorker));
  const [m, w] = [median(main), median(worker)];
  console.log(
    `run ${run + 1}: one call in flight: main thread (no isolation) ${Math.round(m).toLocaleString("en")}/s, plugin worker ${Math.round(w).toLocaleString("en")}/s (${(1e6 / w).toFixed(1)} µs a decision); with more in flight: ${[...rates].map(([n, r]) => `${n} → ${Math.round(r).toLocaleString("en")}/s`).join(", ")}`,
  );
  return { main: m, worker: w };
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
const micros = values.map((v) => 1e6 / v.worker);
printResult({
  name: "one plugin decision, one call in flight (a gate's chain): time through the worker / on the main thread",
  ratios: values.map((v) => v.main / v.worker),
  loads,
  detail: `${micros.map((u) => `${u.toFixed(1)} µs`).join(", ")} a decision (target ≤ 5 µs: ${median(micros) <= 5 ? "met" : "NOT met"}); ${values.map((v) => Math.round(v.worker).toLocaleString("en")).join(", ")} decisions/s (the old ≥ 200,000 target counted 100–1000 calls in flight, which a gate's chain never has)`,
});
await host.close();
await rm(root, { recursive: true, force: true });
