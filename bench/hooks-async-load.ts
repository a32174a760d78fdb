/**
 * Async hooks under load: 10,000 tool_call_start events through the real
 * interceptor with 50 async hooks matching each (500,000 async runs asked
 * for), real processes through the real runner. Per scenario: the peak of
 * processes below the scenario's process (hooks and their children, the
 * watchdog), of its open file descriptors and of its RSS, sampled every
 * 10 ms, and what became of the async runs (run, dropped because the queue
 * was full, not started at session end).
 *
 * Scenarios, each in a fresh Node process (so one scenario's heap and
 * descriptors do not carry into the next):
 * - no hooks, the same events (the baseline: what acai holds without hooks);
 * - 50 async hooks on every event, the defaults (the pool: 8 running, 256 queued);
 * - the case, 12 events × 50 async hooks, with the pool wide open
 *   (`maxAsyncHooks` 1000: all 600 start at once, as before the pool) and
 *   with the defaults.
 *
 * Three runs; in each, the four scenarios take turns (the order rotated from
 * run to run). One RESULT line per scenario with hooks for its peak open
 * descriptors and one for its peak RSS, each as a ratio to the no-hooks
 * scenario of the same run; no target (the table in bench/README gives the
 * figures). A scenario that does not finish within its deadline is killed
 * and the bench stops saying which.
 *
 * Run (Node 24 strips the types itself; the bench uses the built code):
 *   npm run build && node bench/hooks-async-load.ts [--events N] [--quick]
 * --quick: 1,000 events instead of 10,000 (a check that it runs).
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import type { AgentEvent } from "../dist/agent/events.js";
import type { Verdict } from "../dist/agent/verdicts.js";
import type { HookDefinition } from "../dist/hooks/contract/definition.js";
import type { AuditEntry, ConsideredLine } from "../dist/hooks/run/audit.js";
import { createHookInterceptor } from "../dist/hooks/run/interceptor.js";
import { runProcess } from "../dist/process/runner.js";
import { medianRunIndex, numberArg, printResult, threeRuns } from "./support/result.ts";

const EVENTS = numberArg("events", process.argv.includes("--quick") ? 1000 : 10_000);
const HOOKS = 50;
/** How long one scenario's process may take before it is killed and the bench stops. */
const SCENARIO_DEADLINE_MS = 180_000;

interface Scenario {
  label: string;
  events: number;
  hooks: number;
  limits?: { maxAsyncHooks?: number; asyncQueueLimit?: number };
}

const SCENARIOS = {
  none: { label: `no hooks, ${EVENTS} events`, events: EVENTS, hooks: 0 },
  defaults: {
    label: `${HOOKS} async hooks, ${EVENTS} events, defaults`,
    events: EVENTS,
    hooks: HOOKS,
  },
  wide: {
    label: `${HOOKS} async hooks, 12 events, maxAsyncHooks 1000 (no bound, as before the pool)`,
    events: 12,
    hooks: HOOKS,
    limits: { maxAsyncHooks: 1000, asyncQueueLimit: 0 },
  },
  twelve: { label: `${HOOKS} async hooks, 12 events, defaults`, events: 12, hooks: HOOKS },
} satisfies Record<string, Scenario>;
type Name = keyof typeof SCENARIOS;
const NAMES = Object.keys(SCENARIOS) as Name[];

function asyncHook(index: number): HookDefinition {
  return {
    id: `user:executable:/bench/async-${index}`,
    name: `async-${index}`,
    events: ["before_tool"],
    matcher: {},
    priority: 100,
    timeoutMs: 30_000,
    async: true,
    failure: "open",
    env: [],
    scope: "user",
    sourceKind: "executable",
    file: `/bench/async-${index}`,
    dialect: "acai",
    // Reads its payload, works 10 ms, answers nothing.
    launch: {
      command: "/bin/sh",
      args: ["-c", "cat >/dev/null; sleep 0.01", "acai-bench-async"],
      viaShell: false,
    },
  };
}

async function* agent(count: number): AsyncGenerator<AgentEvent, void, Verdict | undefined> {
  for (let i = 0; i < count; i++) {
    yield {
      type: "tool_call_start",
      turn: 1,
      step: i,
      toolCallId: `c${i}`,
      toolName: "Bash",
      input: { command: "ls -la" },
    };
  }
  yield { type: "session_end", reason: "completed" };
}

/** The children listed for one task of a process in /proc. */
function childrenOf(pid: number, tid: string): number[] {
  try {
    const list = readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8");
    return list
      .split(" ")
      .filter((child) => child.trim() !== "")
      .map(Number);
  } catch {
    return [];
  }
}

/** Every process below this one (children, grandchildren, …), from /proc. */
function descendants(): number {
  let count = 0;
  const stack = [process.pid];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      const children = childrenOf(pid, tid);
      count += children.length;
      stack.push(...children);
    }
  }
  return count;
}

const openFds = (): number => readdirSync("/proc/self/fd").length;

interface Peaks {
  processes: number;
  fds: number;
  rssMb: number;
}

function sampler(): { stop(): Peaks } {
  const peaks: Peaks = { processes: 0, fds: 0, rssMb: 0 };
  const sample = (): void => {
    peaks.processes = Math.max(peaks.processes, descendants());
    peaks.fds = Math.max(peaks.fds, openFds());
    peaks.rssMb = Math.max(peaks.rssMb, process.memoryUsage.rss() / 1024 / 1024);
  };
  sample();
  const timer = setInterval(sample, 10);
  return {
    stop() {
      sample();
      clearInterval(timer);
      return peaks;
    },
  };
}

interface Outcome {
  peaks: Peaks;
  ms: number;
  ran: number;
  dropped: number;
  notStarted: number;
  warnings: number;
}

/** Runs one scenario in this process (the child's side). */
async function scenario(s: Scenario): Promise<Outcome> {
  const counts = { ran: 0, dropped: 0, notStarted: 0 };
  const audit = {
    write(entry: AuditEntry | ConsideredLine) {
      // One "considered" line per event lists the hooks planned; the run lines follow.
      if ("kind" in entry) return;
      if (entry.error?.includes("was not run")) counts.dropped++;
      else if (entry.error?.startsWith("not started")) counts.notStarted++;
      else counts.ran++;
    },
  };
  const intercept = createHookInterceptor({
    hooks: Array.from({ length: s.hooks }, (_, i) => asyncHook(i)),
    runner: runProcess,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    projectDir: "/tmp",
    acaiHome: "/nonexistent",
    audit,
    sessionEndBudgetMs: 60_000,
    ...s.limits,
  });
  const watch = sampler();
  const started = performance.now();
  let warnings = 0;
  for await (const event of intercept(agent(s.events))) {
    if (event.type === "hook_warning") warnings++;
  }
  const ms = performance.now() - started;
  return { peaks: watch.stop(), ms, ...counts, warnings };
}

/** Runs one scenario in a fresh Node process, within the deadline. */
function inChild(name: Name): Promise<Outcome> {
  const self = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, [self, "--scenario", name, "--events", String(EVENTS)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(
          `"${SCENARIOS[name].label}" did not finish within ${SCENARIO_DEADLINE_MS / 1000} s; killed`,
        ),
      );
    }, SCENARIO_DEADLINE_MS);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      const last = out.trim().split("\n").at(-1) ?? "";
      if (code === 0 && last.startsWith("{")) resolve(JSON.parse(last) as Outcome);
      else
        reject(new Error(`"${SCENARIOS[name].label}" exited ${code}: ${err.trim() || out.trim()}`));
    });
  });
}

function describe(o: Outcome): string {
  const { peaks } = o;
  return `peak processes ${peaks.processes}, peak open fds ${peaks.fds}, peak RSS ${peaks.rssMb.toFixed(1)} MB; async runs ${o.ran} ran, ${o.dropped} dropped (queue full), ${o.notStarted} not started, ${o.warnings} warnings; ${(o.ms / 1000).toFixed(1)} s`;
}

async function main(): Promise<void> {
  console.log(
    `hooks-async-load: ${EVENTS} tool_call_start events × ${HOOKS} async hooks, each scenario in its own process, node ${process.version}`,
  );
  const { values, loads } = await threeRuns(async (run) => {
    const outcomes = {} as Record<Name, Outcome>;
    for (let k = 0; k < NAMES.length; k++) {
      const name = NAMES[(run + k) % NAMES.length]!;
      outcomes[name] = await inChild(name);
    }
    for (const name of NAMES)
      console.log(`run ${run + 1}, ${SCENARIOS[name].label}: ${describe(outcomes[name])}`);
    return outcomes;
  });
  for (const name of NAMES.filter((n) => n !== "none")) {
    for (const [what, pick] of [
      ["peak open fds", (o: Outcome) => o.peaks.fds],
      ["peak RSS", (o: Outcome) => o.peaks.rssMb],
    ] as const) {
      const ratios = values.map((v) => pick(v[name]) / pick(v.none));
      const mid = values[medianRunIndex(ratios)]!;
      printResult({
        name: `async hooks under load, ${SCENARIOS[name].label} vs no hooks: ${what}`,
        ratios,
        loads,
        detail: `median run: ${describe(mid[name])}; no hooks: peak open fds ${mid.none.peaks.fds}, peak RSS ${mid.none.peaks.rssMb.toFixed(1)} MB`,
      });
    }
  }
}

const at = process.argv.indexOf("--scenario");
if (at >= 0) {
  const name = process.argv[at + 1] as Name;
  if (!(name in SCENARIOS)) throw new Error(`--scenario ${name}: not one of ${NAMES.join(", ")}`);
  console.log(JSON.stringify(await scenario(SCENARIOS[name])));
  process.exit(0);
} else {
  await main().catch((error: unknown) => {
    console.error(`hooks-async-load: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
