/**
 * The watchdog's price (decision 0074): what the process that outlives acai
 * to sweep after it costs a session that spawns on the host — the Python
 * watchdog (where /usr/bin/python3 is) against the Node one it replaced.
 * Each start is timed from `startWatchdog` until the process has set itself
 * up (its signal masks ignore or catch SIGHUP and SIGTERM, read from /proc),
 * then its CPU so far (every thread, /proc schedstat) and its resident memory
 * are read, and acai's end of its pipe is closed. The two kinds take turns,
 * start by start. Three runs of `--starts` (default 15) each; RESULT lines
 * give Python / Node for CPU to ready, memory kept, and time to ready.
 *
 *   npm run build && node bench/watchdog.ts [--starts N]
 */
import { existsSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { startWatchdog } from "../dist/process/watchdog.js";
import { takesSignals } from "../test/process/survivors.ts";
import { median, numberArg, printResult, threeRuns } from "./support/result.ts";
import { treeCpuMs } from "./support/tree-cpu.ts";

const STARTS = numberArg("starts", 15);
const PYTHON = "/usr/bin/python3";
if (!existsSync(PYTHON)) {
  console.log(
    `watchdog: no ${PYTHON} here, so acai starts the Node watchdog only; nothing to compare`,
  );
  process.exit(0);
}

const status = (pid: number): string => readFileSync(`/proc/${pid}/status`, "utf8");
const field = (text: string, name: string): string =>
  new RegExp(`^${name}:\\s*(\\S+)`, "m").exec(text)?.[1] ?? "0";

/** Set up: SIGHUP and SIGTERM ignored or caught. */
const ready = (pid: number): boolean => takesSignals(pid, [1, 15]);

interface Start {
  cpuMs: number;
  rssMb: number;
  readyMs: number;
}

async function once(python: string | false): Promise<Start> {
  const started = performance.now();
  const watchdog = startWatchdog({
    execPath: process.execPath,
    entry: "ACAI_RUN_BENCH_NOTHING=",
    procDir: "/proc",
    python,
  });
  const pid = watchdog?.pid();
  if (watchdog === undefined || pid === undefined) throw new Error("the watchdog did not start");
  const want = python === false ? "node" : "python";
  while (!ready(pid)) await new Promise((resolve) => setTimeout(resolve, 1));
  const readyMs = performance.now() - started;
  if (watchdog.kind() !== want)
    throw new Error(`asked for the ${want} watchdog, got ${watchdog.kind()}`);
  const cpuMs = treeCpuMs(pid)?.tree ?? Number.NaN;
  const rssMb = Number(field(status(pid), "VmRSS")) / 1024;
  const child = watchdog.child();
  child.ref(); // acai's watchdog never holds its event loop; this bench waits for its exit
  const exited = new Promise((resolve) => child.once("exit", resolve));
  watchdog.close();
  await exited;
  return { cpuMs, rssMb, readyMs };
}

console.log(`watchdog: node ${process.version}, ${STARTS} starts of each kind a run, in turns`);
const { values, loads } = await threeRuns(async () => {
  const python: Start[] = [];
  const node: Start[] = [];
  for (let i = 0; i < STARTS; i++) {
    if (i % 2 === 0) {
      python.push(await once(PYTHON));
      node.push(await once(false));
    } else {
      node.push(await once(false));
      python.push(await once(PYTHON));
    }
  }
  const mid = (starts: Start[], key: keyof Start) => median(starts.map((s) => s[key]));
  return {
    python: {
      cpuMs: mid(python, "cpuMs"),
      rssMb: mid(python, "rssMb"),
      readyMs: mid(python, "readyMs"),
    },
    node: { cpuMs: mid(node, "cpuMs"), rssMb: mid(node, "rssMb"), readyMs: mid(node, "readyMs") },
  };
});

const lines = [
  ["CPU to ready", "cpuMs", "ms"],
  ["memory kept (RSS)", "rssMb", "MB"],
  ["time to ready", "readyMs", "ms"],
] as const;
for (const [what, key, unit] of lines) {
  printResult({
    name: `the watchdog, Python / Node, ${what}`,
    ratios: values.map((v) => v.python[key] / v.node[key]),
    loads,
    detail: `Python ${values.map((v) => v.python[key].toFixed(1)).join(", ")} ${unit}; Node ${values.map((v) => v.node[key].toFixed(1)).join(", ")} ${unit}`,
  });
}
