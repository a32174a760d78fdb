/**
 * REPL figures:
 * 1. start-up: from spawning the real `acai` (no -p) in a tmux terminal until
 *    the prompt is on screen and accepts input (target < 500 ms), median of 5;
 * 2. render cost while streaming 5,000 tokens through the real <App> (ink,
 *    interactive mode, 100x30 fake TTY) from a fake session: CPU ms per token
 *    with the App vs the same stream without any UI, and how fast keystrokes
 *    typed during the stream are echoed (p50 / max).
 *
 * Run (Node 24 strips the types itself; the bench uses the built code):
 *   cd /work/main && export PATH="$PWD/node_modules/.bin:$PATH"
 *   npx tsc -p tsconfig.json && node bench/repl.ts
 * Options: --runs N (start-up runs, default 5); --startup-only;
 *   --compare DIR: alternate runs of this build and of DIR/dist/cli/main.js
 *   (e.g. a copy of an older dist/ with a node_modules link), same conditions.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { EventEmitter } from "node:events";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import type { RunInput } from "../dist/agent/types.js";
import type { InterceptedEvent } from "../dist/hooks/run/activity.js";
import { loadUi } from "../dist/repl/load-ui.js";
import type { PreparedSession } from "../dist/session/types.js";

// The UI as `acai` loads it (React's production build); ink and React then come from the module cache.
await loadUi();
const { render } = await import("ink");
const { createElement } = await import("react");
const { App } = await import("../dist/repl/app.js");
const { ReplController } = await import("../dist/repl/controller.js");

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLI = path.join(ROOT, "dist", "cli", "main.js");
const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : (args[i + 1] ?? "");
};
const RUNS = Number.parseInt(flag("--runs") ?? "5", 10);
const COMPARE = flag("--compare");
const TMUX = "/usr/bin/tmux";
const TOKENS = 5000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

interface StartupRun {
  /** Until the prompt line is drawn and takes keys (type-ahead). */
  input: number;
  /** Until the session is ready ("ask anything"). */
  ready: number;
}

/** One start of `acai` in a fresh tmux server; polls the screen every 2 ms. */
async function startOnce(
  cli: string,
  root: string,
  home: string,
  acaiHome: string,
  i: number,
): Promise<StartupRun> {
  const socket = `acai-bench-repl-${process.pid}-${i}`;
  const cmd = [
    "env",
    "-i",
    `PATH=${process.env.PATH ?? "/usr/bin:/bin"}`,
    `HOME=${home}`,
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
  const started = performance.now();
  execFileSync(TMUX, ["-L", socket, "new-session", "-d", "-x", "100", "-y", "30", "-c", root, cmd]);
  let ready: number | undefined;
  let typeAhead: number | undefined;
  try {
    while (performance.now() - started < 10_000) {
      const screen = spawnSync(TMUX, ["-L", socket, "capture-pane", "-p"], {
        encoding: "utf8",
      }).stdout;
      if (typeAhead === undefined && screen?.includes("› "))
        typeAhead = performance.now() - started;
      if (screen?.includes("ask anything")) {
        ready = performance.now() - started;
        break;
      }
      await new Promise((r) => setTimeout(r, 2));
    }
  } finally {
    spawnSync(TMUX, ["-L", socket, "kill-server"]);
    // tmux leaves the socket file of a killed server behind.
    const uid = process.getuid?.() ?? 0;
    await rm(path.join(process.env.TMUX_TMPDIR ?? "/tmp", `tmux-${uid}`, socket), { force: true });
  }
  if (ready === undefined) throw new Error(`the prompt never appeared (${cli})`);
  return { input: typeAhead ?? ready, ready };
}

const fmt = (xs: number[]) =>
  `median ${median(xs).toFixed(0)} ms [${xs.map((t) => t.toFixed(0)).join(", ")}]`;

async function startupToPrompt(): Promise<void> {
  if (!existsSync(TMUX) || !existsSync(CLI)) {
    console.log("start-up: skipped (needs /usr/bin/tmux and a built dist/)");
    return;
  }
  const clis = COMPARE ? [CLI, path.resolve(COMPARE, "dist", "cli", "main.js")] : [CLI];
  const root = await mkdtemp(path.join(os.tmpdir(), "acai-bench-repl-"));
  const home = path.join(root, "home");
  await mkdir(home);
  const results = clis.map(() => [] as StartupRun[]);
  const cold: StartupRun[] = [];
  try {
    // A cold run first for each build (its own ACAI_HOME fills the code cache); not counted.
    const homes = await Promise.all(
      clis.map(async (cli, k) => {
        const acaiHome = path.join(root, `acai-home-${k}`);
        await mkdir(acaiHome);
        cold[k] = await startOnce(cli, root, home, acaiHome, 1000 + k);
        return acaiHome;
      }),
    );
    for (let i = 0; i < RUNS; i++) {
      for (let k = 0; k < clis.length; k++) {
        results[k]?.push(
          await startOnce(clis[k] ?? CLI, root, home, homes[k] ?? root, i * clis.length + k),
        );
      }
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  clis.forEach((cli, k) => {
    const runs = results[k] ?? [];
    const label = clis.length > 1 ? ` (${path.relative(process.cwd(), cli) || cli})` : "";
    console.log(
      `start-up${label}, prompt accepts input (type-ahead while the session loads): ${fmt(runs.map((r) => r.input))} (target < 500 ms)`,
    );
    console.log(
      `start-up${label}, session ready ("ask anything"): ${fmt(runs.map((r) => r.ready))}`,
    );
    const first = cold[k];
    if (first)
      console.log(
        `start-up${label}, cold (empty ACAI_HOME, no code cache; 1 run): prompt ${first.input.toFixed(0)} ms, ready ${first.ready.toFixed(0)} ms`,
      );
  });
}

/** A TTY-like sink: ink renders in interactive mode, output is counted and dropped. */
class FakeTty extends Writable {
  isTTY = true;
  columns = 100;
  rows = 30;
  bytes = 0;
  onChunk: ((chunk: string) => void) | undefined;
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: () => void): void {
    const text = chunk.toString();
    this.bytes += text.length;
    this.onChunk?.(text);
    done();
  }
}

class FakeStdin extends EventEmitter {
  isTTY = true;
  #data: string | null = null;
  write(data: string): void {
    this.#data = data;
    this.emit("readable");
  }
  read(): string | null {
    const d = this.#data;
    this.#data = null;
    return d;
  }
  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}

function streamingSession(onDone: () => void): PreparedSession {
  return {
    sessionId: "bench",
    modelId: "bench-model",
    projectDir: "/tmp",
    settings: {},
    cwd: "/",
    acaiHome: "/",
    transcriptPath: "/t",
    permissionMode: "default",
    hooks: { loaded: [], broken: [], projectHooksEnabled: true },
    warnings: [],
    async notify() {
      return [];
    },
    async *run(input: RunInput): AsyncGenerator<InterceptedEvent, void, undefined> {
      for await (const turn of input.prompts) {
        yield { type: "user_prompt", turn: 1, prompt: turn.prompt };
        for (let i = 0; i < TOKENS; i++) {
          yield {
            type: "text_delta",
            turn: 1,
            step: 1,
            text: i % 12 === 11 ? "token\n" : "token ",
          };
          // Tokens arrive from the network: let the event loop (timers, input) run between them.
          await new Promise((r) => setImmediate(r));
        }
        const usage = { inputTokens: 10, outputTokens: TOKENS, totalTokens: TOKENS + 10 };
        yield { type: "turn_end", turn: 1, stopReason: "end_turn", text: "", usage };
        onDone();
      }
    },
  };
}

async function streamOnce(
  withUi: boolean,
): Promise<{ cpuMs: number; wallMs: number; echo: number[] }> {
  let done: () => void = () => {};
  const finished = new Promise<void>((r) => {
    done = r;
  });
  const session = streamingSession(() => done());
  const controller = new ReplController({
    prepare: async () => session,
    trust: {
      status: "no-project-hooks",
      untrusted: [],
      review: { root: "/tmp", items: [], settings: [], changes: { kind: "first-review" } },
      trust: async () => {},
    },
    projectHooks: "require-trust",
    acaiHome: path.join(os.tmpdir(), `acai-bench-repl-home-${process.pid}`),
    historyFile: path.join(os.tmpdir(), `acai-bench-repl-history-${process.pid}.jsonl`),
    env: {},
  });
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
  while (controller.getState().phase !== "ready") await new Promise((r) => setTimeout(r, 5));

  const echo: number[] = [];
  const typing = async () => {
    // Type one character every 50 ms while the stream runs; time until it is on screen.
    for (let i = 0; i < 20 && withUi; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const marker = String.fromCharCode(0x41 + i);
      const sent = performance.now();
      const seen = new Promise<void>((resolve) => {
        stdout.onChunk = (chunk) => {
          if (chunk.includes(`token${marker}`) || chunk.includes(marker)) resolve();
        };
      });
      stdin.write(marker);
      await Promise.race([seen, new Promise((r) => setTimeout(r, 1000))]);
      echo.push(performance.now() - sent);
      stdout.onChunk = undefined;
    }
  };

  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  controller.submit("stream please");
  await Promise.all([finished, typing()]);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  controller.requestExit();
  await run;
  instance?.unmount();
  return { cpuMs: (cpu.user + cpu.system) / 1000, wallMs, echo };
}

async function renderCost(): Promise<void> {
  const base: number[] = [];
  const ui: number[] = [];
  const walls: number[] = [];
  let echo: number[] = [];
  for (let round = 0; round < 3; round++) {
    base.push((await streamOnce(false)).cpuMs);
    const r = await streamOnce(true);
    ui.push(r.cpuMs);
    walls.push(r.wallMs);
    echo = echo.concat(r.echo);
  }
  const perToken = (median(ui) - median(base)) / TOKENS;
  console.log(
    `streaming ${TOKENS} tokens: CPU with UI ${median(ui).toFixed(0)} ms, without UI ${median(base).toFixed(0)} ms ` +
      `→ render cost ${perToken.toFixed(3)} ms/token (wall with UI ${median(walls).toFixed(0)} ms)`,
  );
  const sorted = [...echo].sort((a, b) => a - b);
  console.log(
    `keystroke echo during the stream: p50 ${median(echo).toFixed(1)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(1)} ms over ${echo.length} keys`,
  );
}

await startupToPrompt();
if (!args.includes("--startup-only")) await renderCost();
process.exit(0);
