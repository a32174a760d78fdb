/**
 * Glob and Grep on a generated 10,000-file tree (plus a node_modules that must be skipped),
 * first without a .gitignore, then with one that ignores a 2,000-file dist/ (and a few
 * rules that match nothing, so every file is tested against them).
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
      `  ${name.padEnd(32)} ${ours.toFixed(1)} ms   ${baseline.padEnd(62)} ${theirs.toFixed(1)} ms   ratio ${(ours / theirs).toFixed(2)}`,
    );
  };
  const glob = globTool();
  const grep = grepTool();
  const runAll = async (label: string, skip: string[]) => {
    console.log(label);
    const prune = skip.map((d) => `-name ${d}`).join(" -o ");
    const exclude = skip.map((d) => `--exclude-dir=${d}`).join(" ");
    await time(
      "Glob **/*.ts",
      () => glob.execute({ pattern: "**/*.ts" }, context),
      `find . \\( ${prune} \\) -prune -o -name '*.ts' -print`,
    );
    await time(
      "Grep TARGET (files_with_matches)",
      () => grep.execute({ pattern: "TARGET" }, context),
      `grep -rl ${exclude} TARGET .`,
    );
    await time(
      "Grep v7 (content)",
      () => grep.execute({ pattern: "v7 =", output_mode: "content" }, context),
      `grep -rn ${exclude} 'v7 =' .`,
    );
  };
  await runAll("no .gitignore:", ["node_modules", ".git"]);
  await mkdir(join(root, "dist"), { recursive: true });
  await Promise.all(
    Array.from({ length: 2000 }, (_, f) =>
      writeFile(join(root, "dist", `d${f}.ts`), "export const v7 = 7; // TARGET\n"),
    ),
  );
  await writeFile(join(root, ".gitignore"), "dist/\n*.log\ncoverage/\n/build\n*.tmp\n");
  await runAll(".gitignore with dist/ (2,000 files) and 4 more rules:", [
    "node_modules",
    ".git",
    "dist",
  ]);
} finally {
  await rm(root, { recursive: true, force: true });
}
