import { realpathSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HookEventName } from "../../../source/hooks/contract/definition.js";
import { runHookOnce } from "../../../source/hooks/run/run.js";
import {
  makeHook,
  runner,
  scriptHook,
  survivorsOf,
  type TempDir,
  tempDir,
  uniqueMarker,
  writeScript,
} from "../support.js";

let dir: TempDir;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await dir.cleanup();
});

const payload = { event: "before_tool", tool_name: "Bash", tool_input: { command: "ls" } };

async function run(body: string, event: HookEventName = "before_tool", extra = {}) {
  const path = await writeScript(dir.path, `hook-${Math.random().toString(36).slice(2)}`, body);
  return runHookOnce(scriptHook(path, extra), event, payload, {
    runner,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    projectDir: dir.path,
    sessionId: "s1",
  });
}

describe("runHookOnce with real scripts", () => {
  it("exit 0 without output continues, and the payload arrives on stdin", async () => {
    const out = join(dir.path, "stdin.json");
    const record = await run(`cat > ${out}`);
    expect(record.decision).toEqual({ action: "continue" });
    expect(record.exitCode).toBe(0);
    expect(JSON.parse(await readFile(out, "utf8"))).toEqual(payload);
    expect(record.stdin).toBe(`${JSON.stringify(payload)}\n`);
  });

  it("exit 0 with a JSON answer is decoded", async () => {
    const record = await run(`cat >/dev/null; echo '  {"action":"block","reason":"nope"}'`);
    expect(record.decision).toEqual({ action: "block", reason: "nope" });
  });

  it("exit 0 with a Claude Code answer is decoded", async () => {
    const record = await run(
      `echo '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no rm"}}'`,
    );
    expect(record.decision).toEqual({ action: "block", reason: "no rm" });
  });

  it("plain stdout is context on user_prompt and only a log note elsewhere", async () => {
    const prompt = await run("echo 'the date is today'", "user_prompt");
    expect(prompt.decision).toEqual({ action: "continue", context: "the date is today" });
    const tool = await run("echo 'the date is today'", "before_tool");
    expect(tool.decision).toEqual({ action: "continue", log: "the date is today" });
  });

  it("garbage that starts with { is a failure", async () => {
    const record = await run("echo '{ this is not json'");
    expect(record.decision.action).toBe("failed");
    if (record.decision.action === "failed") expect(record.decision.error).toMatch(/invalid JSON/);
  });

  it("exit 2 blocks with stderr as the reason", async () => {
    const record = await run("echo 'destructive command' >&2; exit 2");
    expect(record.decision).toEqual({
      action: "block",
      reason: "destructive command",
      byExitCode: true,
    });
  });

  it("exit 2 with a JSON answer takes its reason", async () => {
    const record = await run(`echo '{"reason":"from json"}'; echo 'from stderr' >&2; exit 2`);
    expect(record.decision).toEqual({ action: "block", reason: "from json" });
  });

  it("another exit code fails, naming the code and the first stderr line", async () => {
    const record = await run("echo 'first problem' >&2; echo 'second' >&2; exit 7");
    expect(record.decision).toEqual({ action: "failed", error: "exited with 7: first problem" });
  });

  it("a crash reports the line that states the error, not the stack trace around it", async () => {
    const record = await run(
      "printf 'node:internal/modules/esm/get_format:189\\n  throw err;\\n\\nTypeError [ERR_UNKNOWN_FILE_EXTENSION]: Unknown file extension \".ts\"\\n    at x (node:internal/y:1:2)\\n' >&2; exit 1",
    );
    expect(record.decision).toEqual({
      action: "failed",
      error: 'exited with 1: TypeError [ERR_UNKNOWN_FILE_EXTENSION]: Unknown file extension ".ts"',
    });
  });

  it("a hook that hangs is killed at its timeout, with its grandchild", async () => {
    const marker = uniqueMarker();
    const started = performance.now();
    const record = await run(`bash -c 'sleep 30; : ${marker}' & sleep 30`, "before_tool", {
      timeoutMs: 300,
    });
    expect(record.decision).toEqual({ action: "failed", error: "timed out after 300 ms" });
    expect(record.timedOut).toBe(true);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(await survivorsOf(marker)).toEqual([]);
  });

  it("a grandchild holding stdout does not keep acai waiting, and does not survive", async () => {
    const marker = uniqueMarker();
    const started = performance.now();
    const record = await run(`bash -c 'sleep 30; : ${marker}' & echo '{"action":"continue"}'`);
    expect(record.decision).toEqual({ action: "continue" });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(await survivorsOf(marker)).toEqual([]);
  });

  it("a hook that prints 50 MB is killed and failed", async () => {
    const record = await run("head -c 52428800 /dev/zero | tr '\\0' 'x'; echo done >&2");
    expect(record.decision).toEqual({ action: "failed", error: "killed: output passed 1 MiB" });
    expect(record.outputLimit).toBe(true);
    expect(record.stdout.length).toBeLessThanOrEqual(1024 * 1024);
  });

  it("a hook that never reads a large stdin does not disturb acai", async () => {
    const path = await writeScript(dir.path, "no-read", "exit 0");
    const big = { ...payload, tool_input: { content: "y".repeat(2_000_000) } };
    const record = await runHookOnce(scriptHook(path), "before_tool", big, {
      runner,
      env: {},
      projectDir: dir.path,
      sessionId: "s1",
    });
    expect(record.decision).toEqual({ action: "continue" });
  });

  it("invalid UTF-8 does not disturb acai", async () => {
    const plain = await run("printf 'ok \\377\\376 bytes\\n'", "user_prompt");
    expect(plain.decision.action).toBe("continue");
    expect(plain.decision.context).toContain("ok ");
    const json = await run(`printf '{"action":"block","reason":"bad \\377 byte"}'`);
    expect(json.decision.action).toBe("block");
    expect(json.decision.reason).toMatch(/^bad .* byte$/);
  });

  it("a missing executable is a failure that names it", async () => {
    const record = await runHookOnce(
      makeHook({ launch: { command: join(dir.path, "missing"), args: [], viaShell: false } }),
      "before_tool",
      payload,
      { runner, env: {}, projectDir: dir.path, sessionId: "s1" },
    );
    expect(record.decision.action).toBe("failed");
    if (record.decision.action === "failed") expect(record.decision.error).toMatch(/missing/);
  });

  it("settings hooks run through /bin/sh -c, in the project dir, with acai's variables", async () => {
    const record = await runHookOnce(
      makeHook({
        sourceKind: "settings",
        launch: {
          command:
            'echo "$(pwd)|$ACAI_HOOK_EVENT|$ACAI_SESSION_ID|$HOOK_ACTION|$CLAUDE_PROJECT_DIR|[$GITHUB_TOKEN]|$KEPT_TOKEN" >&2; exit 3',
          args: [],
          viaShell: true,
        },
        env: ["KEPT_TOKEN"],
      }),
      "after_tool",
      payload,
      {
        runner,
        env: {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          GITHUB_TOKEN: "secret",
          KEPT_TOKEN: "kept",
        },
        projectDir: dir.path,
        sessionId: "sess-9",
      },
    );
    expect(record.command).toBe("/bin/sh");
    expect(record.stderr.trim()).toBe(`${dir.path}|after_tool|sess-9|execute|${dir.path}|[]|kept`);
  });

  describe("a settings line without shell syntax runs as its program, without /bin/sh (decision 0075)", () => {
    const settingsHook = (command: string) =>
      makeHook({ sourceKind: "settings", launch: { command, args: [], viaShell: true } });
    const options = (env: Record<string, string> = {}) => ({
      runner,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
      projectDir: dir.path,
      sessionId: "s1",
    });

    it("its parent is not a shell, its words and acai's variables arrive, and PWD is set as the shell sets it", async () => {
      await writeScript(
        dir.path,
        "who.sh",
        'echo "parent=$(cat /proc/$PPID/comm)|$0|$1|$2|pwd=$PWD" >&2; cat >/dev/null; exit 2',
      );
      const hook = settingsHook(`bash "$CLAUDE_PROJECT_DIR"/who.sh 'one two' x=1`);
      const record = await runHookOnce(hook, "before_tool", payload, options({ PWD: "/" }));
      expect(record.command).toBe("bash");
      expect(record.args).toEqual([join(dir.path, "who.sh"), "one two", "x=1"]);
      const line = record.stderr.trim();
      expect(line).not.toMatch(/^parent=(sh|dash|bash)\|/);
      expect(line.slice(line.indexOf("|"))).toBe(
        `|${join(dir.path, "who.sh")}|one two|x=1|pwd=${realpathSync(dir.path)}`,
      );
      // exit 2 blocks, as through the shell
      expect(record.decision.action).toBe("block");
    });

    it("the same line with shell syntax still runs through /bin/sh -c", async () => {
      await writeScript(dir.path, "who.sh", 'echo "parent=$(cat /proc/$PPID/comm)" >&2');
      const record = await runHookOnce(
        settingsHook(`bash "$CLAUDE_PROJECT_DIR"/who.sh; exit $?`),
        "before_tool",
        payload,
        options(),
      );
      expect(record.command).toBe("/bin/sh");
      expect(record.stderr.trim()).toMatch(/^parent=(sh|dash|bash)$/);
    });

    it("a program that is not on PATH fails, naming it", async () => {
      const record = await runHookOnce(
        settingsHook("no-such-hook-program-8f3 --flag"),
        "before_tool",
        payload,
        options(),
      );
      expect(record.decision.action).toBe("failed");
      if (record.decision.action === "failed") {
        expect(record.decision.error).toContain("no-such-hook-program-8f3");
      }
    });

    it("a file without a #! line is run by /bin/sh, as the shell would", async () => {
      const plain = join(dir.path, "plain");
      await writeFile(plain, 'echo "from plain $1" >&2\n', { mode: 0o755 });
      const record = await runHookOnce(
        settingsHook(`${plain} ok`),
        "before_tool",
        payload,
        options(),
      );
      expect(record.command).toBe(plain);
      expect(record.stderr.trim()).toBe("from plain ok");
      expect(record.exitCode).toBe(0);
    });
  });

  it("an abort kills the hook at once", async () => {
    const marker = uniqueMarker();
    const path = await writeScript(dir.path, "hang", `bash -c 'sleep 30; : ${marker}' & sleep 30`);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    const record = await runHookOnce(scriptHook(path), "before_tool", payload, {
      runner,
      env: {},
      projectDir: dir.path,
      sessionId: "s1",
      signal: controller.signal,
    });
    expect(record.aborted).toBe(true);
    expect(record.decision).toEqual({ action: "failed", error: "aborted" });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(await survivorsOf(marker)).toEqual([]);
  });
});
