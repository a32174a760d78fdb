/**
 * Decisions per second of an in-process plugin (docs/plugins.md): a handler
 * that answers `{"action":"block"}` on before_tool, called through the plugin
 * host (a worker thread per plugin; payload copied in, answer JSON out,
 * decoded like a hook's stdout, timeout bookkeeping), with 1, 10, 100 and
 * 1000 calls in flight (calls made in the same tick share one message each
 * way). Baselines measured in the same run: the same handler called on the
 * main thread with the same decode (what an unisolated design would cost),
 * and one spawned hook process (acai's runner, a `/bin/sh` answering the same).
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

const mainRate = await perSecond(1, onMainThread);
console.log(
  `main-thread baseline (no isolation): ${Math.round(mainRate).toLocaleString("en")} decisions/s`,
);
const rates = new Map<number, number>();
for (const inFlight of [1, 10, 100, 1000]) {
  const rate = await perSecond(inFlight, viaWorker);
  rates.set(inFlight, rate);
  console.log(
    `plugin worker, ${String(inFlight).padStart(4)} in flight: ${Math.round(rate).toLocaleString("en")} decisions/s  (${(rate / mainRate).toFixed(3)} × main thread)`,
  );
}
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
const sequential = await perSecond(1, viaWorker);
console.log(
  `spawned hook process: ${spawnRate.toFixed(0)} decisions/s; a plugin, one at a time, is ${(sequential / spawnRate).toFixed(0)} × faster`,
);
const best = Math.max(...rates.values());
const one = rates.get(1) ?? 0;
console.log(
  `RESULT plugin decisions/s ${Math.round(best).toLocaleString("en")} at most (target ≥ 200,000): ${best >= 200_000 ? "met" : "NOT met"}; one call at a time ${Math.round(one).toLocaleString("en")}/s (${(1e6 / one).toFixed(0)} µs a round trip to the worker)`,
);
await host.close();
await rm(root, { recursive: true, force: true });
