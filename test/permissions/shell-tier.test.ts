/**
 * The Bash grammar kept in V8's baseline WebAssembly compiler (decision 0072). A fresh
 * Node, told by V8 flags to tier up at once (on the calling thread) and to print each
 * WebAssembly function it compiles, judges 100 Bash lines through acai's built parser.
 *
 * Without `baselineOnly` the same run compiles 11 of the grammar's functions again with
 * TurboFan, the lexer's taking seconds of CPU (checked by hand when this was written: too
 * slow for the suite). The second test runs the built `acai -p` the same way: the CLI asks for it.
 */
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { CLI_PATH, childEnv, makeAcaiDirs, REPO_ROOT } from "../support/run-acai.js";

const run = promisify(execFile);

/** What V8 printed while a fresh Node judged 100 Bash lines, and the first line's commands. */
async function judgeLines(baselineOnly: boolean): Promise<{ trace: string; first: string[] }> {
  const built = path.join(REPO_ROOT, "dist", "permissions", "shell", "parser.js");
  const script = `
    const { loadShellAnalyzer } = await import(${JSON.stringify(built)});
    const shell = await loadShellAnalyzer({ baselineOnly: ${baselineOnly} });
    const lines = Array.from({ length: 100 }, (_, i) =>
      \`echo hi\${i} && ls -la | grep x\${i} > out\${i}.txt; for f in *.ts; do cat "$f"; done\`);
    const analyses = lines.map((line) => shell.analyze(line));
    console.log(JSON.stringify(analyses[0].commands.map((command) => command.text)));`;
  const { stdout, stderr } = await run(
    process.execPath,
    ["--wasm-sync-tier-up", "--trace-wasm-compilation-times", "--input-type=module", "-e", script],
    { env: { PATH: process.env.PATH ?? "" }, maxBuffer: 16 * 1024 * 1024 },
  );
  const lines = stdout.trim().split("\n");
  return {
    trace: `${lines.slice(0, -1).join("\n")}\n${stderr}`,
    first: JSON.parse(lines.at(-1) ?? "[]"),
  };
}

describe("the Bash grammar in V8's baseline compiler", () => {
  it("asked for baselineOnly, no function of it is compiled again by TurboFan, and it parses as before", async () => {
    const { trace, first } = await judgeLines(true);
    // V8 did compile the grammar (lazily, with Liftoff), so the trace is there to read...
    expect(trace.match(/using Liftoff/g)?.length ?? 0).toBeGreaterThan(10);
    // ...and nothing of it with the optimizing compiler, and V8 knew the flag.
    expect(trace).not.toMatch(/using TurboFan/);
    expect(trace).not.toMatch(/unrecognized flag/);
    expect(first).toEqual(["echo hi0", "ls -la", "grep x0", 'cat "$f"']);
  });

  it("acai -p keeps it so: a session of 10 distinct Bash calls compiles none of it with TurboFan", async () => {
    const dirs = await makeAcaiDirs("acai-shell-tier-");
    try {
      const replay = path.join(dirs.root, "bash.json");
      const turns = Array.from({ length: 10 }, (_, i) => ({
        text: `step ${i}`,
        tool_calls: [
          {
            name: "Bash",
            input: {
              command: `echo step-${i} && ls -la | grep -c . > /dev/null; for f in a${i} b${i}; do echo "$f"; done`,
            },
          },
        ],
      }));
      await writeFile(replay, JSON.stringify({ turns: [...turns, { text: "all done" }] }));
      const args = ["-p", "go", "--model", `replay:${replay}`, "--allowedTools", "Bash"];
      const { stdout, stderr } = await run(
        process.execPath,
        ["--wasm-sync-tier-up", "--trace-wasm-compilation-times", CLI_PATH, ...args],
        { cwd: dirs.cwd, env: childEnv({ dirs, args }), maxBuffer: 16 * 1024 * 1024 },
      );
      expect(stdout).toContain("all done");
      expect(`${stdout}${stderr}`.match(/using Liftoff/g)?.length ?? 0).toBeGreaterThan(10);
      expect(`${stdout}${stderr}`).not.toMatch(/using TurboFan/);
    } finally {
      await dirs.cleanup();
    }
  });
});
