/**
 * Message delivery latency between two agents: the time from `send()` to the
 * receiver's handler, over the embedded transport (SQLite in a temp ACAI_HOME,
 * fs.watch wake-up) and, when nats-server is installed, over NATS (a server
 * started on a free port). Sequential messages (`--runs N`, default 200);
 * prints p50 and p99 in milliseconds.
 *
 * Run (Node 24 strips the types itself; the bench uses the built code):
 *   npx tsc -p tsconfig.json && node bench/relay-latency.ts
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { openRelay } from "../dist/relay/open.js";

const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 200;

function record(name: string, sessionId: string) {
  return {
    name,
    sessionId,
    pid: process.pid,
    host: os.hostname(),
    cwd: "/bench",
    startedAt: Date.now(),
    listening: true,
  };
}

async function measure(label: string, settings: { url?: string }): Promise<void> {
  const homeA = mkdtempSync(path.join(os.tmpdir(), "acai-bench-relay-"));
  const homeB = settings.url ? mkdtempSync(path.join(os.tmpdir(), "acai-bench-relay-")) : homeA;
  // Two ACAI_HOMEs over an open loopback server: the receiver takes the sender by name.
  const options = {
    settings: { ...settings, acceptFrom: ["bench-sender"] },
    env: {},
    homeDir: homeA,
  };
  const { transport: sender } = await openRelay({ acaiHome: homeA, ...options });
  const { transport: receiver } = await openRelay({ acaiHome: homeB, ...options });
  let arrived: (() => void) | undefined;
  await receiver.join(record("bench-receiver", "r"), (message) => {
    receiver.settle(message.id);
    arrived?.();
  });
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const got = new Promise<void>((resolve) => (arrived = resolve));
    const start = performance.now();
    await sender.send({ from: "bench-sender", to: "bench-receiver", content: `message ${i}` });
    await got;
    times.push(performance.now() - start);
  }
  await receiver.close();
  await sender.close();
  rmSync(homeA, { recursive: true, force: true });
  if (homeB !== homeA) rmSync(homeB, { recursive: true, force: true });
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  console.log(
    `${label.padEnd(10)} p50 ${at(0.5).toFixed(2)} ms   p99 ${at(0.99).toFixed(2)} ms   (${RUNS} messages)`,
  );
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

// The relay holds no handle of its own (relay/wake.ts): keep the process alive while measuring.
const alive = setInterval(() => {}, 1 << 30);
await measure("embedded", {});
const nats = ["/usr/sbin/nats-server", "/usr/bin/nats-server"].find((f) => existsSync(f));
if (nats === undefined) {
  console.log("nats       skipped: nats-server is not installed");
} else {
  const port = await freePort();
  const child = spawn(nats, ["-a", "127.0.0.1", "-p", String(port)], { stdio: "ignore" });
  for (let i = 0; i < 200; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, "127.0.0.1");
      s.once("connect", () => {
        s.destroy();
        resolve(true);
      });
      s.once("error", () => resolve(false));
    });
    if (ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  try {
    await measure("nats", { url: `nats://127.0.0.1:${port}` });
  } finally {
    child.kill("SIGTERM");
  }
}
clearInterval(alive);
