/**
 * REPL figures:
 * 1. start-up: from spawning the real `acai` (no -p; the bundle, what the
 *    `acai` command runs) in a tmux terminal until the prompt is on screen and
 *    accepts input (target < 500 ms). Three runs of N starts each (default 5),
 *    each start paired with a baseline started and watched the same way: a
 *    `node -e` that prints the same prompt text at once. RESULT lines: the
 *    run's median as a ratio of the 500 ms budget (target ≤ 1), and against
 *    that baseline (no target).
 * 2. render cost while streaming 5,000 tokens through the real <App> (ink,
 *    interactive mode, 100x30 fake TTY) from a fake session: CPU with the App
 *    vs the same stream without any UI, alternating (three runs of two pairs),
 *    and how fast keystrokes typed during the stream are echoed (p50 / max).
 *
 * Run (Node 24 strips the types itself; the bench uses the built code):
 *   npm run build && node bench/repl.ts
 * Options: --runs N (starts per run, default 5); --quick (2 starts per run);
 *   --startup-only; --compare DIR: also DIR's build (DIR/dist/bundle/main.js,
 *   or DIR/dist/cli/main.js before the bundle) in the same rounds, e.g. a copy
 *   of an older dist/ with package.json and a node_modules link.
 * Every wait has a deadline (10 s for a prompt to appear, 120 s for a stream).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { loadUi } from "../dist/repl/load-ui.js";
import { within } from "./support/deadline.ts";
import { FakeStdin, FakeTty, streamingSession } from "./support/repl-fakes.ts";
import { median, medianRunIndex, numberArg, printResult, threeRuns } from "./support/result.ts";

// The UI as `acai` loads it (React's production build); ink and React then come from the module cache.
await loadUi();
const { render } = await import("ink");
const { createElement } = await import("react");
const { App } = await import("../dist/repl/app.js");
const { ReplController } = await import("../dist/repl/controller.js");

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** What bin/start.cjs imports: the `acai` command (decision 0035). */
const CLI = path.join(ROOT, "dist", "bundle", "main.js");
const args = process.argv.slice(2);
const compareAt = args.indexOf("--compare");
const COMPARE = compareAt === -1 ? undefined : path.resolve(args[compareAt + 1] ?? "");
const RUNS = numberArg("runs", args.includes("--quick") ? 2 : 5);
const TMUX = "/usr/bin/tmux";
const TOKENS = 5000;
const BUDGET_MS = 500;
const PROMPT_DEADLINE_MS = 10_000;
const STREAM_DEADLINE_MS = 120_000;
/** The streaming part's ACAI_HOME and prompt history, removed at the end. */
const STREAM_DIR = path.join(os.tmpdir(), `acai-bench-repl-stream-${process.pid}`);
/** The baseline: Node printing what acai's prompt shows, at once, and staying up. */
const NODE_PROMPT = `${process.execPath} -e "process.stdout.write('\\u203a ask anything');setInterval(()=>{},1e3)"`;

interface StartupRun {
  /** Until the prompt line is drawn and takes keys (type-ahead). */
  input: number;
  /** Until the session is ready ("ask anything"). */
  ready: number;
}

interface Dirs {
  root: string;
  home: string;
}

/** The shell command tmux runs: `acai` (the given entry) in a clean environment, or the baseline. */
function command(cli: string | undefined, dirs: Dirs, acaiHome: string): string {
  if (cli === undefined) return NODE_PROMPT;
  return [
    "env",
    "-i",
    `PATH=${process.env.PATH ?? "/usr/bin:/bin"}`,
    `HOME=${dirs.home}`,
    `ACAI_HOME=${acaiHome}`,
    "TERM=xterm-256color",
    "NO_COLOR=1",
    "OPENAI_API_KEY=bench",
    process.execPath,
    cli,
    "--model",
    "openai:bench-model",
    "--base-url",
    "http://127.0.0.1:9/v1",
  ].join(" ");
}

/** Polls the pane every 2 ms until "ask anything" (or the deadline); when "› " and it appeared. */
async function watchScreen(socket: string, started: number): Promise<Partial<StartupRun>> {
  let typeAhead: number | undefined;
  while (performance.now() - started < PROMPT_DEADLINE_MS) {
    const screen = spawnSync(TMUX, ["-L", socket, "capture-pane", "-p"], {
      encoding: "utf8",
    }).stdout;
    if (typeAhead === undefined && screen?.includes("› ")) typeAhead = performance.now() - started;
    if (screen?.includes("ask anything")) {
      const ready = performance.now() - started;
      return { input: typeAhead ?? ready, ready };
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  return {};
}

let starts = 0;
/** One start of `cli` (or of the baseline) in a fresh tmux server. */
async function startOnce(cli: string | undefined, dirs: Dirs, acaiHome: string) {
  const socket = `acai-bench-repl-${process.pid}-${starts++}`;
  const started = performance.now();
  execFileSync(TMUX, [
    ...["-L", socket, "new-session", "-d", "-x", "100", "-y", "30", "-c", dirs.root],
    command(cli, dirs, acaiHome),
  ]);
  let seen: Partial<StartupRun>;
  try {
    seen = await watchScreen(socket, started);
  } finally {
    spawnSync(TMUX, ["-L", socket, "kill-server"]);
    // tmux leaves the socket file of a killed server behind.
    const uid = process.getuid?.() ?? 0;
    await rm(path.join(process.env.TMUX_TMPDIR ?? "/tmp", `tmux-${uid}`, socket), { force: true });
  }
  if (seen.input === undefined || seen.ready === undefined)
    throw new Error(
      `the prompt did not appear within ${PROMPT_DEADLINE_MS / 1000} s (${cli ?? "the node baseline"})`,
    );
  return { input: seen.input, ready: seen.ready };
}

/** One run: RUNS rounds of the baseline, this build and (with --compare) the other, in turn. */
async function startupRun(clis: string[], dirs: Dirs, homes: string[], run: number) {
  const node: number[] = [];
  const builds = clis.map(() => [] as StartupRun[]);
  for (let i = 0; i < RUNS; i++) {
    const order = [-1, ...clis.keys()];
    for (let j = 0; j < order.length; j++) {
      const k = order[(run + i + j) % order.length]!;
      if (k === -1) node.push((await startOnce(undefined, dirs, dirs.home)).input);
      else builds[k]!.push(await startOnce(clis[k], dirs, homes[k]!));
    }
  }
  return {
    node: median(node),
    builds: builds.map((b) => ({
      input: median(b.map((r) => r.input)),
      ready: median(b.map((r) => r.ready)),
    })),
  };
}

type Run = Awaited<ReturnType<typeof startupRun>>;

function printStartup(values: Run[], loads: number[], cold: StartupRun[], clis: string[]): void {
  const ms = (xs: number[]) => xs.map((t) => t.toFixed(0)).join(", ");
  const input = values.map((v) => v.builds[0]!.input);
  const mid = values[medianRunIndex(input)]!;
  const detail = `prompt ${ms(input)} ms (medians of ${RUNS}); median run: prompt ${mid.builds[0]!.input.toFixed(0)} ms, session ready ("ask anything") ${mid.builds[0]!.ready.toFixed(0)} ms, the node baseline ${mid.node.toFixed(0)} ms`;
  printResult({
    name: `REPL start-up until the prompt takes input / the ${BUDGET_MS} ms budget`,
    ratios: input.map((t) => t / BUDGET_MS),
    loads,
    target: { op: "≤", value: 1 },
    detail,
  });
  printResult({
    name: "REPL start-up until the prompt takes input vs a node -e printing the prompt (both in tmux, polled alike)",
    ratios: values.map((v) => v.builds[0]!.input / v.node),
    loads,
    detail: `node baseline ${ms(values.map((v) => v.node))} ms`,
  });
  if (clis.length > 1)
    printResult({
      name: `REPL start-up until the prompt takes input, this build vs ${path.relative(ROOT, clis[1]!)}`,
      ratios: values.map((v) => v.builds[0]!.input / v.builds[1]!.input),
      loads,
      detail: `this build ${ms(input)} ms, the other ${ms(values.map((v) => v.builds[1]!.input))} ms`,
    });
  for (const [k, cli] of clis.entries()) {
    console.log(
      `start-up (${path.relative(ROOT, cli)}), cold (empty ACAI_HOME, no code cache; 1 start, not counted): prompt ${cold[k]!.input.toFixed(0)} ms, ready ${cold[k]!.ready.toFixed(0)} ms`,
    );
  }
}

function otherBuild(dir: string): string {
  const bundle = path.join(dir, "dist", "bundle", "main.js");
  return existsSync(bundle) ? bundle : path.join(dir, "dist", "cli", "main.js");
}

async function startupToPrompt(): Promise<void> {
  if (!existsSync(TMUX) || !existsSync(CLI)) {
    console.log("start-up: NOT measured (needs /usr/bin/tmux and a built dist/: npm run build)");
    return;
  }
  const clis = COMPARE ? [CLI, otherBuild(COMPARE)] : [CLI];
  const root = await mkdtemp(path.join(os.tmpdir(), "acai-bench-repl-"));
  const dirs = { root, home: path.join(root, "home") };
  await mkdir(dirs.home);
  try {
    // A cold start first for each build (its own ACAI_HOME fills the code cache); not counted.
    const homes = clis.map((_, k) => path.join(root, `acai-home-${k}`));
    const cold: StartupRun[] = [];
    for (const [k, cli] of clis.entries()) {
      await mkdir(homes[k]!);
      cold.push(await startOnce(cli, dirs, homes[k]!));
    }
    await startOnce(undefined, dirs, dirs.home);
    const { values, loads } = await threeRuns((run) => startupRun(clis, dirs, homes, run));
    printStartup(values, loads, cold, clis);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

function controllerFor(done: () => void) {
  const session = streamingSession(TOKENS, done);
  return new ReplController({
    prepare: async () => session,
    trust: {
      status: "no-project-hooks",
      untrusted: [],
      review: { root: "/tmp", items: [], settings: [], changes: { kind: "first-review" } },
      trust: async () => {},
    },
    projectHooks: "require-trust",
    acaiHome: path.join(STREAM_DIR, "acai-home"),
    historyFile: path.join(STREAM_DIR, "history.jsonl"),
    env: {},
  });
}

/** Types one character every 50 ms while the stream runs; the time until each is on screen. */
async function typing(stdout: FakeTty, stdin: FakeStdin): Promise<number[]> {
  const echo: number[] = [];
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 50));
    const marker = String.fromCharCode(0x41 + i);
    const sent = performance.now();
    const seen = new Promise<void>((resolve) => {
      stdout.onChunk = (chunk) => {
        if (chunk.includes(marker)) resolve();
      };
    });
    stdin.write(marker);
    await Promise.race([seen, new Promise((r) => setTimeout(r, 1000))]);
    echo.push(performance.now() - sent);
    stdout.onChunk = undefined;
  }
  return echo;
}

async function streamOnce(withUi: boolean) {
  let done: () => void = () => {};
  const finished = new Promise<void>((r) => {
    done = r;
  });
  const controller = controllerFor(() => done());
  const stdout = new FakeTty();
  const stdin = new FakeStdin();
  const instance = withUi
    ? render(createElement(App, { controller, color: false }), {
        stdout: stdout as unknown as NodeJS.WriteStream,
        stdin: stdin as unknown as NodeJS.ReadStream,
        stderr: new FakeTty() as unknown as NodeJS.WriteStream,
        exitOnCtrlC: false,
        patchConsole: false,
        interactive: true,
      })
    : undefined;
  const run = controller.run();
  const ready = (async () => {
    while (controller.getState().phase !== "ready") await new Promise((r) => setTimeout(r, 5));
  })();
  await within(ready, PROMPT_DEADLINE_MS, "the fake session getting ready");
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  controller.submit("stream please");
  const [, echo] = await within(
    Promise.all([finished, withUi ? typing(stdout, stdin) : []]),
    STREAM_DEADLINE_MS,
    `streaming ${TOKENS} tokens`,
  );
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  controller.requestExit();
  await within(run, PROMPT_DEADLINE_MS, "the REPL controller exiting");
  instance?.unmount();
  return { cpuMs: (cpu.user + cpu.system) / 1000, wallMs, echo };
}

async function renderCost(): Promise<void> {
  const { values, loads } = await threeRuns(async (run) => {
    const cpu = { base: [] as number[], ui: [] as number[] };
    const walls: number[] = [];
    const echo: number[] = [];
    // Two pairs, the order turned round (without, with, with, without; the reverse next run).
    for (const withUi of run % 2 === 0 ? [false, true, true, false] : [true, false, false, true]) {
      const r = await streamOnce(withUi);
      (withUi ? cpu.ui : cpu.base).push(r.cpuMs);
      if (withUi) walls.push(r.wallMs);
      echo.push(...r.echo);
    }
    const sorted = echo.sort((a, b) => a - b);
    return { ui: median(cpu.ui), base: median(cpu.base), wall: median(walls), echo: sorted };
  });
  const ratios = values.map((v) => v.ui / v.base);
  const mid = values[medianRunIndex(ratios)]!;
  printResult({
    name: `streaming ${TOKENS} tokens through the App: CPU with the UI vs without`,
    ratios,
    loads,
    detail: `median run: CPU with the UI ${mid.ui.toFixed(0)} ms, without ${mid.base.toFixed(0)} ms → render cost ${((mid.ui - mid.base) / TOKENS).toFixed(3)} ms/token (wall with the UI ${mid.wall.toFixed(0)} ms); keystroke echo p50 ${median(mid.echo).toFixed(1)} ms, max ${(mid.echo.at(-1) ?? Number.NaN).toFixed(1)} ms over ${mid.echo.length} keys`,
  });
}

try {
  console.log(`repl: ${RUNS} starts a run, node ${process.version}`);
  await startupToPrompt();
  if (!args.includes("--startup-only")) await renderCost();
  await rm(STREAM_DIR, { recursive: true, force: true });
  process.exit(0);
} catch (error) {
  await rm(STREAM_DIR, { recursive: true, force: true });
  console.error(`repl: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
