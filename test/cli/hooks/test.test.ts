import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AcaiDirs, acai, projectHook, tempProject, userHook } from "../commands/helpers.js";

let dirs: AcaiDirs | undefined;
afterEach(async () => {
  await dirs?.cleanup();
  dirs = undefined;
});

interface Report {
  hook: { name: string };
  untrusted: boolean;
  notes: string[];
  stdin: string;
  exit_code: number | null;
  timed_out: boolean;
  duration_ms: number;
  stdout: string;
  stderr: string;
  decision: { action: string; reason?: string; error?: string; inputPatch?: unknown };
  effective: { action: string; reason?: string };
  new_input?: unknown;
  would: string;
}

function survivors(marker: string): string[] {
  const ps = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" });
  return ps.split("\n").filter((line) => line.includes(marker) && !line.includes("ps -eo"));
}

describe("acai hooks test", () => {
  it("reports a block (exit 2) with the exact stdin, stderr and what acai would do", async () => {
    dirs = await tempProject();
    await userHook(
      dirs,
      "no-rm",
      { name: "no-rm", events: ["before_tool"], matcher: { tool: "Bash" } },
      'input=$(cat); case "$input" in *"rm -rf"*) echo "no rm -rf here" >&2; exit 2;; esac; exit 0',
    );
    const blocked = await acai(dirs, [
      "hooks",
      "test",
      "no-rm",
      "--event",
      "PreToolUse",
      "--input",
      '{"tool_input":{"command":"rm -rf build"}}',
    ]);
    expect(blocked.exitCode).toBe(2);
    expect(blocked.stdout).toContain("Testing no-rm (user executable");
    expect(blocked.stdout).toContain('"tool_input":{"command":"rm -rf build"}');
    expect(blocked.stdout).toContain('"hook_event_name":"PreToolUse"');
    expect(blocked.stdout).toMatch(/exit code: 2 · \d+ ms/);
    expect(blocked.stdout).toContain("stderr:\n  no rm -rf here");
    expect(blocked.stdout).toContain("decision: block\n  reason:  no rm -rf here");
    expect(blocked.stdout).toContain(
      "acai would: not run the tool; the reason goes to the model as the tool result.",
    );
    expect(blocked.stdout).not.toContain("not trusted");

    const allowed = await acai(dirs, [
      "hooks",
      "test",
      "no-rm",
      "--event",
      "before_tool",
      "--json",
    ]);
    expect(allowed.exitCode).toBe(0);
    const report = JSON.parse(allowed.stdout) as Report;
    expect(report.decision).toEqual({ action: "continue" });
    // The sample payload is realistic and complete.
    const stdin = JSON.parse(report.stdin);
    expect(stdin).toMatchObject({
      event: "before_tool",
      tool_name: "Bash",
      tool_input: { command: "npm test" },
      cwd: dirs.cwd,
    });
    expect(typeof stdin.session_id).toBe("string");
    expect(typeof stdin.timestamp).toBe("string");
  });

  it("reports a modification, validated against the tool's schema", async () => {
    dirs = await tempProject();
    await userHook(
      dirs,
      "cap",
      { name: "cap", events: ["before_tool"], matcher: { tool: "Bash" } },
      `cat >/dev/null; echo '{"action":"modify","input_patch":{"timeout":30000}}'`,
    );
    await userHook(
      dirs,
      "broken-patch",
      { name: "broken-patch", events: ["before_tool"], failure: "closed" },
      `cat >/dev/null; echo '{"action":"modify","input_patch":{"timeout":"soon"}}'`,
    );
    const ok = JSON.parse(
      (await acai(dirs, ["hooks", "test", "cap", "--event", "before_tool", "--json"])).stdout,
    ) as Report;
    expect(ok.decision).toEqual({ action: "modify", inputPatch: { timeout: 30000 } });
    expect(ok.new_input).toEqual({
      command: "npm test",
      description: "Run the test suite",
      timeout: 30000,
    });
    expect(ok.would).toBe("go on with the modification");

    const bad = await acai(dirs, ["hooks", "test", "broken-patch", "--event", "before_tool"]);
    expect(bad.exitCode).toBe(1);
    expect(bad.stdout).toContain("decision: failed");
    expect(bad.stdout).toMatch(/its new input for Bash is invalid/);
    expect(bad.stdout).toContain('failure policy "closed": acai would block');
  });

  it("reports failures: a crash, garbage JSON, and a timeout that kills the hook's children", async () => {
    dirs = await tempProject();
    const marker = `acai-toolkit-timeout-${process.pid}-${Date.now()}`;
    await userHook(
      dirs,
      "crash",
      { name: "crash", events: ["user_prompt"] },
      "echo 'Traceback: kaboom' >&2; exit 3",
    );
    await userHook(
      dirs,
      "garbage",
      { name: "garbage", events: ["user_prompt"] },
      "echo '{not json'",
    );
    await userHook(
      dirs,
      "sleepy",
      { name: "sleepy", events: ["user_prompt"], timeout_ms: 300 },
      `bash -c 'sleep 30 # ${marker}' & sleep 30 # ${marker}`,
    );
    const crash = await acai(dirs, ["hooks", "test", "crash", "--event", "user_prompt"]);
    expect(crash.exitCode).toBe(1);
    expect(crash.stdout).toContain("exit code: 3");
    expect(crash.stdout).toContain("error:   exited with 3: Traceback: kaboom");
    expect(crash.stdout).toContain('failure policy "open": acai would warn and go on.');

    const garbage = await acai(dirs, ["hooks", "test", "garbage", "--event", "user_prompt"]);
    expect(garbage.exitCode).toBe(1);
    expect(garbage.stdout).toMatch(/printed invalid JSON on stdout/);

    const started = Date.now();
    const sleepy = await acai(dirs, [
      "hooks",
      "test",
      "sleepy",
      "--event",
      "user_prompt",
      "--json",
    ]);
    expect(Date.now() - started).toBeLessThan(8000);
    expect(sleepy.exitCode).toBe(1);
    const report = JSON.parse(sleepy.stdout) as Report;
    expect(report.timed_out).toBe(true);
    expect(report.decision).toMatchObject({ action: "failed", error: "timed out after 300 ms" });
    expect(survivors(marker)).toEqual([]);
  });

  it("runs an untrusted project hook only on request and says so; --input @file; unknown names", async () => {
    dirs = await tempProject();
    await projectHook(
      dirs,
      "gate",
      { name: "gate", events: ["before_stop"] },
      `input=$(cat); case "$input" in *'"stop_hook_active":true'*) exit 0;; esac; echo '{"decision":"block","reason":"run the tests first"}'`,
    );
    await writeFile(path.join(dirs.root, "input.json"), JSON.stringify({ stop_hook_active: true }));
    const blocked = await acai(dirs, ["hooks", "test", "gate", "--event", "Stop"]);
    expect(blocked.exitCode).toBe(2);
    expect(blocked.stdout).toContain(
      "this project's hooks are not trusted; running this one hook anyway because you asked",
    );
    expect(blocked.stdout).toContain("reason:  run the tests first");
    expect(blocked.stdout).toContain(
      "acai would: not stop: the reason becomes a user message and the agent goes on.",
    );
    const reentry = await acai(dirs, [
      "hooks",
      "test",
      "gate",
      "--event",
      "before_stop",
      "--input",
      `@${path.join(dirs.root, "input.json")}`,
    ]);
    expect(reentry.exitCode).toBe(0);
    // Still untrusted: testing does not record trust.
    const replay = path.join(dirs.root, "replay.json");
    await writeFile(replay, JSON.stringify({ turns: [{ text: "hello" }] }));
    const run = await acai(dirs, ["-p", "hi", "--yes", "--model", `replay:${replay}`]);
    expect(run.exitCode).toBe(4);

    const unknown = await acai(dirs, ["hooks", "test", "nope", "--event", "before_tool"]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('no hook named "nope"');
    const badInput = await acai(dirs, [
      "hooks",
      "test",
      "gate",
      "--event",
      "before_stop",
      "--input",
      "{oops",
    ]);
    expect(badInput.exitCode).toBe(2);
    expect(badInput.stderr).toContain("--input is not valid JSON");
  });
});
