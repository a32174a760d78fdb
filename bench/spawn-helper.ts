/**
 * Spawning that does not grow with acai (issue 25 item 1, decisions 0041
 * and 0056): one matched hook's process (a bash script that reads its stdin
 * and answers JSON, as in hooks-spawn.ts) started by acai's process runner
 * through the spawn helper (the Python one where /usr/bin/python3 runs — the
 * first line says which), in a process of ~50 MB RSS and in one of ~430 MB,
 * against the Node helper (`node`, the A/B), the same runner forking directly
 * (ACAI_SPAWN_HELPER=0's path) and a bare `child_process.spawn` of the script.
 *
 * Two worker processes ("small" and "big", the latter holding ~380 MB of
 * touched ballast) are started once and kept; the parent asks them in turn,
 * one hook at a time, rotating the order of (worker × way), so both sizes
 * and all ways share the machine's load alike. Each answer is the time the
 * worker measured around one run. Three runs; RESULT lines:
 *   - helper at 430 MB / helper at 50 MB      target ≤ 1.05×
 *   - helper / bare spawn, at 50 MB           target ≤ 1.1× (per-hook overhead)
 * and, for information, the direct runner at 430 MB / 50 MB (what the helper
 * removes) and helper / bare spawn at 430 MB. A CPU line says what one hook
 * costs in CPU each way — the worker's own (acai's side) and the helper
 * process's (its threads' schedstat) — which, unlike the times, hardly
 * depends on the machine's load.
 *
 *   npm run build && node bench/spawn-helper.ts [--runs N]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { median, printResult, threeRuns } from "./support/result.ts";

const N = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 60;
const WAYS = ["helper", "node", "direct", "bare"] as const;
type Way = (typeof WAYS)[number];

const WORKER = `
const { spawn } = await import("node:child_process");
const { createProcessRunner } = await import(process.env.DIST + "/process/runner.js");
const { createSpawnHelper } = await import(process.env.DIST + "/process/spawn-helper.js");
const ballast = [];
for (let mb = Number(process.env.BALLAST_MB); mb > 0; mb -= 16) ballast.push(Buffer.alloc(16 << 20, 1));
globalThis.keep = ballast;
const helper = createSpawnHelper();
const nodeHelper = createSpawnHelper({ python: false });
if (!(await helper.ready()) || !(await nodeHelper.ready())) { console.log("no-helper"); process.exit(1); }
const runners = {
  helper: createProcessRunner({ helper }),
  node: createProcessRunner({ helper: nodeHelper }),
  direct: createProcessRunner({}),
};
const script = process.env.SCRIPT, cwd = process.env.ROOT, stdin = process.env.PAYLOAD;
const env = { PATH: "/usr/bin:/bin", LANG: "C.UTF-8" };
function bare() {
  return new Promise((resolve, reject) => {
    const child = spawn(script, [], { cwd, env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk) => { out += chunk; });
    child.stderr.resume();
    child.on("error", reject);
    child.on("close", () => out.includes("continue") ? resolve() : reject(new Error(out)));
    child.stdin.end(stdin);
  });
}
async function once(way) {
  if (way === "bare") return bare();
  const result = await runners[way]({ command: script, cwd, env, stdin, timeoutMs: 30000 });
  if (!result.stdout.includes("continue")) throw new Error(way + ": " + JSON.stringify(result));
}
const { readdirSync, readFileSync } = await import("node:fs");
function helperCpuMs() {
  let ns = 0;
  for (const pid of [helper.pid(), nodeHelper.pid()]) {
    try {
      for (const tid of readdirSync("/proc/" + pid + "/task")) {
        ns += Number(readFileSync("/proc/" + pid + "/task/" + tid + "/schedstat", "utf8").split(" ")[0]);
      }
    } catch {}
  }
  return ns / 1e6;
}
console.log("ready " + (process.memoryUsage.rss() >> 20) + " " + helper.kind());
for await (const line of (await import("node:readline")).createInterface({ input: process.stdin })) {
  const cpu = process.cpuUsage(), helperBefore = helperCpuMs();
  const started = performance.now();
  await once(line.trim());
  const ms = performance.now() - started;
  const own = process.cpuUsage(cpu);
  console.log(ms + " " + (own.user + own.system) / 1000 + " " + (helperCpuMs() - helperBefore));
}
`;

/** One hook: its time, and the CPU the worker (acai's side) and the helper process used for it. */
interface Answer {
  ms: number;
  ownCpuMs: number;
  helperCpuMs: number;
}

interface Worker {
  child: ChildProcess;
  rssMb: number;
  helperKind: string;
  ask(way: Way): Promise<Answer>;
}

async function startWorker(root: string, script: string, ballastMb: number): Promise<Worker> {
  const child = spawn(process.execPath, ["--input-type=module", "-e", WORKER], {
    stdio: ["pipe", "pipe", "inherit"],
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      DIST: path.resolve("dist"),
      BALLAST_MB: String(ballastMb),
      SCRIPT: script,
      ROOT: root,
      PAYLOAD: `${JSON.stringify({ tool_name: "Bash", tool_input: { command: "ls" } })}\n`,
    },
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const first = String((await lines.next()).value);
  if (!first.startsWith("ready ")) throw new Error(`worker: ${first}`);
  return {
    child,
    rssMb: Number(first.split(" ")[1]),
    helperKind: String(first.split(" ")[2]),
    async ask(way) {
      child.stdin!.write(`${way}\n`);
      const [ms, ownCpuMs, helperCpuMs] = String((await lines.next()).value)
        .split(" ")
        .map(Number);
      return { ms: ms!, ownCpuMs: ownCpuMs!, helperCpuMs: helperCpuMs! };
    },
  };
}

type Times = Record<"small" | "big", Record<Way, number[]>>;
type Cpu = Record<Way, { own: number; helper: number }>;

async function oneRun(workers: Record<"small" | "big", Worker>): Promise<Times> {
  const times: Times = {
    small: { helper: [], node: [], direct: [], bare: [] },
    big: { helper: [], node: [], direct: [], bare: [] },
  };
  const cpu: Cpu = { helper: zero(), node: zero(), direct: zero(), bare: zero() };
  const order = (["small", "big"] as const).flatMap((size) =>
    WAYS.map((way) => [size, way] as const),
  );
  for (let i = 0; i < N + 5; i++) {
    for (let j = 0; j < order.length; j++) {
      const [size, way] = order[(i + j) % order.length]!;
      const answer = await workers[size].ask(way);
      if (i < 5) continue;
      times[size][way].push(answer.ms);
      if (size === "small") {
        cpu[way].own += answer.ownCpuMs / N;
        cpu[way].helper += answer.helperCpuMs / N;
      }
    }
  }
  cpuRuns.push(cpu);
  return times;
}

function zero(): { own: number; helper: number } {
  return { own: 0, helper: 0 };
}

/** Each run's mean CPU per hook at ~50 MB, by way. */
const cpuRuns: Cpu[] = [];

const root = await mkdtemp(path.join(os.tmpdir(), "acai-bench-spawn-helper-"));
const script = path.join(root, "answer.sh");
await writeFile(
  script,
  `#!/bin/bash\ninput=$(cat)\nif [[ "$input" == *'"tool_name":"Bash"'* ]]; then echo '{"action":"continue"}'; else echo '{}'; fi\n`,
);
await chmod(script, 0o755);
const workers = {
  small: await startWorker(root, script, 0),
  big: await startWorker(root, script, 380),
};
try {
  console.log(
    `spawn-helper: N=${N} per way and size, interleaved, node ${process.version}; RSS small ${workers.small.rssMb} MB, big ${workers.big.rssMb} MB; helper: ${workers.small.helperKind}`,
  );
  const { values, loads } = await threeRuns(() => oneRun(workers));
  const m = (t: Times, size: "small" | "big", way: Way) => median(t[size][way]);
  const ms = (size: "small" | "big", way: Way) =>
    values.map((t) => m(t, size, way).toFixed(2)).join(", ");
  for (const size of ["small", "big"] as const) {
    console.log(
      `${size.padEnd(5)} helper ${ms(size, "helper")} ms; node helper ${ms(size, "node")} ms; direct ${ms(size, "direct")} ms; bare ${ms(size, "bare")} ms`,
    );
  }
  const cpuMs = (way: Way, side: "own" | "helper") =>
    cpuRuns.map((cpu) => cpu[way][side].toFixed(2)).join(", ");
  console.log(
    `CPU per hook at ~50 MB (each run's mean): helper path: acai ${cpuMs("helper", "own")} + helper ${cpuMs("helper", "helper")} ms; Node helper path: acai ${cpuMs("node", "own")} + helper ${cpuMs("node", "helper")} ms; direct: acai ${cpuMs("direct", "own")} ms; bare: ${cpuMs("bare", "own")} ms`,
  );
  printResult({
    name: "a spawned hook through the helper at ~430 MB RSS vs at ~50 MB",
    ratios: values.map((t) => m(t, "big", "helper") / m(t, "small", "helper")),
    loads,
    target: { op: "≤", value: 1.05 },
    detail: `helper big ${ms("big", "helper")} ms, small ${ms("small", "helper")} ms`,
  });
  printResult({
    name: "a spawned hook through the helper vs a bare spawn, at ~50 MB",
    ratios: values.map((t) => m(t, "small", "helper") / m(t, "small", "bare")),
    loads,
    target: { op: "≤", value: 1.1 },
    detail: `helper ${ms("small", "helper")} ms, bare ${ms("small", "bare")} ms`,
  });
  printResult({
    name: "(A/B) the helper vs the Node helper, at ~50 MB",
    ratios: values.map((t) => m(t, "small", "helper") / m(t, "small", "node")),
    loads,
    detail: `helper ${ms("small", "helper")} ms, Node helper ${ms("small", "node")} ms`,
  });
  printResult({
    name: "(before) the Node helper vs a bare spawn, at ~50 MB",
    ratios: values.map((t) => m(t, "small", "node") / m(t, "small", "bare")),
    loads,
    detail: `Node helper ${ms("small", "node")} ms, bare ${ms("small", "bare")} ms`,
  });
  printResult({
    name: "(before) the runner forking directly at ~430 MB vs at ~50 MB",
    ratios: values.map((t) => m(t, "big", "direct") / m(t, "small", "direct")),
    loads,
    detail: `direct big ${ms("big", "direct")} ms, small ${ms("small", "direct")} ms`,
  });
  printResult({
    name: "a spawned hook through the helper vs a bare spawn, at ~430 MB",
    ratios: values.map((t) => m(t, "big", "helper") / m(t, "big", "bare")),
    loads,
    detail: `helper ${ms("big", "helper")} ms, bare ${ms("big", "bare")} ms`,
  });
} finally {
  for (const worker of Object.values(workers)) worker.child.kill("SIGKILL");
  await rm(root, { recursive: true, force: true });
}
