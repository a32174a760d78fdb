/**
 * Message delivery latency between two agents: the time from `send()` to the
 * receiver's handler (the handler settles the message), sequential messages,
 * over the embedded transport (SQLite in a temp ACAI_HOME, fs.watch wake-up)
 * and, when nats-server is installed, over NATS (one server started on a
 * free port for the whole bench; each run opens its own transports).
 *
 * Each is measured against a baseline without the relay's layer, message by
 * message in turns (the order alternating), `--runs N` messages each a run
 * (default 200), three runs:
 * - embedded: the same store file's bare write+read — a second pair of SQLite
 *   connections to the same `relay.db` inserts the same message row, reads it
 *   back by recipient, parses it and deletes it (no checks, no wake file, no
 *   watcher, no row validation);
 * - NATS: a bare request/reply of the same message's JSON on the same server,
 *   between two plain client connections (no signing, no local store, no wake).
 * The RESULT lines give the p50 ratio, no target; the median run's p50 and
 * p99 of both sides in the detail.
 *
 * Every wait has a deadline (a message 10 s; the server's start 30 s, test/support/nats-server.ts): a
 * message that never arrives ends the bench with a message naming it.
 *
 * Run (Node 24 strips the types itself; the bench uses the built code):
 *   npm run build && node bench/relay-latency.ts [--runs 200]
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { DatabaseSync } from "node:sqlite";
import { connect } from "@nats-io/transport-node";
import { messageFor } from "../dist/relay/message.js";
import { openRelay } from "../dist/relay/open.js";
import { relayDir } from "../dist/relay/store.js";
import type { RelayTransport } from "../dist/relay/transport.js";
import { type NatsServer, natsServerPath, startNatsServer } from "../test/support/nats-server.ts";
import { within } from "./support/deadline.ts";
import { medianRunIndex, numberArg, percentile, printResult, threeRuns } from "./support/result.ts";

const RUNS = numberArg("runs", 200);
const WARM_UP = 10;
/** Above the embedded receiver's 2 s fallback poll and NATS's 3 s acknowledgement wait. */
const MESSAGE_DEADLINE_MS = 10_000;
const SENDER = "bench-sender";
const RECEIVER = "bench-receiver";

interface Pair {
  relay: number[];
  bare: number[];
}

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

/** A sender and a receiver through the relay; `once` times one message, send → handler. */
async function relayPair(label: string, homeA: string, homeB: string, url?: string) {
  // Two ACAI_HOMEs over an open loopback server: the receiver takes the sender by name.
  const options = {
    settings: { ...(url ? { url } : {}), acceptFrom: [SENDER] },
    env: {},
    homeDir: homeA,
  };
  const { transport: sender } = await openRelay({ acaiHome: homeA, ...options });
  let receiver: RelayTransport | undefined;
  try {
    receiver = (await openRelay({ acaiHome: homeB, ...options })).transport;
  } catch (error) {
    await sender.close();
    throw error;
  }
  const to = receiver;
  let arrived: (() => void) | undefined;
  await to.join(record(RECEIVER, "r"), (message) => {
    to.settle(message.id);
    arrived?.();
  });
  let sent = 0;
  return {
    async once(): Promise<number> {
      const i = sent++;
      const got = new Promise<void>((resolve) => (arrived = resolve));
      const start = performance.now();
      const delivered = (async () => {
        await sender.send({ from: SENDER, to: RECEIVER, content: `message ${i}` });
        await got;
      })();
      await within(delivered, MESSAGE_DEADLINE_MS, `${label} relay: message ${i}`);
      return performance.now() - start;
    },
    async close() {
      await to.close();
      await sender.close();
    },
  };
}

/** The baseline of the embedded transport: the same store file, written and read bare. */
function bareStore(home: string) {
  const file = path.join(relayDir(home), "relay.db");
  const writer = new DatabaseSync(file, { timeout: 5000 });
  const reader = new DatabaseSync(file, { timeout: 5000 });
  const insert = writer.prepare(
    "INSERT INTO messages (id, recipient, sent_at, body) VALUES (?, ?, ?, ?)",
  );
  const select = reader.prepare(
    "SELECT seq, body FROM messages WHERE recipient = ? AND seq > ? ORDER BY seq LIMIT 100",
  );
  const remove = reader.prepare("DELETE FROM messages WHERE id = ?");
  let lastSeq = 0;
  let sent = 0;
  return {
    async once(): Promise<number> {
      const i = sent++;
      const start = performance.now();
      const message = messageFor(
        { from: SENDER, to: "bench-bare", content: `message ${i}` },
        "bench-bare",
        Date.now(),
      );
      insert.run(message.id, message.to, message.sentAt, JSON.stringify(message));
      const rows = select.all("bench-bare", lastSeq) as { seq: number; body: string }[];
      const row = rows[0];
      if (row === undefined) throw new Error(`embedded bare: row ${i} was not read back`);
      lastSeq = row.seq;
      const read = JSON.parse(row.body) as { id: string };
      remove.run(read.id);
      return performance.now() - start;
    },
    async close() {
      writer.close();
      reader.close();
    },
  };
}

/** The baseline of the NATS transport: a bare request/reply of the same JSON on the same server. */
async function bareNats(url: string) {
  const client = await connect({ servers: url, timeout: 3000 });
  const server = await connect({ servers: url, timeout: 3000 });
  server.subscribe("bench.bare", { callback: (_err, msg) => void msg.respond(msg.data) });
  await server.flush();
  let sent = 0;
  return {
    async once(): Promise<number> {
      const i = sent++;
      const start = performance.now();
      const body = JSON.stringify(
        messageFor({ from: SENDER, to: RECEIVER, content: `message ${i}` }, RECEIVER, Date.now()),
      );
      await within(
        client.request("bench.bare", body, { timeout: MESSAGE_DEADLINE_MS }),
        MESSAGE_DEADLINE_MS,
        `nats bare: request ${i}`,
      );
      return performance.now() - start;
    },
    async close() {
      await client.close();
      await server.close();
    },
  };
}

type Side = { once(): Promise<number>; close(): Promise<void> };

/** WARM_UP untimed, then RUNS of each in turns, the order alternating. */
async function alternate(relay: Side, bare: Side): Promise<Pair> {
  const pair: Pair = { relay: [], bare: [] };
  for (let i = 0; i < WARM_UP + RUNS; i++) {
    const [a, b] = i % 2 === 0 ? [relay, bare] : [bare, relay];
    const first = await a.once();
    const second = await b.once();
    if (i < WARM_UP) continue;
    pair[a === relay ? "relay" : "bare"].push(first);
    pair[b === relay ? "relay" : "bare"].push(second);
  }
  return pair;
}

/** Takes turns between the relay and its baseline (opened now), then closes both. */
async function alternateAndClose(relay: Side, openBare: () => Side | Promise<Side>): Promise<Pair> {
  try {
    const bare = await openBare();
    try {
      return await alternate(relay, bare);
    } finally {
      await bare.close();
    }
  } finally {
    await relay.close();
  }
}

async function embeddedRun(): Promise<Pair> {
  const home = mkdtempSync(path.join(os.tmpdir(), "acai-bench-relay-"));
  try {
    return await alternateAndClose(await relayPair("embedded", home, home), () => bareStore(home));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

async function natsRun(url: string): Promise<Pair> {
  const homeA = mkdtempSync(path.join(os.tmpdir(), "acai-bench-relay-"));
  const homeB = mkdtempSync(path.join(os.tmpdir(), "acai-bench-relay-"));
  try {
    return await alternateAndClose(await relayPair("nats", homeA, homeB, url), () => bareNats(url));
  } finally {
    rmSync(homeA, { recursive: true, force: true });
    rmSync(homeB, { recursive: true, force: true });
  }
}

const ms = (values: number[], p: number) => `${percentile(values, p).toFixed(2)} ms`;

function report(label: string, baseline: string, runs: Pair[], loads: number[]): void {
  const ratios = runs.map((run) => percentile(run.relay, 0.5) / percentile(run.bare, 0.5));
  const mid = runs[medianRunIndex(ratios)]!;
  printResult({
    name: `relay message latency, ${label} (send → the receiver's handler) vs ${baseline}, p50 of ${RUNS}`,
    ratios,
    loads,
    detail: `median run: relay p50 ${ms(mid.relay, 0.5)}, p99 ${ms(mid.relay, 0.99)}; bare p50 ${ms(mid.bare, 0.5)}, p99 ${ms(mid.bare, 0.99)}`,
  });
}

// The relay holds no handle of its own (relay/wake.ts): keep the process alive while measuring.
const alive = setInterval(() => {}, 1 << 30);
let nats: NatsServer | undefined;
try {
  const binary = natsServerPath();
  if (binary === undefined) console.log("nats: skipped, nats-server is not installed");
  else nats = await startNatsServer(binary);
  const url = nats?.url;
  const { values, loads } = await threeRuns(async () => ({
    embedded: await embeddedRun(),
    nats: url === undefined ? undefined : await natsRun(url),
  }));
  report(
    "embedded transport",
    "the same store file's bare write+read",
    values.map((v) => v.embedded),
    loads,
  );
  const natsRuns = values.flatMap((v) => (v.nats ? [v.nats] : []));
  if (natsRuns.length > 0) {
    report("NATS transport", "a bare NATS request/reply on the same server", natsRuns, loads);
  }
} catch (error) {
  console.error(`relay-latency: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await nats?.stop();
  clearInterval(alive);
}
// A transport left waiting by a failure must not keep the bench alive.
if (process.exitCode === 1) process.exit(1);
