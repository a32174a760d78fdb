/**
 * What containment costs and how fast aborts end:
 * - one /proc scan for the marker (the per-run sweep of a stopped run or of a
 *   Bash command, and each round of the sweep at exit), with the machine's
 *   current process count;
 * - starting the watchdog (acai's side: the spawn call; it then runs alone);
 * - signal → exit of the built `acai -p` (median of N=5) for: SIGINT while a
 *   hook's describe step hangs, SIGTERM while the prompt is read from a stdin
 *   that stays open, SIGHUP and SIGINT while a Bash command hangs (session_end
 *   hook included), and a double SIGINT while a TERM-trapping hook runs.
 *
 * Run: npx tsc -p tsconfig.json && node bench/containment.ts
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { findMarked } from "../dist/process/sweep.js";
import { startWatchdog } from "../dist/process/watchdog.js";

const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "dist", "cli", "main.js");
const N = 5;
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
  dog?.stdin?.destroy();
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
    [CLI, ...args, "--model", "openai:m", "--base-url", model.url],
    {
      cwd,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: home,
        ACAI_HOME: acaiHome,
        OPENAI_API_KEY: "k",
      },
      stdio: ["pipe", "ignore", "ignore"],
    },
  );
  if (!c.stdinOpen) child.stdin?.end();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  if (c.ready === "file") {
    const { existsSync } = await import("node:fs");
    while (!existsSync(readyFile)) await sleep(10);
  } else await sleep(c.ready);
  const start = performance.now();
  for (const signal of c.signals) child.kill(signal);
  await exited;
  const ms = performance.now() - start;
  child.stdin?.destroy();
  model.server.close();
  await rm(root, { recursive: true, force: true });
  return ms;
}

for (const c of cases) {
  const times: number[] = [];
  for (let i = 0; i < N; i++) times.push(await once(c));
  console.log(
    `${c.name.padEnd(30)} ${median(times).toFixed(0).padStart(5)} ms to exit (median of ${N}; max ${Math.max(...times).toFixed(0)})`,
  );
}
