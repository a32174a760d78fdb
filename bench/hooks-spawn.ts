/**
 * Cost of running one matched hook: a bash script that reads its stdin and
 * answers JSON, run N=50 times through acai vs a bare `child_process.spawn` of
 * the same script from Node (write the same payload, read stdout, wait for
 * close). Runs are interleaved; prints the ratio of medians (target ≤ 1.2),
 * the per-event figure over three runs (RESULT line with the spread and load).
 *
 * Run (Node 24 strips the types itself; the bench uses the built code):
 *   cd /work/main && export PATH="$PWD/node_modules/.bin:$PATH"
 *   npx tsc -p tsconfig.json && node bench/hooks-spawn.ts
 *
 * "acai" is the whole path: a tool_call_start through the interceptor of a
 * running session (match, payload, environment, process runner with its own
 * process group, decode, fold, audit line to a temp ACAI_HOME), timed from
 * the agent's yield of the event to the verdict coming back, alternating with
 * bare spawns made inside the same session. That is the target's ratio: what
 * one hook adds to each event. Printed for information, to show where time
 * goes: the bare spawn with `detached: true` (the own process group acai needs
 * to kill a hook's children), the process runner alone, runHookOnce (payload
 * + env + runner + decode), and a whole interceptor run per event (a session
 * of one event: it also opens and closes the audit log and the session's
 * hosts, once per session in real use).
 */
import { spawn } from "node:child_process";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { AgentEvent } from "../dist/agent/events.js";
import type { Verdict } from "../dist/agent/verdicts.js";
import type { HookDefinition } from "../dist/hooks/contract/definition.js";
import { buildHookEnvironment } from "../dist/hooks/contract/environment.js";
import { HookFingerprints } from "../dist/hooks/discover/fingerprint.js";
import { createHookInterceptor } from "../dist/hooks/run/interceptor.js";
import { runHookOnce } from "../dist/hooks/run/run.js";
import { runProcess } from "../dist/process/runner.js";
import { bashToolCall, parentEnvironment } from "./support/bash-call.ts";
import { median, printResult, threeRuns } from "./support/result.ts";

const N = 50;
const root = await mkdtemp(path.join(os.tmpdir(), "acai-bench-spawn-"));
const script = path.join(root, "answer.sh");
await writeFile(
  script,
  `#!/bin/bash\ninput=$(cat)\nif [[ "$input" == *'"tool_name":"Bash"'* ]]; then echo '{"action":"continue","context":"seen"}'; else echo '{}'; fi\n`,
);
await chmod(script, 0o755);

const hook: HookDefinition = {
  id: `user:executable:${script}`,
  name: "answer",
  events: ["before_tool"],
  matcher: { tool: "Bash" },
  priority: 100,
  timeoutMs: 30_000,
  async: false,
  failure: "open",
  env: [],
  scope: "user",
  sourceKind: "executable",
  file: script,
  dialect: "acai",
  launch: { command: script, args: [], viaShell: false },
};
const parentEnv = parentEnvironment();
const { toolStart, payload } = bashToolCall(root);
const stdin = `${JSON.stringify(payload)}\n`;
const env = buildHookEnvironment({
  parentEnv,
  hook,
  projectDir: root,
  sessionId: "bench",
  event: "before_tool",
});

function bare(detached = false): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(script, [], { cwd: root, env, detached, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.resume();
    child.on("error", reject);
    child.on("close", () => {
      if (!out.includes('"continue"')) reject(new Error(`bare run answered ${out}`));
      else resolve(performance.now() - started);
    });
    child.stdin.end(stdin);
  });
}

async function viaRunner(): Promise<number> {
  const started = performance.now();
  const result = await runProcess({ command: script, cwd: root, env, stdin, timeoutMs: 30_000 });
  if (!result.stdout.includes('"continue"')) throw new Error(`runner answered ${result.stdout}`);
  return performance.now() - started;
}

async function viaRunHookOnce(): Promise<number> {
  const started = performance.now();
  const record = await runHookOnce(hook, "before_tool", payload, {
    runner: runProcess,
    env: parentEnv,
    projectDir: root,
    sessionId: "bench",
  });
  if (record.decision.action !== "continue")
    throw new Error(`runHookOnce: ${JSON.stringify(record.decision)}`);
  return performance.now() - started;
}

async function* oneEvent(): AsyncGenerator<AgentEvent, void, Verdict | undefined> {
  const verdict = yield toolStart;
  if (verdict?.action !== "continue" || verdict.context?.[0] !== "seen") {
    throw new Error(`interceptor verdict ${JSON.stringify(verdict)}`);
  }
}

// As in a session: the hook's file is checked (a stat) before each run, hooks/discover/fingerprint.ts.
// BENCH_FINGERPRINTS=0 leaves the check out, for the before/after figure.
const fingerprints =
  process.env.BENCH_FINGERPRINTS === "0"
    ? undefined
    : HookFingerprints.record([hook], {
        projectDir: root,
        acaiHome: path.join(root, "acai-home"),
        homeDir: root,
      });
const intercept = createHookInterceptor({
  hooks: [hook],
  ...(fingerprints === undefined ? {} : { fingerprints }),
  runner: runProcess,
  env: parentEnv,
  projectDir: root,
  acaiHome: path.join(root, "acai-home"),
});

async function viaInterceptor(): Promise<number> {
  const started = performance.now();
  for await (const _ of intercept(oneEvent())) {
    // drain
  }
  return performance.now() - started;
}

const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

try {
  for (let i = 0; i < 5; i++) {
    await bare();
    await bare(true);
    await viaRunner();
    await viaRunHookOnce();
    await viaInterceptor();
  }
  const times = {
    bare: [] as number[],
    detached: [] as number[],
    runner: [] as number[],
    run: [] as number[],
    interceptor: [] as number[],
  };
  for (let i = 0; i < N; i++) {
    // Rotate the order so drift spreads evenly.
    const order = [
      ["bare", () => bare(false)],
      ["detached", () => bare(true)],
      ["runner", viaRunner],
      ["run", viaRunHookOnce],
      ["interceptor", viaInterceptor],
    ] as const;
    for (let j = 0; j < order.length; j++) {
      const [name, fn] = order[(i + j) % order.length]!;
      times[name].push(await fn());
    }
  }
  // Per event in one running session, alternating with bare spawns in the same session.
  const { values: sessions, loads } = await threeRuns(async () => {
    const inSession = { bare: [] as number[], acai: [] as number[] };
    async function* liveSession(): AsyncGenerator<AgentEvent, void, Verdict | undefined> {
      for (let i = 0; i < N + 5; i++) {
        const bareTime = await bare();
        const started = performance.now();
        const verdict = yield toolStart;
        const acaiTime = performance.now() - started;
        if (verdict?.action !== "continue" || verdict.context?.[0] !== "seen") {
          throw new Error(`interceptor verdict ${JSON.stringify(verdict)}`);
        }
        if (i < 5) continue; // warm-up
        inSession.bare.push(bareTime);
        inSession.acai.push(acaiTime);
      }
    }
    for await (const _ of intercept(liveSession())) {
      // drain
    }
    return inSession;
  });
  const inSession = sessions[sessions.length - 1]!;
  const b = median(times.bare);
  console.log(
    `hooks-spawn: N=${N} each, interleaved, node ${process.version}, load ${os.loadavg()[0]?.toFixed(2)}`,
  );
  const line = (label: string, values: number[], base = b) =>
    console.log(
      `${label.padEnd(40)} median ${median(values).toFixed(2)} ms, mean ${mean(values).toFixed(2)} ms, ratio ${(median(values) / base).toFixed(3)}`,
    );
  line("bare spawn", times.bare);
  line("bare spawn, detached (own group)", times.detached);
  line("process runner alone", times.runner);
  line("runHookOnce", times.run);
  line("interceptor, a whole session per event", times.interceptor);
  const sb = median(inSession.bare);
  line("bare spawn, inside a running session", inSession.bare, sb);
  line("interceptor, per event in the session", inSession.acai, sb);
  if (fingerprints !== undefined) {
    // The check a run makes first: one stat of the hook's file while it is unchanged.
    const checks = 10_000;
    const started = performance.now();
    for (let i = 0; i < checks; i++) fingerprints.changed(hook);
    const each = ((performance.now() - started) / checks) * 1000;
    console.log(`${"fingerprint check (a stat) alone".padEnd(40)} ${each.toFixed(1)} µs per run`);
  }
  printResult({
    name: "one matched hook per event in a running session vs a bare spawn in it",
    ratios: sessions.map((run) => median(run.acai) / median(run.bare)),
    loads,
    target: { op: "≤", value: 1.2 },
    detail: `bare ${sessions.map((run) => median(run.bare).toFixed(2)).join(", ")} ms, acai ${sessions.map((run) => median(run.acai).toFixed(2)).join(", ")} ms; a whole session per event ${(median(times.interceptor) / b).toFixed(3)} (one run)`,
  });
} finally {
  await rm(root, { recursive: true, force: true });
}
