/**
 * `if` that does not match (issue 22, decision 0033): the same stream of
 * agent events through the hook interceptor with (a) no hook and (b) one
 * settings command hook on PreToolUse, matcher `Bash`, `if: "Bash(git push:*)"`,
 * loaded the way a settings file's hooks are (loadSettingsHooks), run by the
 * real process runner, with the session's `ruleCatches` (session/run.ts). No call in the stream is a `git push`, so the `if` is
 * tested in process and nothing starts: target ratio ≤ 1.02 to no hook.
 *
 * The hook's command appends a line to a marker file; the bench checks after
 * every run that the file does not exist (no spawn), and at the end sends one
 * `git push` call to prove the marker would have caught a spawn.
 *
 * A tool call costs nothing in that stream. What a user pays per Bash call is
 * printed as a second, derived RESULT: each run also times the cheapest real
 * Bash call there is (`/bin/sh -c true` through acai's process runner, the
 * median of 50), and the ratio is (that call + the stream's cost per call
 * with the `if`) / (that call + the cost per call with no hook). Measuring it
 * directly (the stream with real calls in it) was tried: a spawn's spread at
 * any load is a hundred times the `if`'s microseconds, so the ratio was noise.
 *
 * Run: npm run bench:hooks-if (builds first), or after npm run build:
 *   node bench/hooks-if.ts [--events N]
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { AgentEvent } from "../dist/agent/events.js";
import type { Verdict } from "../dist/agent/verdicts.js";
import type { HookDefinition } from "../dist/hooks/contract/definition.js";
import type { RuleCatches } from "../dist/hooks/contract/match.js";
import { loadSettingsHooks } from "../dist/hooks/discover/sources/settings.js";
import { createHookInterceptor } from "../dist/hooks/run/interceptor.js";
import { type PermissionPolicy, ruleCatches } from "../dist/permissions/decide.js";
import { NO_RULES } from "../dist/permissions/rules.js";
import { loadShellAnalyzer } from "../dist/permissions/shell/parser.js";
import { runProcess } from "../dist/process/runner.js";
import { parentEnvironment } from "./support/bash-call.ts";
import { median, numberArg, printResult, threeRuns } from "./support/result.ts";
import { bashCall, stepStream } from "./support/step-stream.ts";

const EVENTS = numberArg("events", 100_000);
const ROUNDS = 5;
const COMMANDS = ["ls -la", "git status", "git push-notes", "npm test", "git log --oneline"];

const root = await mkdtemp(path.join(os.tmpdir(), "acai-bench-if-"));
const marker = path.join(root, "spawned");
const env = parentEnvironment();

function settingsHook(): HookDefinition {
  const loaded = loadSettingsHooks(
    [
      {
        path: path.join(root, ".acai", "settings.json"),
        scope: "project",
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [
                { type: "command", command: `echo x >> '${marker}'`, if: "Bash(git push:*)" },
              ],
            },
          ],
        },
      },
    ],
    root,
  );
  const [hook] = loaded.hooks;
  if (!hook || loaded.hooks.length !== 1 || loaded.broken.length > 0) {
    throw new Error(`settings hook not loaded: ${JSON.stringify(loaded.broken)}`);
  }
  return hook;
}

const HOOK = settingsHook();

// As a session wires it (session/run.ts): the `if` judged as a deny rule of the session's policy.
const policy: PermissionPolicy = {
  mode: "default",
  rules: NO_RULES,
  paths: { projectDir: root, homeDir: root },
  cwd: root,
  shell: await loadShellAnalyzer(),
};
const catches: RuleCatches = (rule, toolName, input) =>
  ruleCatches(
    { ...rule, list: "deny", source: { scope: "user", label: "a hook's if" } },
    { toolName, input },
    policy,
  );

/** The step shape of hooks-interceptor.ts, the Bash lines taking turns. */
const stream = (count: number) => stepStream(count, (step) => COMMANDS[step % COMMANDS.length]!);

async function* agent(events: AgentEvent[]): AsyncGenerator<AgentEvent, void, Verdict | undefined> {
  for (const event of events) yield event;
}

async function once(hooks: HookDefinition[], events: AgentEvent[]): Promise<number> {
  const intercept = createHookInterceptor({
    hooks,
    runner: runProcess,
    env,
    projectDir: root,
    acaiHome: path.join(root, "acai-home"),
    audit: { write() {} },
    ruleCatches: catches,
  });
  const started = performance.now();
  let count = 0;
  for await (const _ of intercept(agent(events))) count++;
  const elapsed = performance.now() - started;
  if (count !== events.length) throw new Error(`expected ${events.length} events, got ${count}`);
  if (existsSync(marker)) throw new Error("the hook was spawned although its `if` matches no call");
  return elapsed;
}

/** One run: ROUNDS interleaved rounds (order alternating); the medians (ms). */
async function compareOnce(events: AgentEvent[]): Promise<[number, number]> {
  const none: number[] = [];
  const withIf: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const pair = [() => once([], events), () => once([HOOK], events)] as const;
    const [first, second] = i % 2 === 0 ? pair : [pair[1], pair[0]];
    const a = await first();
    const b = await second();
    none.push(i % 2 === 0 ? a : b);
    withIf.push(i % 2 === 0 ? b : a);
  }
  return [median(none), median(withIf)];
}

/** The median time of one `/bin/sh -c true` run by acai's process runner (ms). */
async function realBashCall(count = 50): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const ran = await runProcess({ command: "/bin/sh", args: ["-c", "true"], cwd: root, env });
    times.push(performance.now() - started);
    if (ran.exitCode !== 0) throw new Error(`/bin/sh -c true failed: ${ran.stderr}`);
  }
  return median(times);
}

/** The control: one `git push` call does spawn the hook, so the marker check can fail. */
async function control(): Promise<void> {
  const intercept = createHookInterceptor({
    hooks: [HOOK],
    runner: runProcess,
    env,
    projectDir: root,
    acaiHome: path.join(root, "acai-home"),
    audit: { write() {} },
    ruleCatches: catches,
  });
  for await (const _ of intercept(agent(bashCall(1, "git push origin main")))) {
    // drain
  }
  const lines = existsSync(marker) ? (await readFile(marker, "utf8")).split("\n").length - 1 : 0;
  if (lines !== 1) throw new Error(`control: a matching git push spawned the hook ${lines} times`);
  console.log("control: one `git push` call spawned the hook once (the marker check works)");
}

try {
  const events = stream(EVENTS);
  for (let i = 0; i < 3; i++) {
    await once([], events);
    await once([HOOK], events);
  }
  const perEvent = (ms: number) => ((ms * 1e6) / events.length).toFixed(0);
  const calls = events.filter((e) => e.type === "tool_call_start").length;
  const perCall = (ms: number) => ((ms * 1000) / calls).toFixed(1);
  console.log(
    `hooks-if: ${events.length} events, median of ${ROUNDS} interleaved rounds per run, three runs, node ${process.version}`,
  );
  const { values, loads } = await threeRuns(async (run) => {
    const [a, b] = await compareOnce(events);
    const real = await realBashCall();
    console.log(
      `run ${run + 1}: no hook ${a.toFixed(1)} ms (${perEvent(a)} ns/event), if that does not match ${b.toFixed(1)} ms (${perEvent(b)} ns/event), ratio ${(b / a).toFixed(3)}; spawns 0; one real Bash call ${real.toFixed(2)} ms`,
    );
    return [a, b, real] as const;
  });
  printResult({
    name: "if that does not match vs no hook",
    ratios: values.map(([a, b]) => b / a),
    loads,
    target: { op: "≤", value: 1.02 },
    detail: `${values.map(([a, b]) => `${perEvent(a)} → ${perEvent(b)}`).join(", ")} ns/event; per Bash call the if adds ${values.map(([a, b]) => perCall(b - a)).join(", ")} µs; hook spawned 0 times`,
  });
  // Per call, in ms: the real call plus what the stream costs per call with and without the hook.
  const perCallMs = (ms: number) => ms / calls;
  printResult({
    name: "if that does not match vs no hook, per Bash call with the cheapest real call in it (derived)",
    ratios: values.map(([a, b, real]) => (real + perCallMs(b)) / (real + perCallMs(a))),
    loads,
    target: { op: "≤", value: 1.02 },
    detail: `one real Bash call (/bin/sh -c true, acai's runner, median of 50) ${values.map(([, , real]) => real.toFixed(2)).join(", ")} ms; the if adds ${values.map(([a, b]) => perCall(b - a)).join(", ")} µs a call`,
  });
  await control();
} finally {
  await rm(root, { recursive: true, force: true });
}
