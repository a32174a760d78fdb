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
 *    through the whole interceptor (match, payload, 20 requests, the fold in
 *    chain order, audit lines) vs the same interceptor with no hooks (target:
 *    adds < 1 ms per tool call). Asked one after another (the default) and
 *    asked ahead (`ask_ahead`, decision 0012), for the same hook written in
 *    Node, Python and Perl — the 20 processes' own wake-ups differ a lot by
 *    runtime — and, as the floor, the same 20 processes asked all at once by a
 *    bare driver with no acai code.
 *
 * Run after a build (Node 24 strips the types itself; the bench uses dist/):
 *   npx tsc -p tsconfig.json && node bench/hooks-persistent.ts
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import type { AgentEvent, Verdict } from "../dist/agent/events.js";
import type { HookDefinition } from "../dist/hooks/contract/definition.js";
import { createHookInterceptor } from "../dist/hooks/run/interceptor.js";
import { createPersistentHost } from "../dist/hooks/run/persistent/host.js";
import { runHookOnce } from "../dist/hooks/run/run.js";
import { startProcess } from "../dist/process/long-lived.js";
import { runProcess } from "../dist/process/runner.js";
import { bashToolCall, parentEnvironment } from "./support/bash-call.ts";

const THROUGHPUT_N = 40_000;
const IN_FLIGHT = 32;
const LATENCY_N = 5_000;
const CALLS = 1000;
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
// The same hook (parse the request, answer nothing to say) in Python and Perl.
const pyScript = path.join(root, "raw.py");
await writeFile(
  pyScript,
  `import json, sys
for line in sys.stdin:
    request = json.loads(line)
    sys.stdout.write('{"id":%d}\\n' % request["id"])
    sys.stdout.flush()
`,
);
const plScript = path.join(root, "raw.pl");
await writeFile(
  plScript,
  `use JSON::PP; $| = 1; my $json = JSON::PP->new;
while (my $line = <STDIN>) { my $request = $json->decode($line); print "{\\"id\\":$request->{id}}\\n"; }
`,
);
/** The runtimes found here, each running its version of the hook. */
function hookRuntimes(): HookCommand[] {
  const found = [nodeHook(rawScript)];
  const works = (command: string, args: string[]): boolean =>
    spawnSync(command, args, { stdio: "ignore" }).status === 0;
  if (works("python3", ["-c", "import json"])) {
    found.push({ label: "Python", command: "python3", args: ["-u", pyScript] });
  }
  if (works("perl", ["-MJSON::PP", "-e", "1"])) {
    found.push({ label: "Perl", command: "perl", args: [plScript] });
  }
  return found;
}

const sdkScript = path.join(root, "sdk.mjs");
await writeFile(
  sdkScript,
  `import { defineHook } from ${JSON.stringify(SDK)};
defineHook({ name: "sdk", events: ["before_tool"], mode: "persistent" }, () => undefined);
`,
);

const parentEnv = parentEnvironment();

/** A persistent hook run as `command args…` (a script's interpreter and the script). */
interface HookCommand {
  label: string;
  command: string;
  args: string[];
}
const nodeHook = (script: string): HookCommand => ({
  label: "Node",
  command: process.execPath,
  args: [script],
});

function persistentHook(name: string, script: string, run = nodeHook(script)): HookDefinition {
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
    launch: { command: run.command, args: run.args, viaShell: false, mode: "persistent" },
  };
}

const { toolStart, payload } = bashToolCall(root);

type Ask = () => Promise<void>;

/**
 * The bare driver: the same script, the payload serialized per request, lines
 * written and matched by id, nothing of acai. `detached` puts the child in a
 * session of its own, as acai must (its process group is what a kill reaches).
 */
function bareDriver(
  script: string,
  detached: boolean,
  run = nodeHook(script),
): { ask: Ask; close: () => void } {
  const child = spawn(run.command, run.args, {
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

/** The floor: the same 20 processes, each asked once per round all at once, answers awaited, no acai code. */
async function allAtOnce(run: HookCommand): Promise<number[]> {
  const drivers = Array.from({ length: 20 }, () => bareDriver(rawScript, true, run));
  try {
    for (let i = 0; i < 20; i++) await Promise.all(drivers.map((d) => d.ask())); // started, warm
    const times: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const started = performance.now();
      await Promise.all(drivers.map((d) => d.ask()));
      times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b);
  } finally {
    for (const d of drivers) d.close();
  }
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
  const none = await perToolCall([]);
  console.log(`tool call through the interceptor, no hooks: p50 ${ms(pct(none, 0.5))}`);
  const results: string[] = [];
  for (const run of hookRuntimes()) {
    const hooks = (askAhead: boolean): HookDefinition[] =>
      Array.from({ length: 20 }, (_, i) => ({
        ...persistentHook(`p${i}`, rawScript, run),
        ...(askAhead ? { askAhead: true } : {}),
      }));
    const floor = await allAtOnce(run);
    const inTurn = await perToolCall(hooks(false));
    const ahead = await perToolCall(hooks(true));
    const added = pct(ahead, 0.5) - pct(none, 0.5);
    console.log(
      `20 ${run.label} hooks per tool call: bare driver, all at once (no acai) p50 ${ms(pct(floor, 0.5))}; acai one after another p50 ${ms(pct(inTurn, 0.5))}, p99 ${ms(pct(inTurn, 0.99))}; acai asked ahead p50 ${ms(pct(ahead, 0.5))}, p99 ${ms(pct(ahead, 0.99))}`,
    );
    results.push(
      `20 ${run.label} hooks asked ahead add ${ms(added)} (${added < 1 ? "met" : "NOT met"})`,
    );
  }
  console.log(
    `RESULT decisions/s ${Math.round(acai.rate)} (target ≥ 20000): ${acai.rate >= 20_000 ? "met" : "NOT met"}; p99 ${ms(acai.p99)} (target < 1 ms): ${acai.p99 < 1 ? "met" : "NOT met"}; per tool call (target < 1 ms): ${results.join("; ")}`,
  );
} finally {
  await rm(root, { recursive: true, force: true });
}
