/**
 * Glob and Grep on a generated 10,000-file tree (plus a node_modules that must be skipped),
 * first without a .gitignore, then with one that ignores a 2,000-file dist/ (and a few
 * rules that match nothing, so every file is tested against them), against GNU find/grep
 * doing the same search (spawned from Node through the process runner, as a shell command).
 *
 * Three runs per tree; in each, every search alternates call by call with its find/grep
 * (`--pairs N` pairs, default 5, after one warm-up of each), and the run's ratio is the
 * median of ours over the median of theirs. One RESULT line per search and tree, no target
 * (bench/README: ratios printed). Every call has a 60 s deadline, after which the bench
 * stops saying which search did not end.
 *
 * Run: npm run build && node bench/tools/search.ts [--pairs N] [--quick]
 * --quick: 2 pairs a run (a check that it runs).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runProcess } from "../../dist/process/runner.js";
import { globTool } from "../../dist/tools/builtin/glob.js";
import { grepTool } from "../../dist/tools/builtin/grep.js";
import type { ToolResult } from "../../dist/tools/types.js";
import { median, medianRunIndex, numberArg, printResult, threeRuns } from "../support/result.ts";

const PAIRS = numberArg("pairs", process.argv.includes("--quick") ? 2 : 5);
const DEADLINE_MS = 60_000;

interface Search {
  name: string;
  ours: () => Promise<unknown>;
  /** The same search by find/grep (a shell command run in the tree). */
  baseline: string;
  /** The baseline's name in the RESULT line. */
  tool: string;
}

async function makeTree(root: string): Promise<void> {
  for (let d = 0; d < 100; d++) {
    await mkdir(join(root, `pkg${d}`, "src"), { recursive: true });
    await Promise.all(
      Array.from({ length: 100 }, (_, f) =>
        writeFile(
          join(root, `pkg${d}`, "src", `file${f}.ts`),
          `export const v${f} = ${f};\n`.repeat(40) + (f === 7 ? "TARGET\n" : ""),
        ),
      ),
    );
  }
  await mkdir(join(root, "node_modules", "dep"), { recursive: true });
  await Promise.all(
    Array.from({ length: 5000 }, (_, f) =>
      writeFile(join(root, "node_modules", "dep", `n${f}.js`), "TARGET\n"),
    ),
  );
}

/** A 2,000-file dist/ and a .gitignore that ignores it, with four rules that match nothing. */
async function addIgnoredDist(root: string): Promise<void> {
  await mkdir(join(root, "dist"), { recursive: true });
  await Promise.all(
    Array.from({ length: 2000 }, (_, f) =>
      writeFile(join(root, "dist", `d${f}.ts`), "export const v7 = 7; // TARGET\n"),
    ),
  );
  await writeFile(join(root, ".gitignore"), "dist/\n*.log\ncoverage/\n/build\n*.tmp\n");
}

/** Our tool's call, within the deadline; an error result stops the bench. */
async function tool(name: string, call: (signal: AbortSignal) => Promise<ToolResult>) {
  const result = await call(AbortSignal.timeout(DEADLINE_MS));
  if (!result.ok) throw new Error(`${name} failed (deadline ${DEADLINE_MS} ms): ${result.error}`);
}

function searches(root: string, skip: string[]): Search[] {
  const context = (signal: AbortSignal) => ({ cwd: root, signal, runner: runProcess, env: {} });
  const glob = globTool();
  const grep = grepTool();
  const prune = skip.map((d) => `-name ${d}`).join(" -o ");
  const exclude = skip.map((d) => `--exclude-dir=${d}`).join(" ");
  return [
    {
      name: "Glob **/*.ts",
      ours: () => tool("Glob", (s) => glob.execute({ pattern: "**/*.ts" }, context(s))),
      baseline: `find . \\( ${prune} \\) -prune -o -name '*.ts' -print`,
      tool: "find",
    },
    {
      name: "Grep TARGET (files_with_matches)",
      ours: () => tool("Grep", (s) => grep.execute({ pattern: "TARGET" }, context(s))),
      baseline: `grep -rl ${exclude} TARGET .`,
      tool: "grep -rl",
    },
    {
      name: "Grep v7 (content)",
      ours: () =>
        tool("Grep", (s) => grep.execute({ pattern: "v7 =", output_mode: "content" }, context(s))),
      baseline: `grep -rn ${exclude} 'v7 =' .`,
      tool: "grep -rn",
    },
  ];
}

/** The same search by GNU find/grep, spawned from Node; a failure or a timeout stops the bench. */
async function shell(root: string, command: string): Promise<void> {
  const result = await runProcess({
    command: "/bin/sh",
    args: ["-c", command],
    cwd: root,
    env: { PATH: "/usr/bin:/bin" },
    timeoutMs: DEADLINE_MS,
  });
  if (result.timedOut) throw new Error(`\`${command}\` did not end within ${DEADLINE_MS} ms`);
  if (result.exitCode !== 0) throw new Error(`\`${command}\` exited ${result.exitCode}`);
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** Three runs of each search against its find/grep, call by call; one RESULT line each. */
async function measure(root: string, label: string, skip: string[]): Promise<void> {
  const list = searches(root, skip);
  for (const s of list) {
    await s.ours(); // warm-up: the file-system cache, the code
    await shell(root, s.baseline);
  }
  const { values, loads } = await threeRuns(async (run) => {
    const times = list.map(() => ({ ours: [] as number[], theirs: [] as number[] }));
    for (let i = 0; i < PAIRS; i++) {
      for (const [k, s] of list.entries()) {
        // Who goes first alternates, so a drift falls on both sides alike.
        const oursFirst = (run + i) % 2 === 0;
        if (oursFirst) times[k]!.ours.push(await timed(s.ours));
        times[k]!.theirs.push(await timed(() => shell(root, s.baseline)));
        if (!oursFirst) times[k]!.ours.push(await timed(s.ours));
      }
    }
    return times.map((t) => ({ ours: median(t.ours), theirs: median(t.theirs) }));
  });
  for (const [k, s] of list.entries()) {
    const ratios = values.map((v) => v[k]!.ours / v[k]!.theirs);
    const mid = values[medianRunIndex(ratios)]![k]!;
    printResult({
      name: `${s.name} vs ${s.tool}, ${label}`,
      ratios,
      loads,
      detail: `median run: ours ${mid.ours.toFixed(1)} ms, ${s.tool} ${mid.theirs.toFixed(1)} ms (medians of ${PAIRS} calls each; \`${s.baseline}\`)`,
    });
  }
}

const root = await mkdtemp(join(tmpdir(), "acai-bench-search-"));
try {
  await makeTree(root);
  console.log(
    `tools/search: 10,000 files + 5,000 in node_modules, ${PAIRS} alternating pairs a run, node ${process.version}`,
  );
  await measure(root, "no .gitignore", ["node_modules", ".git"]);
  await addIgnoredDist(root);
  await measure(root, ".gitignore with dist/ (2,000 files) and 4 more rules", [
    "node_modules",
    ".git",
    "dist",
  ]);
} catch (error) {
  console.error(`tools/search: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await rm(root, { recursive: true, force: true });
}
