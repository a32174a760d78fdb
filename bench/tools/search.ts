/**
 * Glob and Grep on a generated 10,000-file tree (plus a node_modules that must be skipped).
 * Prints each time next to GNU find/grep doing the same search in the same run.
 * Run: npx tsc -p tsconfig.json && node bench/tools/search.ts
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runProcess } from "../../dist/process/runner.js";
import { globTool } from "../../dist/tools/builtin/glob.js";
import { grepTool } from "../../dist/tools/builtin/grep.js";

const root = await mkdtemp(join(tmpdir(), "acai-bench-search-"));
try {
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
  const context = { cwd: root, signal: new AbortController().signal, runner: runProcess, env: {} };
  const average = async (fn: () => Promise<unknown>): Promise<number> => {
    await fn();
    const runs = 5;
    const start = performance.now();
    for (let i = 0; i < runs; i++) await fn();
    return (performance.now() - start) / runs;
  };
  // Baseline in the same run: the same search by GNU find/grep, spawned from Node.
  const shell = (command: string) => () =>
    runProcess({
      command: "/bin/sh",
      args: ["-c", command],
      cwd: root,
      env: { PATH: "/usr/bin:/bin" },
    });
  const time = async (name: string, fn: () => Promise<unknown>, baseline: string) => {
    const ours = await average(fn);
    const theirs = await average(shell(baseline));
    console.log(
      `${name.padEnd(34)} ${ours.toFixed(1)} ms   ${baseline.padEnd(62)} ${theirs.toFixed(1)} ms   ratio ${(ours / theirs).toFixed(2)}`,
    );
  };
  const glob = globTool();
  const grep = grepTool();
  await time(
    "Glob **/*.ts",
    () => glob.execute({ pattern: "**/*.ts" }, context),
    "find . -name node_modules -prune -o -name '*.ts' -print",
  );
  await time(
    "Grep TARGET (files_with_matches)",
    () => grep.execute({ pattern: "TARGET" }, context),
    "grep -rl --exclude-dir=node_modules --exclude-dir=.git TARGET .",
  );
  await time(
    "Grep v7 (content)",
    () => grep.execute({ pattern: "v7 =", output_mode: "content" }, context),
    "grep -rn --exclude-dir=node_modules --exclude-dir=.git 'v7 =' .",
  );
} finally {
  await rm(root, { recursive: true, force: true });
}
