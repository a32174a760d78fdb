/**
 * Bash lines judged from a real parse, through `acai -p` (issue 18): what an
 * allow rule is smuggled past, what a deny rule is evaded by, a redirection
 * that writes outside the project, and a repository's `core.fsmonitor`. Each
 * smuggled command would create a marker file; none may exist afterwards.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs, STACK_TRACE, toolResultsSent } from "./helpers.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-shell-parse-e2e-");
  await writeFile(
    path.join(dirs.cwd, "package.json"),
    JSON.stringify({ name: "p", private: true, scripts: { test: "echo TESTS-PASSED" } }),
  );
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

/** Runs one Bash call per command in one `acai -p` session; the tool result of each. */
async function runCommands(
  commands: readonly string[],
  flags: readonly string[],
): Promise<string[]> {
  server = await startFakeOpenAI([
    ...commands.map((command) => ({ toolCalls: [{ name: "Bash", input: { command } }] })),
    { text: "finished" },
  ]);
  const result = await runAcai({
    args: ["-p", "go", ...flags, ...modelArgs("chat", server)],
    dirs,
    baseUrl: server.url,
    timeoutMs: 60_000,
  });
  expect(result.stderr).not.toMatch(STACK_TRACE);
  expect(result.exitCode, result.stderr).toBe(0);
  const requests = server.requests;
  return commands.map((_, i) => toolResultsSent(requests[i + 1]?.body).at(-1) ?? "");
}

const marker = (name: string) => path.join(dirs.cwd, name);

describe("an allow rule is not smuggled past", () => {
  it("Bash(npm test:*) runs npm test, and none of the smuggled touches", async () => {
    const smuggled = [
      "npm test $'\\'' ; touch S1 #'",
      "npm test # '\ntouch S2 #'",
      "npm test # \\\ntouch S3",
      "npm test <<EOF\n'\nEOF\ntouch S4",
      "npm test && $(echo touch) S5",
      "npm test; eval 'touch S6'",
      "bash -c 'npm test; touch S7'",
      "npm test | xargs touch S8",
    ];
    const results = await runCommands(
      ["npm test", ...smuggled],
      ["--allowedTools", "Bash(npm test:*)"],
    );
    expect(results[0]).toContain("TESTS-PASSED");
    smuggled.forEach((_, i) => {
      expect(results[i + 1], smuggled[i]).toContain("Permission denied");
      expect(existsSync(marker(`S${i + 1}`)), smuggled[i]).toBe(false);
    });
    // What could not be judged says why.
    expect(results[5]).toContain("the program is not a fixed word ($(echo touch))");
    expect(results[6]).toContain("eval runs a string as commands");
  }, 90_000);
});

describe("a deny rule is not evaded by spelling", () => {
  it("Bash(touch:*) denies every spelling of touch, even with --yes", async () => {
    const evasions = [
      '"touch" E1',
      "t''ouch E2",
      "\\touch E3",
      "env -i touch E4",
      "command -p touch E5",
      "exec -a y touch E6",
      "time -p touch E7",
      "tou\\\nch E8",
      "/usr/bin/touch E9",
      "nice touch E10",
      "timeout 5 touch E11",
      "setsid touch E12",
      "bash -c 'touch E13'",
      "echo E14 | xargs touch",
      "$(echo touch) E15",
      "$'\\x74ouch' E16",
      "sudo -n touch E17",
    ];
    // The control: --yes runs what no rule denies.
    const results = await runCommands(
      ["echo ok > C.txt", ...evasions],
      ["--yes", "--disallowedTools", "Bash(touch:*)"],
    );
    expect(existsSync(marker("C.txt"))).toBe(true);
    evasions.forEach((command, i) => {
      expect(results[i + 1], command).toContain("Permission denied");
      expect(results[i + 1], command).toContain("Bash(touch:*)");
      expect(existsSync(marker(`E${i + 1}`)), command).toBe(false);
    });
  }, 90_000);
});

describe("a deny rule holds in bypassPermissions against the forms the table did not list", () => {
  it("Bash(touch:*) denies touch after bash -c's own options and through programs that run a command", async () => {
    const evasions = [
      "bash -c -- 'touch B1'",
      "bash -c -e -- 'touch B2'",
      "bash -c -x 'touch B3'",
      "ionice -c3 touch B4",
      "flock L touch B5",
      "taskset 1 touch B6",
      "setpriv --reuid=$(id -u) touch B7",
      "script -qc 'touch B8' /dev/null",
      "flock -c 'echo; touch B9' L",
    ];
    // The control: bypassPermissions runs what no rule denies.
    const results = await runCommands(
      ["echo ok > C.txt", ...evasions],
      ["--permission-mode", "bypassPermissions", "--disallowedTools", "Bash(touch:*)"],
    );
    expect(existsSync(marker("C.txt"))).toBe(true);
    evasions.forEach((command, i) => {
      expect(results[i + 1], command).toContain("Permission denied");
      expect(existsSync(marker(`B${i + 1}`)), command).toBe(false);
    });
  }, 90_000);
});

describe("a redirection is a write", () => {
  it("npm test > ~/.bashrc is asked like a write outside the project (denied in -p); /dev/null and an allowed file run", async () => {
    const bashrc = path.join(dirs.home, ".bashrc");
    const results = await runCommands(
      ["npm test > ~/.bashrc", "npm test > /dev/null 2>&1", "npm test > out.txt"],
      ["--allowedTools", "Bash(npm test:*) Edit(./out.txt)"],
    );
    expect(results[0]).toContain("Permission denied");
    expect(results[0]).toContain(bashrc);
    expect(existsSync(bashrc)).toBe(false);
    expect(results[1]).not.toContain("Permission denied");
    expect(await readFile(marker("out.txt"), "utf8")).toContain("TESTS-PASSED");
  }, 60_000);
});

describe("git run by the Bash tool", () => {
  it("Bash(git status) does not run the repository's core.fsmonitor program", async () => {
    const fired = path.join(dirs.root, "FSMONITOR-RAN");
    const monitor = path.join(dirs.root, "fsmonitor.sh");
    await writeFile(monitor, `#!/bin/sh\ntouch '${fired}'\n`);
    await chmod(monitor, 0o755);
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: dirs.cwd, env: { ...process.env, HOME: dirs.home } });
    git("init", "-q", ".");
    git("add", "package.json");
    git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "init");
    git("config", "core.fsmonitor", monitor);
    // The control: git itself runs it.
    git("status", "--short");
    expect(existsSync(fired)).toBe(true);
    await writeFile(path.join(dirs.cwd, "package.json"), "{}");
    await rm(fired);
    const results = await runCommands(["git status"], ["--allowedTools", "Bash(git status)"]);
    expect(results[0]).toContain("package.json");
    expect(existsSync(fired)).toBe(false);
  }, 60_000);
});
