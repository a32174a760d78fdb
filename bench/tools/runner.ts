/**
 * Compares a bare `/bin/true` through the runner with a raw `spawn` that waits for `close`.
 * Run: npx tsc -p tsconfig.json && node bench/tools/runner.ts [iterations]
 */
import { spawn } from "node:child_process";
import { runProcess } from "../../dist/process/runner.js";

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

async function measure(name: string, fn: () => Promise<void>): Promise<number> {
  for (let i = 0; i < 20; i++) await fn();
  const start = performance.now();
  for (let i = 0; i < iterations; i++) await fn();
  const perRun = (performance.now() - start) / iterations;
  console.log(`${name.padEnd(8)} ${perRun.toFixed(3)} ms/run`);
  return perRun;
}

const rawMs = await measure("raw", raw);
const runnerMs = await measure("runner", viaRunner);
console.log(`ratio    ${(runnerMs / rawMs).toFixed(2)}x`);
