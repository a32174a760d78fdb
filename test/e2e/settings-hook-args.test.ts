/**
 * `args` on a settings hook (Claude Code's exec form): the command runs as an
 * executable with exactly those arguments and no shell, so shell syntax in an
 * argument is inert text. With `args`, a command that is not an absolute path
 * is a broken hook, named, and not run.
 */
import { chmod, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";

let dirs: AcaiDirs | undefined;
afterEach(async () => {
  await dirs?.cleanup();
  dirs = undefined;
});

const ARGV_GUARD = `#!/bin/sh
cat > /dev/null
echo "exec-form guard saw $# arguments" >&2
for a in "$@"; do printf '[%s]' "$a" >&2; done
exit 2
`;

async function setUp(d: AcaiDirs, hook: object): Promise<string> {
  const guard = path.join(d.acaiHome, "guard.sh");
  await writeFile(guard, ARGV_GUARD);
  await chmod(guard, 0o755);
  const settings = { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [hook] }] } };
  await writeFile(path.join(d.acaiHome, "settings.json"), JSON.stringify(settings));
  await writeFile(
    path.join(d.cwd, "replay.json"),
    JSON.stringify({
      turns: [
        { tool_calls: [{ name: "Bash", input: { command: "echo ran > ran.txt" } }] },
        { text: "done" },
      ],
    }),
  );
  return guard;
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

describe("a settings hook with args", () => {
  it("runs the executable with exactly those arguments, without a shell", async () => {
    const d = await makeAcaiDirs("acai-hook-args-");
    dirs = d;
    const pwned = path.join(d.cwd, "pwned");
    const args = ["two words", `$(touch ${pwned})`, "; touch x", "*"];
    await setUp(d, { type: "command", command: path.join(d.acaiHome, "guard.sh"), args });
    const run = await runAcai({
      args: ["-p", "go", "--model", "replay:replay.json", "--yes"],
      dirs: d,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain("exec-form guard saw 4 arguments");
    expect(run.stderr).toContain(args.map((a) => `[${a}]`).join(""));
    expect(await exists(pwned)).toBe(false);
    expect(await exists(path.join(d.cwd, "ran.txt"))).toBe(false);
  });

  it("with a command that is not an absolute path: a broken hook naming the file, not run", async () => {
    const d = await makeAcaiDirs("acai-hook-args-");
    dirs = d;
    await setUp(d, { type: "command", command: "guard.sh", args: ["a"] });
    const run = await runAcai({
      args: ["-p", "go", "--model", "replay:replay.json", "--yes"],
      dirs: d,
    });
    expect(run.stderr).toContain(path.join(d.acaiHome, "settings.json"));
    expect(run.stderr).toContain('with "args", "command" must be an absolute path');
    expect(run.stderr).not.toContain("exec-form guard saw");
    expect(await exists(path.join(d.cwd, "ran.txt"))).toBe(true);
  });
});

describe("onFailure: block (Claude Code's spelling of failure: closed)", () => {
  it("a hook that fails (exit 1) blocks the tool call; without it the call goes on", async () => {
    const d = await makeAcaiDirs("acai-hook-onfailure-");
    dirs = d;
    const failing = { type: "command", command: "cat > /dev/null; exit 1" };
    await setUp(d, { ...failing, onFailure: "block" });
    const run = await runAcai({
      args: ["-p", "go", "--model", "replay:replay.json", "--yes"],
      dirs: d,
    });
    expect(await exists(path.join(d.cwd, "ran.txt")), run.stderr).toBe(false);
    await setUp(d, failing);
    const open = await runAcai({
      args: ["-p", "go", "--model", "replay:replay.json", "--yes"],
      dirs: d,
    });
    expect(await exists(path.join(d.cwd, "ran.txt")), open.stderr).toBe(true);
  });
});
