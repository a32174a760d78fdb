/**
 * A settings hook's command line without shell syntax, started as its
 * program (decision 0075), against the same hook through `/bin/sh -c` — the
 * line with `; exit $?` after it, which keeps the shell and does the same.
 * Both through `runHookOnce` and the host's spawn helper (what a session
 * without the OS sandbox runs hooks through), in turns, the order reversed
 * every other round. The hook is bench/vs-claude-code.ts's bash guard (read
 * the payload, block `rm -rf /`). Also a Python hook (the interpreter `python3`
 * ends in, support/python.ts). Three runs; the RESULT lines are direct /
 * through the shell, per hook run (no target: the figure says what one
 * process fewer is worth here).
 *
 *   npm run build && node bench/hooks-shell.ts [--rounds 60]
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { HookDefinition } from "../dist/hooks/contract/definition.js";
import { runHookOnce } from "../dist/hooks/run/run.js";
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
  const payload = { tool_name: "Bash", tool_input: { command: "true" } };
  const timeOne = async (hook: HookDefinition, expected: string): Promise<number> => {
    const start = performance.now();
    const record = await runHookOnce(hook, "before_tool", payload, options);
    const ms = performance.now() - start;
    if (record.command !== expected || record.exitCode !== 0) {
      throw new Error(
        `${hook.launch.command}: ran ${record.command}, exit ${record.exitCode}: ${record.stderr}`,
      );
    }
    return ms;
  };
  const python = realInterpreter("python3");
  const hooks = [
    { label: "bash", program: "bash", line: `bash ${path.join(dir, "guard.sh")}` },
    { label: "Python", program: python, line: `${python} ${path.join(dir, "guard.py")}` },
  ];
  console.log(
    `a settings line direct vs through /bin/sh: node ${process.version}, ${ROUNDS} rounds a run, the host's ${helper.kind()} spawn helper`,
  );
  for (const { label, program, line } of hooks) {
    const direct = settingsHook(line);
    const shell = settingsHook(`${line}; exit $?`);
    const { values, loads } = await threeRuns(async () => {
      const times = { direct: [] as number[], shell: [] as number[] };
      for (let round = 0; round < ROUNDS + WARM_UP; round++) {
        const order =
          round % 2 === 0 ? (["direct", "shell"] as const) : (["shell", "direct"] as const);
        for (const kind of order) {
          const ms = await timeOne(
            kind === "direct" ? direct : shell,
            kind === "direct" ? program : "/bin/sh",
          );
          if (round >= WARM_UP) times[kind].push(ms);
        }
      }
      return { direct: median(times.direct), shell: median(times.shell) };
    });
    printResult({
      name: `one ${label} settings hook run, its line started directly / through /bin/sh -c`,
      ratios: values.map((v) => v.direct / v.shell),
      loads,
      detail: `direct ${values.map((v) => v.direct.toFixed(2)).join(", ")} ms; through the shell ${values.map((v) => v.shell.toFixed(2)).join(", ")} ms (medians of ${ROUNDS} runs)`,
    });
  }
} finally {
  helper.stop();
  await rm(dir, { recursive: true, force: true });
}
