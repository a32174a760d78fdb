/**
 * What containment costs and how fast aborts end:
 * - one /proc scan for the marker (the per-run sweep of a stopped run or of a
 *   Bash command, and each round of the sweep at exit), with the machine's
 *   current process count;
 * - starting the watchdog (acai's side: the spawn call; it then runs alone);
 * - signal → exit of the built `acai -p` for: SIGINT while a hook's describe
 *   step hangs, SIGTERM while the prompt is read from a stdin that stays
 *   open, SIGHUP and SIGINT while a Bash command hangs (session_end hook
 *   included; the command is allowed by `--allowedTools Bash`, as `acai -p`
 *   denies Bash that no rule allows), and a double SIGINT while a
 *   TERM-trapping hook runs. Three runs, each the median of N per case,
 *   cases interleaved; the RESULT line per case is the time to exit as a
 *   ratio of the 1 s budget (target ≤ 1). Every wait has a deadline: a case
 *   whose acai never gets ready, or never exits, is killed and reported.
 *
 * Run: npx tsc -p tsconfig.json && node bench/containment.ts [--n 3]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { findMarked } from "../dist/process/sweep.js";
import { startWatchdog } from "../dist/process/watchdog.js";
import { numberArg, printResult, threeRuns } from "./support/result.ts";

const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "dist", "cli", "main.js");
const N = numberArg("n", 3);
/** How long a case may take to get ready, and to exit once signalled, before it is killed. */
const READY_DEADLINE_MS = 30_000;
const EXIT_DEADLINE_MS = 15_000;
const median = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ── /proc scan ──────────────────────────────────────────────────────────────
const processes = readdirSync("/proc").filter((name) => /^\d+$/.test(name)).length;
findMarked("ACAI_RUN_BENCH=");
const scanStart = performance.now();
for (let i = 0; i < 50; i++) findMarked("ACAI_RUN_BENCH=");
const scanMs = (performance.now() - scanStart) / 50;
console.log(`/proc scan       ${scanMs.toFixed(2)} ms with ${processes} processes`);

// ── watchdog ────────────────────────────────────────────────────────────────
const spawnTimes: number[] = [];
for (let i = 0; i < N; i++) {
  const start = performance.now();
  const dog = startWatchdog({
    execPath: process.execPath,
    entry: "ACAI_RUN_BENCH=",
    procDir: "/proc",
  });
  spawnTimes.push(performance.now() - start);
  await sleep(100);
  dog?.close();
}
console.log(
  `watchdog start   ${median(spawnTimes).toFixed(2)} ms (spawn call, once per acai process)`,
);

// ── abort latencies through acai -p ─────────────────────────────────────────
/** A chat-completions server that streams nothing until asked: the model answers one Bash call. */
function fakeModel(command: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const call = {
        index: 0,
        id: "c1",
        type: "function",
        function: { name: "Bash", arguments: JSON.stringify({ command }) },
      };
      const chunk = {
        id: "x",
        object: "chat.completion.chunk",
        created: 0,
        model: "m",
        choices: [
          {
            index: 0,
            delta: { role: "assistant", tool_calls: [call] },
            finish_reason: "tool_calls",
          },
        ],
      };
      res.end(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      resolve({ server, url: `http://127.0.0.1:${port}/v1` });
    }),
  );
}

async function hook(
  home: string,
  name: string,
  events: string[],
  body: string,
  describe = ":",
): Promise<void> {
  const file = path.join(home, "hooks", name);
  await mkdir(path.dirname(file), { recursive: true });
  const meta = JSON.stringify({ name, events, timeout_ms: 60_000 });
  await writeFile(
    file,
    `#!/usr/bin/env bash\nif [ "$HOOK_ACTION" = describe ]; then\n${describe}\necho '${meta}'\nexit 0\nfi\ncat >/dev/null\n${body}\n`,
  );
  await chmod(file, 0o755);
}

interface Case {
  name: string;
  signals: NodeJS.Signals[];
  setup(home: string, root: string): Promise<void>;
  bash?: string;
  /** Wait for this file (or a fixed delay) before signalling. */
  ready: "file" | number;
  stdinOpen?: boolean;
}

const cases: Case[] = [
  {
    name: "SIGINT, describe step hangs",
    signals: ["SIGINT"],
    ready: "file",
    setup: (home, root) =>
      hook(home, "slow", ["before_tool"], "", `touch ${root}/ready; sleep 300`),
  },
  {
    name: "SIGTERM, reading stdin",
    signals: ["SIGTERM"],
    ready: 800,
    stdinOpen: true,
    setup: async () => {},
  },
  {
    name: "SIGHUP, Bash hangs",
    signals: ["SIGHUP"],
    ready: "file",
    bash: "touch READY; sleep 300",
    setup: (home) => hook(home, "end", ["session_end"], "true"),
  },
  {
    name: "SIGINT, Bash hangs",
    signals: ["SIGINT"],
    ready: "file",
    bash: "touch READY; sleep 300",
    setup: (home) => hook(home, "end", ["session_end"], "true"),
  },
  {
    name: "2×SIGINT, hook traps TERM",
    signals: ["SIGINT", "SIGINT"],
    ready: "file",
    setup: (home, root) =>
      hook(home, "stubborn", ["before_tool"], `touch ${root}/ready; trap '' TERM; sleep 300`),
  },
];

/** Waits for `file`, or until `deadline` (false then). */
async function appears(file: string, deadline: number): Promise<boolean> {
  while (!existsSync(file)) {
    if (performance.now() > deadline) return false;
    await sleep(10);
  }
  return true;
}

/** Resolves with true at exit, or false after `ms`. */
function exitWithin(exited: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([exited.then(() => true), late]).finally(() => clearTimeout(timer));
}

/** One signal → exit; the time in ms, or an error when acai never got ready or never exited. */
async function once(c: Case): Promise<number> {
  const root = await mkdtemp(path.join(os.tmpdir(), "acai-bench-containment-"));
  const [home, acaiHome, cwd] = ["home", "acai-home", "project"].map((d) => path.join(root, d)) as [
    string,
    string,
    string,
  ];
  await Promise.all([home, acaiHome, cwd].map((d) => mkdir(d)));
  await c.setup(acaiHome, root);
  const readyFile = c.bash ? path.join(cwd, "READY") : path.join(root, "ready");
  const model = await fakeModel(c.bash ?? "echo hi");
  const args = c.stdinOpen ? ["-p"] : ["-p", "go"];
  const child: ChildProcess = spawn(
    process.execPath,
    [CLI, ...args, "--model", "openai:m", "--base-url", model.url, "--allowedTools", "Bash"],
    {
      cwd,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: home,
        ACAI_HOME: acaiHome,
        OPENAI_API_KEY: "k",
      },
      stdio: ["pipe", "ignore", "pipe"],
    },
  );
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  if (!c.stdinOpen) child.stdin?.end();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    if (c.ready === "file") {
      const ready = await Promise.race([
        appears(readyFile, performance.now() + READY_DEADLINE_MS),
        exited.then(() => false),
      ]);
      if (!ready) throw new Error(`never got ready (${readyFile}); acai said: ${stderr.trim()}`);
    } else await sleep(c.ready);
    const start = performance.now();
    for (const signal of c.signals) child.kill(signal);
    if (!(await exitWithin(exited, EXIT_DEADLINE_MS))) {
      throw new Error(`did not exit within ${EXIT_DEADLINE_MS} ms of ${c.signals.join(", ")}`);
    }
    return performance.now() - start;
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    child.stdin?.destroy();
    model.server.close();
    await rm(root, { recursive: true, force: true, maxRetries: 5 });
  }
}

const BUDGET_MS = 1000;
const { values, loads } = await threeRuns(async () => {
  const times = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  for (let i = 0; i < N; i++) {
    for (const c of cases)
      times.get(c.name)?.push(await once(c).catch(() => Number.POSITIVE_INFINITY));
  }
  return new Map([...times].map(([name, xs]) => [name, median(xs)]));
});
for (const c of cases) {
  const runs = values.map((run) => run.get(c.name) ?? Number.POSITIVE_INFINITY);
  const failed = runs.some((ms) => !Number.isFinite(ms));
  console.log(
    `${c.name.padEnd(30)} ${runs.map((ms) => `${ms.toFixed(0)} ms`).join(", ")} to exit (three runs, each the median of ${N})${failed ? " — Infinity: it never got ready or never exited" : ""}`,
  );
  printResult({
    name: `containment, ${c.name}: time to exit / the ${BUDGET_MS} ms budget`,
    ratios: runs.map((ms) => ms / BUDGET_MS),
    loads,
    target: { op: "≤", value: 1 },
  });
}
