/**
 * Cost of the OS sandbox (issue 19): one spawned hook (runHookOnce: a bash
 * script that reads its payload and answers JSON) and one Bash tool call
 * (`ls -la` through the Bash tool) — each unsandboxed, sandboxed through the
 * policy's long-lived spawner (what acai does: the Python one where
 * /usr/bin/python3 shows in the sandbox, decision 0059), and, for
 * information, through the Node spawner and with one bwrap per process (the
 * fallbacks). All interleaved in one
 * run, the order rotating each round; three runs. Prints min/median/max per
 * kind and RESULT lines (bench/support/result.ts): sandboxed ÷ unsandboxed
 * medians against the 1.3× target, every run's ratio, the spread and the load.
 *
 * Run: npm run bench:sandbox   (or, after npm run build: node bench/sandbox.ts [--runs N])
 * The policy is a typical one, written by hand: the host read-only, the
 * project and a temp folder writable, a /dev of its own.
 */
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { HookDefinition } from "../dist/hooks/contract/definition.js";
import { runHookOnce } from "../dist/hooks/run/run.js";
import { containmentInForce } from "../dist/process/bwrap.js";
import { processContainment } from "../dist/process/containment.js";
import { createProcessRunner, runProcess } from "../dist/process/runner.js";
import { createSandboxLauncher } from "../dist/process/sandbox-launch.js";
import { spawnerKindChooser } from "../dist/process/spawner-kind.js";
import type { ProcessRunner, SandboxLaunch, SpawnerKind } from "../dist/process/types.js";
import { bashTool } from "../dist/tools/builtin/bash.js";
import { bashToolCall, parentEnvironment } from "./support/bash-call.ts";
import { median, printResult, threeRuns } from "./support/result.ts";

const runsFlag = process.argv.indexOf("--runs");
const N = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 30;
const TARGET = 1.3;

const containment = containmentInForce();
if (containment.kind !== "namespace") {
  console.log(`sandbox: skipped — ${containment.reason}`);
  process.exit(0);
}

const root = await mkdtemp(path.join(os.tmpdir(), "acai-bench-sandbox-"));
const scratch = await mkdtemp(path.join(os.tmpdir(), "acai-bench-sandbox-tmp-"));
const script = path.join(root, "answer.sh");
await writeFile(
  script,
  `#!/bin/bash\ninput=$(cat)\nif [[ "$input" == *'"tool_name":"Bash"'* ]]; then echo '{"action":"continue","context":"seen"}'; else echo '{}'; fi\n`,
);
await chmod(script, 0o755);

const bwrapArgs = [
  "--ro-bind",
  "/",
  "/",
  "--dev",
  "/dev",
  "--bind",
  root,
  root,
  "--bind",
  scratch,
  scratch,
];
// What acai asks for (the Python spawner where /usr/bin/python3 shows in the sandbox), and the
// Node spawner beside it (decision 0059: the Node one is what every sandbox had before).
const spawnerKind = spawnerKindChooser(process.env)(bwrapArgs);
const launchOf = (helper: SpawnerKind): SandboxLaunch => ({
  key: `bench-${helper}`,
  name: "bench",
  bwrapArgs,
  helper,
});
const policy = launchOf(spawnerKind);
const sandboxed =
  (runner: ProcessRunner, launch = policy): ProcessRunner =>
  (run) =>
    runner({ ...run, sandbox: launch });
const perProcessLauncher = createSandboxLauncher({ useSpawner: false });
const perProcess = sandboxed(
  createProcessRunner({ containment: processContainment(), sandbox: perProcessLauncher }),
);

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
const { payload } = bashToolCall(root);
const bash = bashTool();

async function hookRun(runner: ProcessRunner): Promise<number> {
  const started = performance.now();
  const record = await runHookOnce(hook, "before_tool", payload, {
    runner,
    env: parentEnv,
    projectDir: root,
    sessionId: "bench",
  });
  if (record.decision.action !== "continue") {
    throw new Error(`hook answered ${JSON.stringify(record.decision)}`);
  }
  return performance.now() - started;
}

async function bashCall(runner: ProcessRunner): Promise<number> {
  const started = performance.now();
  const result = await bash.execute(
    { command: "ls -la" },
    { cwd: root, signal: new AbortController().signal, runner, env: { ...parentEnv, SHLVL: "1" } },
  );
  if (!result.ok) throw new Error(`Bash call failed: ${result.error}`);
  return performance.now() - started;
}

const nodeSpawner = launchOf("node");
const kinds = {
  "hook, unsandboxed": () => hookRun(runProcess),
  "hook, sandboxed (spawner)": () => hookRun(sandboxed(runProcess)),
  "hook, sandboxed (Node spawner)": () => hookRun(sandboxed(runProcess, nodeSpawner)),
  "hook, sandboxed (bwrap per process)": () => hookRun(perProcess),
  "Bash, unsandboxed": () => bashCall(runProcess),
  "Bash, sandboxed (spawner)": () => bashCall(sandboxed(runProcess)),
  "Bash, sandboxed (Node spawner)": () => bashCall(sandboxed(runProcess, nodeSpawner)),
  "Bash, sandboxed (bwrap per process)": () => bashCall(perProcess),
} as const;
type Kind = keyof typeof kinds;

try {
  const names = Object.keys(kinds) as Kind[];
  for (let i = 0; i < 5; i++) for (const name of names) await kinds[name](); // warm-up
  const ratio = (times: Record<Kind, number[]>, a: Kind, b: Kind) =>
    median(times[a]) / median(times[b]);
  const { values: runs, loads } = await threeRuns(async (run) => {
    const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
      Kind,
      number[]
    >;
    for (let i = 0; i < N; i++) {
      for (let j = 0; j < names.length; j++) {
        const name = names[(i + j) % names.length]!;
        times[name].push(await kinds[name]());
      }
    }
    console.log(
      `run ${run + 1}: N=${N} each, interleaved, node ${process.version}; spawner: ${spawnerKind}`,
    );
    for (const name of names) {
      const values = times[name];
      console.log(
        `  ${name.padEnd(38)} min ${Math.min(...values).toFixed(2)}  median ${median(values).toFixed(2)}  max ${Math.max(...values).toFixed(2)} ms`,
      );
    }
    console.log(
      `  per-process bwrap for comparison: hook ${ratio(times, "hook, sandboxed (bwrap per process)", "hook, unsandboxed").toFixed(2)}×, ` +
        `Bash ${ratio(times, "Bash, sandboxed (bwrap per process)", "Bash, unsandboxed").toFixed(2)}×`,
    );
    console.log(
      `  ${spawnerKind} spawner / Node spawner: hook ${ratio(times, "hook, sandboxed (spawner)", "hook, sandboxed (Node spawner)").toFixed(3)}×, ` +
        `Bash ${ratio(times, "Bash, sandboxed (spawner)", "Bash, sandboxed (Node spawner)").toFixed(3)}×`,
    );
    return times;
  });
  for (const what of ["hook", "Bash"] as const) {
    const [sandboxedKind, bare] = [`${what}, sandboxed (spawner)`, `${what}, unsandboxed`] as [
      Kind,
      Kind,
    ];
    printResult({
      name: `sandboxed / unsandboxed ${what === "hook" ? "hook run" : "Bash call"} (medians)`,
      ratios: runs.map((times) => ratio(times, sandboxedKind, bare)),
      loads,
      target: { op: "≤", value: TARGET },
      detail: `unsandboxed ${runs.map((t) => median(t[bare]).toFixed(2)).join(", ")} ms`,
    });
  }
} finally {
  await rm(root, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
}
process.exit(0);
