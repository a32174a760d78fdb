/**
 * What one process fewer per hook run is worth here. Through `runHookOnce`
 * and the host's spawn helper (what a session without the OS sandbox runs
 * hooks through), in turns, the order reversed every other round, three
 * runs; each RESULT line is a / b per hook run (no target):
 *
 * - a settings line without shell syntax started as its program (decision
 *   0075) / the same line kept in `/bin/sh -c` by `; exit $?` after it, for
 *   bench/vs-claude-code.ts's bash guard and its Python one (the interpreter
 *   `python3` ends in, support/python.ts);
 * - an executable hook whose `#!` line is `/usr/bin/env bash`, started as
 *   `bash file` from the session's fingerprints (decision 0076) / exec'd as
 *   before (the kernel runs env, env runs bash).
 *
 *   npm run build && node bench/hooks-shell.ts [--rounds 60]
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { HookDefinition } from "../dist/hooks/contract/definition.js";
import { HookFingerprints } from "../dist/hooks/discover/fingerprint.js";
import { type HookRunOptions, runHookOnce } from "../dist/hooks/run/run.js";
import { createContainment } from "../dist/process/containment.js";
import { createProcessRunner } from "../dist/process/runner.js";
import { createSpawnHelper } from "../dist/process/spawn-helper.js";
import { realInterpreter } from "./support/python.ts";
import { median, numberArg, printResult, threeRuns } from "./support/result.ts";

const ROUNDS = numberArg("rounds", 60);
const WARM_UP = 5;
const GUARD_BASH = `payload="$(cat)"\ncase "$payload" in *'rm -rf /'*) echo "blocked: rm -rf /" >&2; exit 2;; esac\nexit 0\n`;
const GUARD_PY = `import json, sys\nif "rm -rf /" in json.load(sys.stdin).get("tool_input", {}).get("command", ""):\n    print("blocked: rm -rf /", file=sys.stderr); sys.exit(2)\n`;

if (!existsSync(fileURLToPath(new URL("../dist/hooks/run/direct-command.js", import.meta.url)))) {
  console.error("dist/ is missing or older than decision 0075: run `npm run build` first.");
  process.exit(2);
}

function settingsHook(command: string): HookDefinition {
  return {
    id: `user:settings:${command}`,
    name: "guard",
    events: ["before_tool"],
    matcher: {},
    priority: 100,
    timeoutMs: 10_000,
    async: false,
    failure: "open",
    env: [],
    scope: "user",
    sourceKind: "settings",
    file: "/bench/settings.json",
    dialect: "acai",
    launch: { command, args: [], viaShell: true },
  };
}

const dir = await mkdtemp(path.join(os.tmpdir(), "acai-bench-hooks-shell-"));
const helper = createSpawnHelper({ tmpDir: dir });
try {
  if (!(await helper.ready())) throw new Error("the spawn helper did not start");
  await writeFile(path.join(dir, "guard.sh"), GUARD_BASH);
  await writeFile(path.join(dir, "guard.py"), GUARD_PY);
  const runner = createProcessRunner({ helper, containment: createContainment() });
  const options = {
    runner,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    projectDir: dir,
    sessionId: "bench",
  };
  const withPrints = (hook: HookDefinition) => ({
    ...options,
    fingerprints: HookFingerprints.record([hook], { projectDir: dir, acaiHome: dir, homeDir: dir }),
  });
  const python = realInterpreter("python3");
  const envGuard = path.join(dir, "env-guard");
  await writeFile(envGuard, `#!/usr/bin/env bash\n${GUARD_BASH}`, { mode: 0o755 });
  const executable: HookDefinition = {
    ...settingsHook(envGuard),
    sourceKind: "executable",
    launch: { command: envGuard, args: [], viaShell: false },
  };
  console.log(
    `hook runs started directly vs through /bin/sh or env: node ${process.version}, ${ROUNDS} rounds a run, the host's ${helper.kind()} spawn helper`,
  );
  const lines = [
    { label: "bash", program: "bash", line: `bash ${path.join(dir, "guard.sh")}` },
    { label: "Python", program: python, line: `${python} ${path.join(dir, "guard.py")}` },
  ];
  for (const { label, program, line } of lines) {
    await compare(
      `one ${label} settings hook run, its line started directly / through /bin/sh -c`,
      [
        { hook: settingsHook(line), options, expected: program },
        { hook: settingsHook(`${line}; exit $?`), options, expected: "/bin/sh" },
      ],
    );
  }
  await compare(
    "one executable hook run whose #! line is /usr/bin/env bash, started as `bash file` / exec'd (env, then bash)",
    [
      { hook: executable, options: withPrints(executable), expected: "bash" },
      { hook: executable, options, expected: envGuard },
    ],
  );
} finally {
  helper.stop();
  await rm(dir, { recursive: true, force: true });
}

interface Side {
  hook: HookDefinition;
  options: HookRunOptions;
  /** The program the run must have started (checked: the bench measures what it says). */
  expected: string;
}

async function timeOne(side: Side): Promise<number> {
  const payload = { tool_name: "Bash", tool_input: { command: "true" } };
  const start = performance.now();
  const record = await runHookOnce(side.hook, "before_tool", payload, side.options);
  const ms = performance.now() - start;
  if (record.command !== side.expected || record.exitCode !== 0) {
    throw new Error(
      `${side.hook.launch.command}: ran ${record.command}, exit ${record.exitCode}: ${record.stderr}`,
    );
  }
  return ms;
}

/** `a` against `b`, in turns (the order reversed every other round), three runs: the RESULT line a / b. */
async function compare(name: string, [a, b]: [Side, Side]): Promise<void> {
  const { values, loads } = await threeRuns(async () => {
    const times = [[] as number[], [] as number[]];
    for (let round = 0; round < ROUNDS + WARM_UP; round++) {
      for (const which of round % 2 === 0 ? [0, 1] : [1, 0]) {
        const ms = await timeOne(which === 0 ? a : b);
        if (round >= WARM_UP) times[which]?.push(ms);
      }
    }
    return { a: median(times[0] ?? []), b: median(times[1] ?? []) };
  });
  printResult({
    name,
    ratios: values.map((v) => v.a / v.b),
    loads,
    detail: `${values.map((v) => v.a.toFixed(2)).join(", ")} ms against ${values.map((v) => v.b.toFixed(2)).join(", ")} ms (medians of ${ROUNDS} runs)`,
  });
}
