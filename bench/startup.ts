/**
 * acai start-up: time from spawning `acai -p` until its first model request
 * reaches a local fake OpenAI-compatible server, against a bare `node -e ""`
 * (spawn to exit) measured in the same run, alternating.
 *
 * Two projects: a realistic one — a git repository of 2,000 files in 100
 * folders, with a dozen hooks (six executables in `.acai/hooks/`, six command
 * hooks in `.acai/settings.json`; two of the executables, on session_start and
 * user_prompt, run before the first request, each in the OS sandbox where
 * bwrap runs — a policy each, so two sandbox spawners), trusted once with
 * `acai hooks trust` — and
 * an empty folder (the best case). Three runs of N alternating pairs each;
 * the RESULT lines are the ratio of the medians (target ≤ 5× for the
 * realistic project, issue 25 item 2) with every run's ratio and the load.
 *
 *   npm run bench:startup            (builds first; N=7 pairs per run)
 *   node bench/startup.ts --runs 10  (after npm run build)
 *   node bench/startup.ts --before ../old/dist/bundle/main.js
 *                                    (also an older build, interleaved: an "after vs before" RESULT line)
 *
 * Each round also runs the AI SDK alone (bench/support/ai-sdk-floor.ts: its
 * `streamText` to the same server, one eagerly compiled file behind the
 * compile cache, sending over acai's model fetch as acai does, decision 0067):
 * the floor acai cannot go under while it uses that SDK; the
 * RESULT line "vs the AI SDK alone" gives acai's own share above it.
 *
 * With --before on Linux, also the CPU time used until the request arrives
 * (bench/support/tree-cpu.ts): acai's main thread, and its whole process tree
 * (sandbox spawners, the watchdog, hooks), after vs before — less at the
 * mercy of a shared machine's load than the wall clock.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildAiSdkFloor } from "./support/ai-sdk-floor.ts";
import { median, printResult, threeRuns } from "./support/result.ts";
import { type TreeCpu, treeCpuMs } from "./support/tree-cpu.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** What the `acai` command runs (bin/start.cjs): the bundle (decision 0035). */
const cli = path.join(root, "dist", "bundle", "main.js");
/** The same code as tsc left it, one file per module: measured alongside for the bundle's gain. */
const unbundled = path.join(root, "dist", "cli", "main.js");
const runsArg = process.argv.indexOf("--runs");
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 7;
const beforeArg = process.argv.indexOf("--before");
/** Another build's bundle (`--before FILE`), measured in the same rounds: the honest A/B under load. */
const before = beforeArg > 0 ? path.resolve(process.argv[beforeArg + 1] ?? "") : undefined;
const TARGET_MS = 400;

if (before !== undefined && !existsSync(before)) {
  console.error(`--before ${before}: no such file (give the other build's dist/bundle/main.js).`);
  process.exit(2);
}
if (!existsSync(cli) || !existsSync(unbundled)) {
  console.error(
    "dist/bundle/main.js or dist/cli/main.js is missing: run `npm run build` first (or `npm run bench:startup`).",
  );
  process.exit(2);
}

function chunk(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

/** Answers every chat completion with a one-word streamed reply; reports each arrival. */
async function startServer(onRequest: () => void) {
  const server = http.createServer((req, res) => {
    if (req.method === "POST") onRequest();
    req.resume();
    req.on("end", () => {
      const base = { id: "c1", object: "chat.completion.chunk", created: 0, model: "bench" };
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(
        chunk({
          ...base,
          choices: [{ index: 0, delta: { role: "assistant", content: "ok" }, finish_reason: null }],
        }),
      );
      res.write(chunk({ ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }));
      res.write(
        chunk({
          ...base,
          choices: [],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
}

function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

function waitExit(child: ReturnType<typeof spawn>): Promise<number | null> {
  return new Promise((resolve) => child.on("close", (code) => resolve(code)));
}

async function timeBareNode(): Promise<number> {
  const start = nowMs();
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await waitExit(child);
  return nowMs() - start;
}

interface Dirs {
  cwd: string;
  home: string;
  acaiHome: string;
}

/** When the first model request arrived, and the CPU acai's process tree had used by then. */
interface Arrival {
  at: number;
  cpu: TreeCpu | undefined;
}

interface Arrivals {
  /** The acai whose request is awaited (its CPU is read when it arrives). */
  pid: number;
  next: () => Promise<Arrival>;
}

async function timeAcai(
  url: string,
  dirs: Dirs,
  arrival: Arrivals,
  main = cli,
): Promise<{ ms: number; cpu: TreeCpu | undefined }> {
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: dirs.home,
    ACAI_HOME: dirs.acaiHome,
    OPENAI_BASE_URL: url,
    OPENAI_API_KEY: "bench",
  };
  const arrived = arrival.next();
  const start = nowMs();
  const child = spawn(process.execPath, [main, "-p", "hi", "--model", "openai:bench"], {
    cwd: dirs.cwd,
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  arrival.pid = child.pid ?? 0;
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const exit = waitExit(child);
  const first = await Promise.race([arrived, exit.then(() => undefined)]);
  const code = await exit;
  if (first === undefined || code !== 0) {
    throw new Error(`acai -p exited ${code} before/after its model request:\n${stderr}`);
  }
  return { ms: first.at - start, cpu: first.cpu };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

/** An executable hook in the acai protocol: its metadata on describe, else read stdin and say nothing. */
function executableHook(name: string, event: string): string {
  const meta = JSON.stringify({ name, events: [event], matcher: { tool: "Bash" } });
  return `#!/usr/bin/env bash\nif [ "\${HOOK_ACTION:-}" = describe ]; then echo '${meta}'; exit 0; fi\ncat >/dev/null\n`;
}

/** A git repository of 2,000 files in 100 folders with a dozen hooks, trusted. */
async function realisticProject(cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  for (let d = 0; d < 100; d++) {
    const dir = path.join(cwd, "src", `module-${d}`);
    await mkdir(dir, { recursive: true });
    for (let f = 0; f < 20; f++) {
      await writeFile(path.join(dir, `file-${f}.ts`), `export const value${f} = ${d * 20 + f};\n`);
    }
  }
  await writeFile(path.join(cwd, ".gitignore"), "node_modules/\ndist/\n");
  const hooks = path.join(cwd, ".acai", "hooks");
  await mkdir(hooks, { recursive: true });
  const events = [
    "before_tool",
    "after_tool",
    "user_prompt",
    "before_stop",
    "session_start",
    "after_tool",
  ];
  for (const [i, event] of events.entries()) {
    await writeFile(path.join(hooks, `hook-${i}`), executableHook(`hook-${i}`, event));
    await chmod(path.join(hooks, `hook-${i}`), 0o755);
  }
  const command = (n: number) => ({ type: "command", command: `echo '{}' # hook ${n}` });
  const settings = {
    hooks: {
      PreToolUse: [{ matcher: "Bash", hooks: [command(1), command(2)] }],
      PostToolUse: [{ matcher: "Edit|Write", hooks: [command(3), command(4)] }],
      Notification: [{ hooks: [command(5)] }],
      Stop: [{ hooks: [command(6)] }],
    },
  };
  await writeFile(path.join(cwd, ".acai", "settings.json"), JSON.stringify(settings, null, 2));
  const git = (...args: string[]) => execFileSync("git", args, { cwd, stdio: "ignore", env });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.name=bench", "-c", "user.email=bench@localhost", "commit", "-qm", "bench");
  execFileSync(process.execPath, [cli, "hooks", "trust"], { cwd, env, stdio: "ignore" });
}

/** Three runs of `runs` alternating rounds (node -e "", acai -p, the unbundled acai -p, the AI SDK alone) in `dirs`. */
async function measure(
  label: string,
  url: string,
  dirs: Dirs,
  arrival: Arrivals,
  floorEntry: string,
) {
  await timeBareNode(); // one warm-up of each (file-system cache, code cache)
  await timeAcai(url, dirs, arrival);
  await timeAcai(url, dirs, arrival, floorEntry);
  await timeAcai(url, dirs, arrival, unbundled);
  // The older build gets an ACAI_HOME of its own (a copy: the same trust): what the two builds
  // keep in ACAI_HOME/cache may differ in form (an older build's spawner forecast, say).
  const beforeDirs = { ...dirs, acaiHome: `${dirs.acaiHome}-before` };
  if (before) {
    await cp(dirs.acaiHome, beforeDirs.acaiHome, { recursive: true, force: true });
    await timeAcai(url, beforeDirs, arrival, before);
  }
  const { values, loads } = await threeRuns(async (run) => {
    const bare: number[] = [];
    const acai: number[] = [];
    const tsc: number[] = [];
    const old: number[] = [];
    const floor: number[] = [];
    const cpu = { acai: [] as TreeCpu[], old: [] as TreeCpu[] };
    for (let i = 0; i < runs; i++) {
      bare.push(await timeBareNode());
      const after = await timeAcai(url, dirs, arrival);
      acai.push(after.ms);
      if (after.cpu) cpu.acai.push(after.cpu);
      tsc.push((await timeAcai(url, dirs, arrival, unbundled)).ms);
      floor.push((await timeAcai(url, dirs, arrival, floorEntry)).ms);
      if (before) {
        const then = await timeAcai(url, beforeDirs, arrival, before);
        old.push(then.ms);
        if (then.cpu) cpu.old.push(then.cpu);
      }
    }
    const [a, b, t] = [percentile(acai, 50), percentile(bare, 50), percentile(tsc, 50)];
    const o = before ? percentile(old, 50) : Number.NaN;
    const f = percentile(floor, 50);
    console.log(
      `${label}, run ${run + 1}: acai -p median ${a.toFixed(1)} ms (p90 ${percentile(acai, 90).toFixed(1)}), unbundled ${t.toFixed(1)} ms, the AI SDK alone ${f.toFixed(1)} ms, ${before ? `before ${o.toFixed(1)} ms, ` : ""}node -e "" ${b.toFixed(1)} ms, ratio ${(a / b).toFixed(2)}x`,
    );
    return { acai: a, bare: b, tsc: t, old: o, floor: f, cpu: cpuMedians(cpu) };
  });
  const medians = values.map((v) => v.acai);
  printResult({
    name: `start-up of acai -p to the first model request, ${label}, vs node -e ""`,
    ratios: values.map((v) => v.acai / v.bare),
    loads,
    target: { op: "≤", value: 5 },
    detail: `acai ${medians.map((m) => m.toFixed(0)).join(", ")} ms (target < ${TARGET_MS} ms: ${percentile(medians, 50) < TARGET_MS ? "met" : "NOT met"}; the issue's ≤ 150 ms on a quiet machine: ${percentile(medians, 50) <= 150 ? "met" : "NOT met"})`,
  });
  printFloorResult(label, values, loads);
  if (before) {
    printResult({
      name: `start-up of acai -p, ${label}, after vs before (${path.relative(root, before)})`,
      ratios: values.map((v) => v.acai / v.old),
      loads,
      detail: `before ${values.map((v) => v.old.toFixed(0)).join(", ")} ms, after ${medians.map((m) => m.toFixed(0)).join(", ")} ms`,
    });
  }
  if (before) printCpuResults(label, values, loads);
  printResult({
    name: `start-up of acai -p, ${label}, the bundle vs the unbundled build`,
    ratios: values.map((v) => v.acai / v.tsc),
    loads,
    detail: `unbundled ${values.map((v) => v.tsc.toFixed(0)).join(", ")} ms`,
  });
}

/** acai -p against the AI SDK alone: how much of the start-up is acai's own, and where the floor lies. */
function printFloorResult(
  label: string,
  values: { acai: number; bare: number; floor: number }[],
  loads: number[],
): void {
  const ms = (pick: (v: (typeof values)[number]) => number) =>
    values.map((v) => pick(v).toFixed(0)).join(", ");
  printResult({
    name: `start-up of acai -p, ${label}, vs the AI SDK alone (streamText to the same server: the floor)`,
    ratios: values.map((v) => v.acai / v.floor),
    loads,
    detail: `the AI SDK alone ${ms((v) => v.floor)} ms (${values.map((v) => (v.floor / v.bare).toFixed(2)).join(", ")}x node -e ""); acai's own share ${ms((v) => v.acai - v.floor)} ms`,
  });
}

type CpuMedians = Record<"acai" | "old", TreeCpu> | undefined;

/** Each build's median CPU to the request in one run (none without /proc or --before). */
function cpuMedians(cpu: { acai: TreeCpu[]; old: TreeCpu[] }): CpuMedians {
  if (cpu.acai.length === 0 || cpu.old.length === 0) return undefined;
  const of = (list: TreeCpu[]): TreeCpu => ({
    mainThread: median(list.map((c) => c.mainThread)),
    tree: median(list.map((c) => c.tree)),
  });
  return { acai: of(cpu.acai), old: of(cpu.old) };
}

/** The after-vs-before RESULT lines of the CPU used until the request arrived. */
function printCpuResults(label: string, values: { cpu: CpuMedians }[], loads: number[]): void {
  const runs = values.flatMap((v) => (v.cpu ? [v.cpu] : []));
  if (runs.length !== values.length) return;
  for (const [part, words] of [
    ["mainThread", "main thread"],
    ["tree", "whole process tree (all its threads, spawners, watchdog, hooks)"],
  ] as const) {
    const ms = (side: "acai" | "old") => runs.map((r) => r[side][part].toFixed(0)).join(", ");
    printResult({
      name: `CPU of acai -p until its first model request, ${words}, ${label}, after vs before`,
      ratios: runs.map((r) => r.acai[part] / r.old[part]),
      loads,
      detail: `before ${ms("old")} ms, after ${ms("acai")} ms`,
    });
  }
}

async function main(): Promise<void> {
  let waiter: ((arrived: Arrival) => void) | undefined;
  const arrival: Arrivals = {
    pid: 0,
    next: () =>
      new Promise<Arrival>((resolve) => {
        waiter = resolve;
      }),
  };
  const { server, url } = await startServer(() => {
    // Read at once, while acai and its children still run.
    waiter?.({ at: nowMs(), cpu: treeCpuMs(arrival.pid) });
    waiter = undefined;
  });
  const tmp = await mkdtemp(path.join(os.tmpdir(), "acai-bench-"));
  const dirs = {
    cwd: path.join(tmp, "project"),
    home: path.join(tmp, "home"),
    acaiHome: path.join(tmp, "acai-home"),
  };
  const realistic = { ...dirs, cwd: path.join(tmp, "repository") };
  await Promise.all([...Object.values(dirs), realistic.cwd].map((d) => mkdir(d)));
  try {
    const env = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: dirs.home,
      ACAI_HOME: dirs.acaiHome,
    };
    await realisticProject(realistic.cwd, env);
    // Cold: an empty ACAI_HOME, so no V8 code cache (acai keeps it in ACAI_HOME/cache).
    const cold: number[] = [];
    for (let i = 0; i < 3; i++) {
      const acaiHome = path.join(tmp, `cold-${i}`);
      await mkdir(acaiHome);
      cold.push((await timeAcai(url, { ...dirs, acaiHome }, arrival)).ms);
    }
    console.log(
      `acai -p start-up to first model request (${runs} pairs a run, node ${process.version})`,
    );
    console.log(
      `acai -p, cold: ${percentile(cold, 50).toFixed(1)} ms (first run, empty ACAI_HOME, empty folder, 3 runs)`,
    );
    const floorEntry = await buildAiSdkFloor(await mkdtemp(path.join(tmp, "floor-")));
    await measure(
      "a git repository of 2,000 files with a dozen hooks",
      url,
      realistic,
      arrival,
      floorEntry,
    );
    await measure("an empty folder", url, dirs, arrival, floorEntry);
  } finally {
    server.close();
    await rm(tmp, { recursive: true, force: true });
  }
}

await main();
