/**
 * Async hooks under load: 10,000 tool_call_start events through the real
 * interceptor with 50 async hooks matching each (500,000 async runs asked
 * for), real processes through the real runner. Prints, per scenario, the
 * peak of processes acai has running (all descendants of this process), of
 * its open file descriptors and of its RSS, sampled every 10 ms, and what
 * became of the async runs (run, dropped because the queue was full, not
 * started at session end).
 *
 * Baselines measured in the same run:
 * - no hooks, the same 10,000 events (what acai costs without them);
 * - the case, 12 events × 50 async hooks, with the pool wide open
 *   (`maxAsyncHooks` 1000: all 600 start at once, as before the pool) and
 *   with the defaults.
 *
 * Run (Node 24 strips the types itself; the bench uses the built code):
 *   cd /work/main && export PATH="$PWD/node_modules/.bin:$PATH"
 *   npx tsc -p tsconfig.json && node bench/hooks-async-load.ts [--events N]
 */
import { readdirSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import type { AgentEvent } from "../dist/agent/events.js";
import type { Verdict } from "../dist/agent/verdicts.js";
import type { HookDefinition } from "../dist/hooks/contract/definition.js";
import type { AuditEntry } from "../dist/hooks/run/audit.js";
import { createHookInterceptor } from "../dist/hooks/run/interceptor.js";
import { runProcess } from "../dist/process/runner.js";

const arg = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const EVENTS = arg("--events", 10_000);
const HOOKS = 50;

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
      let children = "";
      try {
        children = readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8");
      } catch {
        continue;
      }
      for (const child of children.split(" ")) {
        if (child.trim() === "") continue;
        count++;
        stack.push(Number(child));
      }
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
  label: string;
  peaks: Peaks;
  ms: number;
  ran: number;
  dropped: number;
  notStarted: number;
  warnings: number;
}

async function scenario(
  label: string,
  events: number,
  hooks: HookDefinition[],
  limits: { maxAsyncHooks?: number; asyncQueueLimit?: number } = {},
): Promise<Outcome> {
  globalThis.gc?.();
  const counts = { ran: 0, dropped: 0, notStarted: 0 };
  const audit = {
    write(entry: AuditEntry) {
      if (entry.error?.includes("was not run")) counts.dropped++;
      else if (entry.error?.startsWith("not started")) counts.notStarted++;
      else counts.ran++;
    },
  };
  const intercept = createHookInterceptor({
    hooks,
    runner: runProcess,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    projectDir: "/tmp",
    acaiHome: "/nonexistent",
    audit,
    sessionEndBudgetMs: 60_000,
    ...limits,
  });
  const watch = sampler();
  const started = performance.now();
  let warnings = 0;
  for await (const event of intercept(agent(events))) {
    if (event.type === "hook_warning") warnings++;
  }
  const ms = performance.now() - started;
  return { label, peaks: watch.stop(), ms, ...counts, warnings };
}

function show(outcome: Outcome, base?: Outcome): void {
  const { peaks } = outcome;
  const ratio = (a: number, b: number | undefined) =>
    b === undefined ? "" : ` (${(a / b).toFixed(2)}×)`;
  console.log(
    [
      `${outcome.label}:`,
      `  peak processes ${peaks.processes}, peak open fds ${peaks.fds}${ratio(peaks.fds, base?.peaks.fds)}, peak RSS ${peaks.rssMb.toFixed(0)} MB${ratio(peaks.rssMb, base?.peaks.rssMb)}`,
      `  async runs: ${outcome.ran} ran, ${outcome.dropped} dropped (queue full), ${outcome.notStarted} not started; ${outcome.warnings} warnings; ${(outcome.ms / 1000).toFixed(1)} s`,
    ].join("\n"),
  );
}

const FIFTY = Array.from({ length: HOOKS }, (_, i) => asyncHook(i));

console.log(
  `hooks-async-load: ${EVENTS} tool_call_start events × ${HOOKS} async hooks, node ${process.version}, ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")} load`,
);
const none = await scenario(`no hooks, ${EVENTS} events (baseline)`, EVENTS, []);
show(none);
show(await scenario(`${HOOKS} async hooks, ${EVENTS} events, defaults`, EVENTS, FIFTY), none);
const wide = await scenario(
  `${HOOKS} async hooks, 12 events, maxAsyncHooks 1000 (no bound, as before)`,
  12,
  FIFTY,
  {
    maxAsyncHooks: 1000,
    asyncQueueLimit: 0,
  },
);
show(wide, none);
show(await scenario(`${HOOKS} async hooks, 12 events, defaults`, 12, FIFTY), none);
