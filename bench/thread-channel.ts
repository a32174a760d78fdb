/**
 * The channel under a plugin decision in a worker thread (issue 25 item 5:
 * "one plugin decision in a gate chain ≤ 5 µs — either a faster channel to
 * the worker, SharedArrayBuffer and Atomics, measured, or `isolation:
 * "none"`"). One call in flight, as a gate's chain asks, the channel alone:
 * one 32-bit number to the worker, its double back, no payload to encode.
 *
 * - `postMessage` both ways: what the plugin host uses (hooks/run/plugins/thread.ts).
 * - SharedArrayBuffer + Atomics, both sides awaiting `Atomics.waitAsync`: what
 *   a plugin worker would need (its event loop stays alive for a handler's
 *   timers and I/O between calls).
 * - SharedArrayBuffer + Atomics, the worker parked in `Atomics.wait`, acai's
 *   thread waiting with `Atomics.waitAsync` (it may not block: the event loop
 *   runs the session). This is the channel decision 0049 did not build.
 * - The same with acai's thread blocked in `Atomics.wait`: two thread
 *   wake-ups and nothing else, the floor of any channel that parks the worker.
 *   acai cannot use it (its event loop would stop while a plugin decides).
 * - The worker spinning on `Atomics.load` instead of parking: no wake-up on
 *   its side, but a core burnt per plugin while calls come. Not usable;
 *   printed for the floor. It parks after ~1 ms without a call, so that it
 *   does not keep a core awake while the other channels are timed.
 * - A plain function call in the same thread: what `isolation: "none"` adds
 *   around a handler at most (no thread).
 *
 * Each RESULT line is µs a round trip / the 5 µs (≤ 1: met); the
 * channels take turns block by block, three runs.
 *
 * Run: node bench/thread-channel.ts [--calls 5000]
 */
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { Worker } from "node:worker_threads";
import { loadNow, median, printResult } from "./support/result.ts";

const { values: args } = parseArgs({ options: { calls: { type: "string", default: "5000" } } });
const CALLS = Number(args.calls);
if (!Number.isInteger(CALLS) || CALLS < 100) {
  console.error("bench/thread-channel: --calls must be a whole number of at least 100");
  process.exit(2);
}
const BLOCKS = 10;
const BUDGET_US = 5;

/** Slots of the shared buffer: the request's number and value, the answer's number and value. */
const REQ = 0;
const REQ_VALUE = 1;
const ANS = 2;
const ANS_VALUE = 3;
const STOP = -1;
/** Loads a spinning worker tries before it parks (~a millisecond here). */
const SPIN_LIMIT = 200_000;

/** `Atomics.waitAsync` (ES2024; Node has it, the project's TypeScript lib does not list it). */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(
      array: Int32Array,
      index: number,
      value: number,
    ): { async: false; value: string } | { async: true; value: Promise<string> };
  }
).waitAsync;

const workerCode = `
const { parentPort, workerData } = require("node:worker_threads");
const i32 = workerData.sab && new Int32Array(workerData.sab);
/** Answers request seq (its double) unless it is the stop: false then. */
const answer = (seq) => {
  if (seq === ${STOP}) return false;
  i32[${ANS_VALUE}] = i32[${REQ_VALUE}] * 2;
  Atomics.store(i32, ${ANS}, seq);
  Atomics.notify(i32, ${ANS});
  return true;
};
if (workerData.kind === "message") {
  parentPort.on("message", (n) => parentPort.postMessage(n * 2));
} else if (workerData.kind === "wait-async") {
  // The worker's event loop stays alive between calls (a handler's timers and I/O still run);
  // the port, listened to, keeps the worker up while it only awaits the buffer.
  parentPort.on("message", () => {});
  (async () => {
    for (let seen = 0; ; ) {
      const waited = Atomics.waitAsync(i32, ${REQ}, seen);
      if (waited.async) await waited.value;
      const seq = Atomics.load(i32, ${REQ});
      if (seq === seen) continue;
      if (!answer(seq)) break;
      seen = seq;
    }
  })();
} else {
  for (let seen = 0; ; ) {
    // Spinning only while calls come (then parked): a worker spinning between blocks would keep
    // a core awake and speed up the other channels' wake-ups.
    let spins = 0;
    if (workerData.kind === "spin") while (Atomics.load(i32, ${REQ}) === seen && spins++ < ${SPIN_LIMIT});
    Atomics.wait(i32, ${REQ}, seen);
    const seq = Atomics.load(i32, ${REQ});
    if (seq === seen) continue;
    if (!answer(seq)) break;
    seen = seq;
  }
}
`;

interface Channel {
  label: string;
  /** One round trip: the answer, checked. */
  call(n: number): Promise<number> | number;
  close(): Promise<void>;
}

function messageChannel(): Channel {
  const worker = new Worker(workerCode, { eval: true, workerData: { kind: "message" } });
  let waiting: ((n: number) => void) | undefined;
  worker.on("message", (n: number) => waiting?.(n));
  return {
    label: "postMessage both ways (the plugin host's channel)",
    call: (n) =>
      new Promise<number>((resolve) => {
        waiting = resolve;
        worker.postMessage(n);
      }),
    close: async () => {
      await worker.terminate();
    },
  };
}

/** How the worker waits for a request on each shared-buffer channel. */
const WORKER_WAITS = {
  "both-async": "wait-async",
  "park-async": "wait",
  "park-block": "wait",
  spin: "spin",
} as const;

function sharedChannel(kind: keyof typeof WORKER_WAITS): Channel {
  const sab = new SharedArrayBuffer(4 * Int32Array.BYTES_PER_ELEMENT);
  const i32 = new Int32Array(sab);
  const worker = new Worker(workerCode, {
    eval: true,
    workerData: { kind: WORKER_WAITS[kind], sab },
  });
  let seq = 0;
  const send = (n: number): number => {
    seq += 1;
    i32[REQ_VALUE] = n;
    Atomics.store(i32, REQ, seq);
    Atomics.notify(i32, REQ);
    return seq;
  };
  const labels = {
    "both-async":
      "SharedArrayBuffer + Atomics, both sides awaiting Atomics.waitAsync (the worker's event loop alive)",
    "park-async": "SharedArrayBuffer + Atomics, worker parked, acai awaits Atomics.waitAsync",
    "park-block":
      "SharedArrayBuffer + Atomics, worker parked, acai blocked in Atomics.wait (not usable)",
    spin: "SharedArrayBuffer, worker spinning, acai blocked in Atomics.wait (burns a core: not usable)",
  };
  return {
    label: labels[kind],
    call:
      kind === "park-async" || kind === "both-async"
        ? async (n) => {
            const mine = send(n);
            const waited = waitAsync(i32, ANS, mine - 1);
            if (waited.async) await waited.value;
            return i32[ANS_VALUE]!;
          }
        : (n) => {
            const mine = send(n);
            Atomics.wait(i32, ANS, mine - 1);
            return i32[ANS_VALUE]!;
          },
    close: async () => {
      Atomics.store(i32, REQ, STOP);
      Atomics.notify(i32, REQ);
      await worker.terminate();
    },
  };
}

function sameThread(): Channel {
  const handler = (n: number) => n * 2;
  return {
    label: "a function call in acai's own thread (isolation: none, no thread)",
    call: (n) => handler(n),
    close: async () => {},
  };
}

/** µs per round trip over `count` calls, every answer checked. */
async function timeCalls(channel: Channel, count: number): Promise<number> {
  const started = performance.now();
  for (let i = 1; i <= count; i++) {
    const answer = await channel.call(i);
    if (answer !== i * 2) throw new Error(`${channel.label}: answered ${answer} to ${i}`);
  }
  return ((performance.now() - started) * 1000) / count;
}

const channels = [
  messageChannel(),
  sharedChannel("both-async"),
  sharedChannel("park-async"),
  sharedChannel("park-block"),
  sharedChannel("spin"),
  sameThread(),
];
const perBlock = Math.ceil(CALLS / BLOCKS);
const loads = [loadNow()];
const runs: number[][] = channels.map(() => []);
try {
  for (const channel of channels) await timeCalls(channel, 200); // warm-up
  for (let run = 0; run < 3; run++) {
    const blocks: number[][] = channels.map(() => []);
    for (let block = 0; block < BLOCKS; block++) {
      for (const [index, channel] of channels.entries()) {
        blocks[index]!.push(await timeCalls(channel, perBlock));
      }
    }
    for (const [index] of channels.entries()) runs[index]!.push(median(blocks[index]!));
    loads.push(loadNow());
  }
} finally {
  await Promise.all(channels.map((channel) => channel.close()));
}

console.log(
  `one round trip between acai's thread and a worker, one call in flight (${CALLS} calls a run, ${BLOCKS} blocks, node ${process.version})`,
);
for (const [index, channel] of channels.entries()) {
  const micros = runs[index]!;
  printResult({
    name: `the channel alone: ${channel.label}, µs a round trip / the issue's ${BUDGET_US} µs`,
    ratios: micros.map((us) => us / BUDGET_US),
    loads,
    target: { op: "≤", value: 1 },
    detail: `${micros.map((us) => us.toFixed(2)).join(", ")} µs a round trip (median of ${BLOCKS} blocks a run)`,
  });
}
