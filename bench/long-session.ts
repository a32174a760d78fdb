/**
 * Per-step cost over a long session (issue 25, item 3): the built `acai -p`
 * runs one turn of STEPS model requests with the replay model — each step a
 * short text and one `Read` of a 1,500-character file, so the history grows
 * by a tool call and its result per step — and prints every step's wall time
 * as seen on its `--output-format stream-json` stdout (from one `step_start`
 * to the next: the model call through the AI SDK, the events, the
 * interceptor, the printer, the transcript). The figure is the mean step
 * time of the last 50 steps against the first 50 of the same run (target
 * ≤ 1.2×), three runs.
 *
 *   npm run build && node bench/long-session.ts [--steps 1500] [--runs 3]
 *   node bench/long-session.ts --steps 1500 --runs 1 --cpu-prof DIR   (a CPU profile of acai)
 *   node bench/long-session.ts --compare /tmp/old   (an older build's dist/, alternating sessions)
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { median, numberArg, printResult, threeRuns } from "./support/result.ts";

const compareAt = process.argv.indexOf("--compare");
/** `--compare DIR`: another build (DIR/dist), run alternately with this one, session by session. */
const OTHER =
  compareAt > 0 ? path.resolve(process.argv[compareAt + 1] ?? ".", "dist/cli/main.js") : undefined;
const THIS = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const STEPS = numberArg("steps", 1500);
const RUNS = numberArg("runs", 3);
const WINDOW = 50;
/** Where the "warm" window starts: past the JIT's first compilations, which make steps 1–50 slow. */
const WARM = 150;
const profileAt = process.argv.indexOf("--cpu-prof");
const profileDir = profileAt > 0 ? path.resolve(process.argv[profileAt + 1] ?? ".") : undefined;

/** The replay script: STEPS steps of a short text and one Read, then a last answer. */
function script(): unknown {
  const turns: unknown[] = [];
  for (let i = 1; i <= STEPS; i++) {
    turns.push({
      text: `Step ${i}: reading the notes again to check one more detail.`,
      tool_calls: [{ name: "Read", input: { file_path: "notes.txt" } }],
    });
  }
  turns.push({ text: "Done." });
  return { description: "long-session bench", turns };
}

/**
 * One session; the wall time of each step (ms), from its step_start to the next one's, and the
 * CPU time acai's process used meanwhile (sampled when the bench reads the line, in 10 ms ticks:
 * only sums over many steps mean anything).
 */
async function session(
  root: string,
  run: string,
  cli: string,
): Promise<{ wall: number[]; cpu: number[] }> {
  const dirs = ["home", "acai-home", "project"].map((d) => path.join(root, `${d}-${run}`));
  const [home, acaiHome, cwd] = dirs as [string, string, string];
  await Promise.all(dirs.map((d) => mkdir(d)));
  await writeFile(
    path.join(cwd, "notes.txt"),
    `${"a line of notes, read again and again\n".repeat(40)}`,
  );
  await writeFile(path.join(cwd, "replay.json"), JSON.stringify(script()));
  const nodeArgs = profileDir ? ["--cpu-prof", "--cpu-prof-dir", profileDir] : [];
  const args = ["-p", "go", "--model", "replay:replay.json", "--max-steps", String(STEPS + 1)];
  const child = spawn(
    process.execPath,
    [...nodeArgs, cli, ...args, "--output-format", "stream-json"],
    {
      cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, ACAI_HOME: acaiHome },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const starts: number[] = [];
  const cpu: number[] = [];
  let last = 0;
  let lastCpu = 0;
  for await (const line of createInterface({ input: child.stdout })) {
    if (line.startsWith('{"type":"step_start"')) {
      starts.push(performance.now());
      cpu.push(cpuMs(child.pid));
    } else if (line.startsWith('{"type":"turn_end"')) {
      last = performance.now();
      lastCpu = cpuMs(child.pid);
    }
  }
  const code = await new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once("exit", resolve),
  );
  if (code !== 0 || starts.length !== STEPS + 1) {
    throw new Error(`acai -p exited ${code} after ${starts.length} of ${STEPS + 1} steps`);
  }
  return {
    wall: starts.map((start, i) => (starts[i + 1] ?? last) - start).slice(0, STEPS),
    cpu: cpu.map((start, i) => (cpu[i + 1] ?? lastCpu) - start).slice(0, STEPS),
  };
}

/** CPU time (user + system) the process has used so far, in ms (/proc: clock ticks of 10 ms). */
function cpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const fmt = (ms: number): string => `${ms.toFixed(2)} ms`;

const root = await mkdtemp(path.join(os.tmpdir(), "acai-bench-long-session-"));
try {
  console.log(`long session: ${STEPS} steps, ${RUNS} runs, node ${process.version}`);
  const builds = OTHER ? [["other build", OTHER] as const] : [];
  const { values, loads } = await threeRuns(async (run) => {
    for (const [label, cli] of builds) {
      const { wall } = await session(root, `${label}-${run}`.replace(/ /g, "-"), cli);
      const ratio = mean(wall.slice(-WINDOW)) / mean(wall.slice(0, WINDOW));
      console.log(
        `  ${label}: last ${WINDOW} / first ${WINDOW} ${ratio.toFixed(3)}×; mean per tenth: ${Array.from({ length: 10 }, (_, d) => mean(wall.slice((d * STEPS) / 10, ((d + 1) * STEPS) / 10)).toFixed(1)).join(" ")} ms`,
      );
    }
    const { wall, cpu } = await session(root, `run-${run}`, THIS);
    const window = (xs: number[], end: boolean) => (end ? xs.slice(-WINDOW) : xs.slice(0, WINDOW));
    const tenths = Array.from({ length: 10 }, (_, d) =>
      mean(wall.slice((d * STEPS) / 10, ((d + 1) * STEPS) / 10)).toFixed(1),
    );
    const [first, lastSteps] = [window(wall, false), window(wall, true)];
    const [cpuFirst, cpuLast] = [mean(window(cpu, false)), mean(window(cpu, true))];
    console.log(
      `run ${run + 1}: steps 1–${WINDOW} mean ${fmt(mean(first))} (median ${fmt(median(first))}, CPU ${fmt(cpuFirst)}), steps ${STEPS - WINDOW + 1}–${STEPS} mean ${fmt(mean(lastSteps))} (median ${fmt(median(lastSteps))}, CPU ${fmt(cpuLast)}); mean per tenth of the session: ${tenths.join(" ")} ms`,
    );
    const warm = mean(wall.slice(WARM, WARM + WINDOW));
    return {
      ratio: mean(lastSteps) / mean(first),
      warmRatio: mean(lastSteps) / warm,
      cpuRatio: cpuLast / cpuFirst,
      first: mean(first),
      last: mean(lastSteps),
    };
  }, RUNS);
  const ratios = values.map((v) => v.ratio);
  const pick = values.find((v) => v.ratio === median(ratios)) ?? values[0]!;
  const what = `steps ${STEPS - WINDOW + 1}–${STEPS} vs 1–${WINDOW} of a ${STEPS}-step session`;
  printResult({
    name: `${what} (mean wall time per step)`,
    ratios,
    loads,
    target: { op: "≤", value: 1.2 },
    detail: `a run near the median: first ${fmt(pick.first)}, last ${fmt(pick.last)} per step`,
  });
  printResult({
    name: `steps ${STEPS - WINDOW + 1}–${STEPS} vs ${WARM + 1}–${WARM + WINDOW} (warm) (mean wall time per step)`,
    ratios: values.map((v) => v.warmRatio),
    loads,
    target: { op: "≤", value: 1.2 },
    detail: "the same without the start's JIT warm-up in the baseline",
  });
  printResult({
    name: `${what} (acai's CPU time per step)`,
    ratios: values.map((v) => v.cpuRatio),
    loads,
    target: { op: "≤", value: 1.2 },
    detail: "less sensitive to the machine's load than wall time",
  });
} finally {
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
}
