/**
 * A settings hook whose command line has no shell syntax starts as its
 * program, without `/bin/sh -c` (decision 0075), through the whole session
 * (the OS sandbox's spawner where bwrap runs, else the spawn helper): its
 * parent is not a shell, it gets its words and PWD as the shell would give
 * them, and its exit 2 blocks. The same line with shell syntax still goes
 * through the shell.
 */
import { realpathSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";

let dirs: AcaiDirs | undefined;
afterEach(async () => {
  await dirs?.cleanup();
  dirs = undefined;
});

const WHO = `#!/bin/bash
cat > /dev/null
echo "who: parent=$(cat /proc/$PPID/comm) arg=$1 pwd=$PWD" >&2
exit 2
`;

async function project(command: string): Promise<AcaiDirs> {
  const d = await makeAcaiDirs("acai-direct-command-");
  await mkdir(path.join(d.cwd, ".git"));
  await writeFile(path.join(d.cwd, "who.sh"), WHO);
  await chmod(path.join(d.cwd, "who.sh"), 0o755);
  await writeFile(
    path.join(d.acaiHome, "settings.json"),
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command }] }] },
    }),
  );
  await writeFile(
    path.join(d.cwd, "replay.json"),
    JSON.stringify({
      turns: [{ tool_calls: [{ name: "Bash", input: { command: "echo hi" } }] }, { text: "done" }],
    }),
  );
  return d;
}

async function whoLine(d: AcaiDirs): Promise<string> {
  const run = await runAcai({
    args: ["-p", "go", "--model", "replay:replay.json", "--yes", "--verbose"],
    dirs: d,
  });
  expect(run.exitCode, run.stderr).toBe(0);
  // Its exit 2 blocked the call, with its stderr as the reason.
  const line = /hook who\.sh blocked before_tool: (who: [^\n]*)/.exec(run.stderr)?.[1];
  expect(line, run.stderr).toBeDefined();
  return line ?? "";
}

describe("a settings hook's command line without shell syntax", () => {
  it("runs as its program, with its words and PWD, and its exit 2 blocks", async () => {
    const d = await project(`bash "$CLAUDE_PROJECT_DIR"/who.sh 'two words'`);
    dirs = d;
    const line = await whoLine(d);
    expect(line).not.toMatch(/parent=(sh|dash|bash) /);
    expect(line).toContain(` arg=two words pwd=${realpathSync(d.cwd)}`);
  });

  it("with shell syntax, runs through /bin/sh as before", async () => {
    const d = await project(`bash "$CLAUDE_PROJECT_DIR"/who.sh 'two words'; exit $?`);
    dirs = d;
    const line = await whoLine(d);
    expect(line).toMatch(/parent=(sh|dash) /);
    expect(line).toContain(` arg=two words pwd=${realpathSync(d.cwd)}`);
  });
});
