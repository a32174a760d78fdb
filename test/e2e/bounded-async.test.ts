/**
 * Async hooks under load through `acai -p`, as the issue found them: 50 async
 * hooks × 12 tool calls, acai started under `ulimit -n 256`, the user's Bash
 * guard with failure "closed". Before the pool, 600 hooks started at once,
 * spawns failed with EMFILE and the guard failed. Now at most maxAsyncHooks
 * run at once (counted from the hooks' own start/end log), the guard never
 * fails, every Bash call runs, and each of the 600 async runs is accounted
 * for in the audit log: run, dropped because the queue was full (with a
 * warning naming the hook), or not started at session end.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { auditLines, installUserHooks, type UserHook } from "./bounded-support.js";
import { modelArgs, STACK_TRACE } from "./helpers.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

/** The most hooks between an S and its E at once, from the log the hooks append to. */
function peakRunning(log: string): number {
  let running = 0;
  let peak = 0;
  for (const line of log.split("\n")) {
    if (line === "S") running++;
    else if (line === "E") running--;
    peak = Math.max(peak, running);
  }
  return peak;
}

const ASYNC_HOOKS = 50;
const CALLS = 12;

describe("async hooks under load", () => {
  it("run at most maxAsyncHooks at once; the fail-closed guard never starves; drops are said", async () => {
    dirs = await makeAcaiDirs("acai-bounded-async-");
    const log = path.join(dirs.root, "async.log");
    const asyncScript = `#!/bin/sh\ncat >/dev/null\necho S >> '${log}'\nsleep 0.05\necho E >> '${log}'\n`;
    const hooks: UserHook[] = Array.from({ length: ASYNC_HOOKS }, (_, i) => ({
      name: `bg-${i}`,
      event: "before_tool",
      async: true,
      script: asyncScript,
    }));
    hooks.push({
      name: "guard",
      event: "before_tool",
      matcher: "Bash",
      failure: "closed",
      priority: 1000,
      script: `#!/bin/sh\ncat >/dev/null\necho '{"action":"continue"}'\n`,
    });
    await installUserHooks(dirs, hooks, { maxAsyncHooks: 4, asyncQueueLimit: 100 });
    const calls = Array.from({ length: CALLS }, (_, i) => ({
      name: "Bash",
      input: { command: `echo call-${i} >> calls.txt` },
    }));
    server = await startFakeOpenAI([{ toolCalls: calls }, { text: "all done" }]);
    const result = await runAcai({
      dirs,
      args: ["-p", "go", "--yes", ...modelArgs("chat", server)],
      baseUrl: server.url,
      timeoutMs: 60_000,
      fdLimit: 256,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.stderr).not.toMatch(/EMFILE|lack of resources/);
    // Every Bash call ran: the guard was never starved into failing.
    const ran = (await readFile(path.join(dirs.cwd, "calls.txt"), "utf8")).trim().split("\n");
    expect(ran).toHaveLength(CALLS);

    const peak = peakRunning(await readFile(log, "utf8"));
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(4);

    const audit = await auditLines(dirs);
    const guard = audit.filter((line) => line.hook === "guard");
    expect(guard).toHaveLength(CALLS);
    expect(guard.every((line) => line.decision === "continue")).toBe(true);
    // Each of the 600 async runs is accounted for.
    const asyncLines = audit.filter((line) => line.async);
    expect(asyncLines).toHaveLength(ASYNC_HOOKS * CALLS);
    const dropped = asyncLines.filter((line) => line.error?.includes("was not run"));
    // 4 running and 100 waiting while 600 arrive within a second or two: most are dropped.
    expect(dropped.length).toBeGreaterThan(0);
    // One warning per tool call that had hooks dropped, naming them (the first ten) and counting the rest.
    const counted = result.stderr.split("\n").flatMap((line) => {
      const many = /hook warning: (\d+) async hooks of before_tool were not run: "bg-\d+"/.exec(
        line,
      );
      if (many) return [Number(many[1])];
      return /hook warning \(bg-\d+\): async hook "bg-\d+" was not run/.test(line) ? [1] : [];
    });
    expect(counted.length).toBeGreaterThan(0);
    expect(counted.length).toBeLessThanOrEqual(CALLS);
    expect(counted.reduce((a, b) => a + b, 0)).toBe(dropped.length);
    expect(result.stderr).toContain("hookDefaults.maxAsyncHooks");
  }, 90_000);
});
