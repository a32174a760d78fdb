/**
 * acai start-up: time from spawning `acai -p` until its first model request
 * reaches a local fake OpenAI-compatible server, against a bare `node -e ""`
 * (spawn to exit) measured in the same run.
 *
 *   npm run bench:startup            (builds first; N=10 runs each)
 *   node bench/startup.ts --runs 20  (after npm run build)
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cli = path.join(root, "dist", "cli", "main.js");
const runsArg = process.argv.indexOf("--runs");
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 10;
const TARGET_MS = 400;

if (!existsSync(cli)) {
  console.error(
    "dist/cli/main.js is missing: run `npm run build` first (or `npm run bench:startup`).",
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

async function timeAcai(
  url: string,
  dirs: Dirs,
  arrival: { next: () => Promise<number> },
): Promise<number> {
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: dirs.home,
    ACAI_HOME: dirs.acaiHome,
    OPENAI_BASE_URL: url,
    OPENAI_API_KEY: "bench",
  };
  const arrived = arrival.next();
  const start = nowMs();
  const child = spawn(process.execPath, [cli, "-p", "hi", "--model", "openai:bench"], {
    cwd: dirs.cwd,
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const exit = waitExit(child);
  const first = await Promise.race([arrived, exit.then(() => -1)]);
  const code = await exit;
  if (first < 0 || code !== 0) {
    throw new Error(`acai -p exited ${code} before/after its model request:\n${stderr}`);
  }
  return first - start;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

async function main(): Promise<void> {
  let waiter: ((t: number) => void) | undefined;
  const { server, url } = await startServer(() => {
    waiter?.(nowMs());
    waiter = undefined;
  });
  const arrival = {
    next: () =>
      new Promise<number>((resolve) => {
        waiter = resolve;
      }),
  };
  const tmp = await mkdtemp(path.join(os.tmpdir(), "acai-bench-"));
  const dirs = {
    cwd: path.join(tmp, "project"),
    home: path.join(tmp, "home"),
    acaiHome: path.join(tmp, "acai-home"),
  };
  await Promise.all(Object.values(dirs).map((d) => mkdir(d)));
  try {
    // Cold: an empty ACAI_HOME, so no V8 code cache (acai keeps it in ACAI_HOME/cache).
    const cold: number[] = [];
    for (let i = 0; i < 3; i++) {
      const acaiHome = path.join(tmp, `cold-${i}`);
      await mkdir(acaiHome);
      cold.push(await timeAcai(url, { ...dirs, acaiHome }, arrival));
    }
    // One warm-up of each (file-system cache, code cache).
    await timeBareNode();
    await timeAcai(url, dirs, arrival);
    const bare: number[] = [];
    const acai: number[] = [];
    for (let i = 0; i < runs; i++) {
      bare.push(await timeBareNode());
      acai.push(await timeAcai(url, dirs, arrival));
    }
    const acaiMedian = percentile(acai, 50);
    const bareMedian = percentile(bare, 50);
    const fmt = (n: number) => n.toFixed(1).padStart(7);
    console.log(`acai -p start-up to first model request (${runs} runs, node ${process.version})`);
    console.log(`                      median      p90`);
    console.log(`acai -p (warm)     ${fmt(acaiMedian)} ms ${fmt(percentile(acai, 90))} ms`);
    console.log(`node -e ""         ${fmt(bareMedian)} ms ${fmt(percentile(bare, 90))} ms`);
    console.log(
      `acai -p, cold      ${fmt(percentile(cold, 50))} ms   (first run, empty ACAI_HOME, 3 runs)`,
    );
    console.log(`ratio (median)     ${(acaiMedian / bareMedian).toFixed(2)}x`);
    console.log(
      `target             < ${TARGET_MS} ms: ${acaiMedian < TARGET_MS ? "met" : "NOT met"} (median)`,
    );
  } finally {
    server.close();
    await rm(tmp, { recursive: true, force: true });
  }
}

await main();
