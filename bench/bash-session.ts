/**
 * What a session that runs Bash commands costs acai's process as a whole
 * (decision 0072): `acai -p` replaying CALLS distinct Bash calls (a replay
 * model: no server), measured from outside by the wait's resource usage —
 * CPU of every thread (V8's background compilers too), wall time to exit, and
 * peak RSS. The processes acai's spawner starts (the Bash calls themselves)
 * are not in it. Baseline: the same `acai -p` answered by one text turn (no
 * tool call), or with --versus another build's session with the same Bash
 * calls. Sessions alternate (order reversed every other repetition); three runs.
 *
 *   npm run build && node bench/bash-session.ts [--calls 10] [--reps 5] [--versus OTHER/dist/bundle/main.js]
 *
 * Needs /usr/bin/python3 to read the wait's rusage (`resource.getrusage`).
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { median, medianRunIndex, numberArg, printResult, threeRuns } from "./support/result.ts";

const run = promisify(execFile);
const CLI = fileURLToPath(new URL("../dist/bundle/main.js", import.meta.url));
const versusAt = process.argv.indexOf("--versus");
const VERSUS = versusAt > 0 ? path.resolve(process.argv[versusAt + 1] ?? "") : undefined;
const CALLS = Math.max(1, numberArg("calls", 10));
const REPS = Math.max(1, numberArg("reps", 5));
const PYTHON = "/usr/bin/python3";
const SESSION_DEADLINE_MS = 120_000;

/** Runs argv, then prints the children's rusage: user s, system s, max RSS KiB. */
const RUSAGE = `import resource, subprocess, sys
p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
if p.returncode != 0: sys.stderr.write(p.stderr.decode(errors="replace")); sys.exit(p.returncode)
print(r.ru_utime, r.ru_stime, r.ru_maxrss)`;

interface Session {
  cpuMs: number;
  wallMs: number;
  maxRssMb: number;
}

interface Variant {
  name: string;
  cli: string;
  replay: string;
}

function bashLine(i: number): string {
  return `echo step-${i} && ls -la | grep -c . > /dev/null; for f in a${i} b${i}; do echo "$f"; done | sort -r | head -${i + 1}`;
}

async function setUp(root: string): Promise<{ bash: string; text: string; cwd: string }> {
  const cwd = path.join(root, "project");
  await mkdir(cwd, { recursive: true });
  const bash = path.join(root, "bash.json");
  const turns = Array.from({ length: CALLS }, (_, i) => ({
    text: `step ${i}`,
    tool_calls: [{ name: "Bash", input: { command: bashLine(i) } }],
  }));
  await writeFile(bash, JSON.stringify({ turns: [...turns, { text: "done" }] }));
  const text = path.join(root, "text.json");
  await writeFile(text, JSON.stringify({ turns: [{ text: "done" }] }));
  return { bash, text, cwd };
}

async function session(variant: Variant, root: string, cwd: string): Promise<Session> {
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: path.join(root, "home"),
    ACAI_HOME: path.join(root, "acai-home"),
  };
  const argv = [process.execPath, variant.cli, "-p", "go", "--model", `replay:${variant.replay}`];
  const started = performance.now();
  const { stdout } = await run(PYTHON, ["-c", RUSAGE, ...argv, "--allowedTools", "Bash"], {
    cwd,
    env,
    timeout: SESSION_DEADLINE_MS,
  }).catch((error: unknown) => {
    const said = error instanceof Error ? error.message : String(error);
    throw new Error(
      `${variant.name}: the session failed or took over ${SESSION_DEADLINE_MS} ms: ${said}`,
    );
  });
  const wallMs = performance.now() - started;
  const [user, system, rssKb] = stdout.trim().split(" ").map(Number);
  return { cpuMs: ((user ?? 0) + (system ?? 0)) * 1000, wallMs, maxRssMb: (rssKb ?? 0) / 1024 };
}

async function oneRun(variants: [Variant, Variant], root: string, cwd: string) {
  const seen = new Map<string, Session[]>(variants.map((v) => [v.name, []]));
  await session(variants[0], root, cwd); // warms the compile cache of each build
  await session(variants[1], root, cwd);
  for (let rep = 0; rep < REPS; rep++) {
    const order = rep % 2 === 0 ? variants : ([variants[1], variants[0]] as const);
    for (const variant of order) seen.get(variant.name)?.push(await session(variant, root, cwd));
  }
  const of = (name: string, key: keyof Session) =>
    median((seen.get(name) ?? []).map((s) => s[key]));
  return { of };
}

async function main(): Promise<void> {
  for (const [what, file] of [
    ["acai's build", CLI],
    ["--versus", VERSUS],
    ["python", PYTHON],
  ]) {
    if (file !== undefined && !existsSync(file)) {
      console.error(
        `bash-session: ${what} ${file} is missing (npm run build first; --versus names another build's dist/bundle/main.js)`,
      );
      process.exit(1);
    }
  }
  const root = await mkdtemp(path.join(os.tmpdir(), "acai-bench-bash-session-"));
  try {
    const { bash, text, cwd } = await setUp(root);
    const measured: Variant = { name: "acai", cli: CLI, replay: bash };
    const baseline: Variant = VERSUS
      ? { name: "versus", cli: VERSUS, replay: bash }
      : { name: "text only", cli: CLI, replay: text };
    const what = VERSUS
      ? `acai -p with ${CALLS} Bash calls, this build / ${VERSUS}`
      : `acai -p with ${CALLS} Bash calls / the same acai -p answered by one text turn`;
    console.log(`${what}: ${REPS} sessions of each a run, alternating`);
    const { values, loads } = await threeRuns(() => oneRun([measured, baseline], root, cwd));
    for (const key of ["cpuMs", "wallMs", "maxRssMb"] as const) {
      const ratios = values.map((v) => v.of(measured.name, key) / v.of(baseline.name, key));
      const mid = values[medianRunIndex(ratios)];
      const unit = key === "maxRssMb" ? "MB" : "ms";
      const label = {
        cpuMs: "CPU (every thread)",
        wallMs: "wall time to exit",
        maxRssMb: "peak RSS",
      }[key];
      printResult({
        name: `${what}, ${label}`,
        ratios,
        loads,
        detail: `${measured.name} ${mid?.of(measured.name, key).toFixed(0)} ${unit}, ${baseline.name} ${mid?.of(baseline.name, key).toFixed(0)} ${unit} (the median run's medians)`,
      });
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

await main();
