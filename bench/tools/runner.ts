/**
 * Compares a bare `/bin/true` through the runner with a raw `spawn` that waits for `close`,
 * and the runner acai uses (containment: a marker in each child's environment, the
 * watchdog started once) with one without containment.
 * Run: npx tsc -p tsconfig.json && node bench/tools/runner.ts [iterations]
 */
import { spawn } from "node:child_process";
import { createProcessRunner, runProcess } from "../../dist/process/runner.js";
import { median, printResult, threeRuns } from "../support/result.ts";

const iterations = Number(process.argv[2] ?? 200);
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };

function raw(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/true", [], { env, stdio: ["pipe", "pipe", "pipe"] });
    child.stdin.on("error", () => {});
    child.stdin.end("{}");
    child.stdout.resume();
    child.stderr.resume();
    child.on("error", reject);
    child.on("close", () => resolve());
  });
}

async function viaRunner(): Promise<void> {
  await runProcess({ command: "/bin/true", cwd: process.cwd(), env, stdin: "{}" });
}

const bare = createProcessRunner();
async function viaBareRunner(): Promise<void> {
  await bare({ command: "/bin/true", cwd: process.cwd(), env, stdin: "{}" });
}

async function perRun(fn: () => Promise<void>): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < iterations; i++) await fn();
  return (performance.now() - start) / iterations;
}

// Warm up all three (the containment runner starts its watchdog here), then alternate
// rounds so that machine noise falls on each alike; medians of 5 rounds, three runs.
const variants = [
  ["raw", raw],
  ["runner without containment", viaBareRunner],
  ["runner", viaRunner],
] as const;
for (const [, fn] of variants) for (let i = 0; i < 20; i++) await fn();
const { values, loads } = await threeRuns(async () => {
  const rounds: Record<string, number[]> = Object.fromEntries(variants.map(([name]) => [name, []]));
  for (let round = 0; round < 5; round++) {
    for (const [name, fn] of variants) rounds[name]?.push(await perRun(fn));
  }
  return Object.fromEntries(variants.map(([name]) => [name, median(rounds[name] ?? [])]));
});
for (const [name] of variants) {
  console.log(
    `${name.padEnd(28)} ${values.map((v) => (v[name] ?? 0).toFixed(3)).join(", ")} ms/run (three runs)`,
  );
}
printResult({
  name: "process runner vs raw spawn (/bin/true)",
  ratios: values.map((v) => (v.runner ?? 0) / (v.raw ?? 1)),
  loads,
});
printResult({
  name: "process runner with containment vs without",
  ratios: values.map((v) => (v.runner ?? 0) / (v["runner without containment"] ?? 1)),
  loads,
});
