/**
 * Spawning that does not grow with acai (issue 25 item 1, decision 0041):
 * one matched hook's process (a bash script that reads its stdin and answers
 * JSON, as in hooks-spawn.ts) started by acai's process runner through the
 * spawn helper, in a process of ~50 MB RSS and in one of ~430 MB, against
 * the same runner forking directly (ACAI_SPAWN_HELPER=0's path) and a bare
 * `child_process.spawn` of the script.
 *
 * Two worker processes ("small" and "big", the latter holding ~380 MB of
 * touched ballast) are started once and kept; the parent asks them in turn,
 * one hook at a time, rotating the order of (worker × way), so both sizes
 * and all ways share the machine's load alike. Each answer is the time the
 * worker measured around one run. Three runs; RESULT lines:
 *   - helper at 430 MB / helper at 50 MB      target ≤ 1.05×
 *   - helper / bare spawn, at 50 MB           target ≤ 1.1× (per-hook overhead)
 * and, for information, the direct runner at 430 MB / 50 MB (what the helper
 * removes) and helper / bare spawn at 430 MB.
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
const WAYS = ["helper", "direct", "bare"] as const;
type Way = (typeof WAYS)[number];

const WORKER = `
const { spawn } = await import("node:child_process");
const { createProcessRunner } = await import(process.env.DIST + "/process/runner.js");
const { createSpawnHelper } = await import(process.env.DIST + "/process/spawn-helper.js");
const ballast = [];
for (let mb = Number(process.env.BALLAST_MB); mb > 0; mb -= 16) ballast.push(Buffer.alloc(16 << 20, 1));
globalThis.keep = ballast;
const helper = createSpawnHelper();
if (!(await helper.ready())) { console.log("no-helper"); process.exit(1); }
const runners = { helper: createProcessRunner({ helper }), direct: createProcessRunner({}) };
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
console.log("ready " + (process.memoryUsage.rss() >> 20));
for await (const line of (await import("node:readline")).createInterface({ input: process.stdin })) {
  const started = performance.now();
  await once(line.trim());
  console.log(String(performance.now() - started));
}
`;

interface Worker {
  child: ChildProcess;
  rssMb: number;
  ask(way: Way): Promise<number>;
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
    rssMb: Number(first.slice(6)),
    async ask(way) {
      child.stdin!.write(`${way}\n`);
      return Number((await lines.next()).value);
    },
  };
}

type Times = Record<"small" | "big", Record<Way, number[]>>;

async function oneRun(workers: Record<"small" | "big", Worker>): Promise<Times> {
  const times: Times = {
    small: { helper: [], direct: [], bare: [] },
    big: { helper: [], direct: [], bare: [] },
  };
  const order = (["small", "big"] as const).flatMap((size) =>
    WAYS.map((way) => [size, way] as const),
  );
  for (let i = 0; i < N + 5; i++) {
    for (let j = 0; j < order.length; j++) {
      const [size, way] = order[(i + j) % order.length]!;
      const ms = await workers[size].ask(way);
      if (i >= 5) times[size][way].push(ms);
    }
  }
  return times;
}

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
    `spawn-helper: N=${N} per way and size, interleaved, node ${process.version}; RSS small ${workers.small.rssMb} MB, big ${workers.big.rssMb} MB`,
  );
  const { values, loads } = await threeRuns(() => oneRun(workers));
  const m = (t: Times, size: "small" | "big", way: Way) => median(t[size][way]);
  const ms = (size: "small" | "big", way: Way) =>
    values.map((t) => m(t, size, way).toFixed(2)).join(", ");
  for (const size of ["small", "big"] as const) {
    console.log(
      `${size.padEnd(5)} helper ${ms(size, "helper")} ms; direct ${ms(size, "direct")} ms; bare ${ms(size, "bare")} ms`,
    );
  }
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
