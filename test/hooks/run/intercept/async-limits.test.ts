/**
 * The async-hook pool inside the interceptor, with a runner that counts how
 * many hooks run at once: at most maxAsyncHooks, the rest queued, a full
 * queue drops a hook with a warning and an audit line naming it; queued hooks
 * left at session end are not started. And a spawn that fails for lack of
 * resources is the hook's failure under its policy.
 */
import { describe, expect, it } from "vitest";
import { createHookInterceptor } from "../../../../source/hooks/run/interceptor.js";
import { quietRunResult } from "../../../../source/process/result.js";
import type { ProcessRunner, RunOptions } from "../../../../source/process/types.js";
import { makeHook } from "../../support.js";
import {
  collect,
  ev,
  fakeAgent,
  interceptorOptions,
  memoryAudit,
  tempDirPerTest,
} from "./support.js";

/** A runner whose runs last `ms` (or until aborted), counting the peak of runs at once. */
function countingRunner(ms: number) {
  const stats = { running: 0, peak: 0, started: 0 };
  const runner: ProcessRunner = (run: RunOptions) => {
    stats.running++;
    stats.started++;
    stats.peak = Math.max(stats.peak, stats.running);
    return new Promise((resolve) => {
      const finish = (aborted: boolean) => {
        clearTimeout(timer);
        stats.running--;
        resolve(quietRunResult({ exitCode: aborted ? null : 0, aborted }));
      };
      const timer = setTimeout(() => finish(false), ms);
      run.signal?.addEventListener("abort", () => finish(true), { once: true });
    });
  };
  return { runner, stats };
}

const asyncHooks = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    makeHook({ name: `bg-${i}`, async: true, events: ["before_tool"] }),
  );

describe("async hooks in a bounded pool", () => {
  const dir = tempDirPerTest("acai-async-limits-");

  it("run at most maxAsyncHooks at once; all run when the queue has room", async () => {
    const { runner, stats } = countingRunner(20);
    const hooks = asyncHooks(10);
    const agent = fakeAgent([ev.toolStart(), ev.toolStart(), ev.toolStart(), ev.sessionEnd()]);
    const audit = memoryAudit();
    const events = await collect(
      createHookInterceptor(
        interceptorOptions(dir.path, { hooks, runner, audit, maxAsyncHooks: 3 }),
      )(agent.run),
    );
    expect(stats.peak).toBe(3);
    expect(stats.started).toBe(30);
    expect(audit.entries).toHaveLength(30);
    expect(events.filter((e) => e.type === "hook_warning")).toEqual([]);
  });

  it("default: 8 at once", async () => {
    const { runner, stats } = countingRunner(20);
    const agent = fakeAgent([ev.toolStart(), ev.toolStart(), ev.sessionEnd()]);
    await collect(
      createHookInterceptor(interceptorOptions(dir.path, { hooks: asyncHooks(20), runner }))(
        agent.run,
      ),
    );
    expect(stats.peak).toBe(8);
    expect(stats.started).toBe(40);
  });

  it("hooks that find the queue full are dropped: one warning per event and an audit line each name them", async () => {
    const { runner, stats } = countingRunner(50);
    const hooks = asyncHooks(5);
    const agent = fakeAgent([ev.toolStart(), ev.sessionEnd()]);
    const audit = memoryAudit();
    const events = await collect(
      createHookInterceptor(
        interceptorOptions(dir.path, {
          hooks,
          runner,
          audit,
          maxAsyncHooks: 2,
          asyncQueueLimit: 1,
        }),
      )(agent.run),
    );
    // 2 run, 1 waits, 2 are dropped.
    expect(stats.started).toBe(3);
    const warnings = events.filter((e) => e.type === "hook_warning").map((e) => e.message);
    expect(warnings).toEqual([
      '2 async hooks of before_tool were not run: "bg-3", "bg-4"; 2 async hooks were running and 1 waiting (raise hookDefaults.maxAsyncHooks or hookDefaults.asyncQueueLimit to keep more; each is in the audit log)',
    ]);
    const dropped = audit.entries.filter((e) => e.error?.includes("was not run"));
    expect(dropped.map((e) => [e.hook, e.decision, e.async])).toEqual([
      ["bg-3", "failed", true],
      ["bg-4", "failed", true],
    ]);
    expect(audit.entries).toHaveLength(5);
  });

  it("queued hooks the session-end budget leaves are not started, and that is said", async () => {
    const { runner, stats } = countingRunner(10_000);
    const agent = fakeAgent([ev.toolStart(), ev.sessionEnd()]);
    const audit = memoryAudit();
    const started = Date.now();
    const events = await collect(
      createHookInterceptor(
        interceptorOptions(dir.path, {
          hooks: asyncHooks(4),
          runner,
          audit,
          maxAsyncHooks: 1,
          sessionEndBudgetMs: 100,
        }),
      )(agent.run),
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(stats.started).toBe(1);
    const warnings = events.filter((e) => e.type === "hook_warning").map((e) => e.message);
    expect(warnings.filter((m) => m.includes("killed after the 100 ms"))).toHaveLength(1);
    expect(warnings.filter((m) => m.includes("not started: the session ended"))).toHaveLength(3);
    expect(audit.entries.filter((e) => e.error?.includes("not started"))).toHaveLength(3);
  });

  it("closing the interceptor early leaves nothing queued or running", async () => {
    const { runner, stats } = countingRunner(10_000);
    const agent = fakeAgent([ev.toolStart(), ev.toolStart()]);
    const gen = createHookInterceptor(
      interceptorOptions(dir.path, { hooks: asyncHooks(6), runner, maxAsyncHooks: 2 }),
    )(agent.run);
    // The tool_call_start event, then the six hook_start events of its async hooks.
    for (let i = 0; i < 7; i++) await gen.next();
    expect(stats.running).toBe(2);
    await gen.return(undefined);
    expect(stats.running).toBe(0);
    expect(stats.started).toBe(2);
  });
});

describe("a spawn that fails for lack of resources", () => {
  const dir = tempDirPerTest("acai-spawn-shortage-");
  const emfile: ProcessRunner = async (run) =>
    quietRunResult({ spawnError: `cannot run "${run.command}": spawn EMFILE` });

  it("blocks the call under failure closed, and the audit log says why", async () => {
    const guard = makeHook({ name: "guard", failure: "closed" });
    const agent = fakeAgent([ev.toolStart()]);
    const audit = memoryAudit();
    await collect(
      createHookInterceptor(
        interceptorOptions(dir.path, { hooks: [guard], runner: emfile, audit }),
      )(agent.run),
    );
    const verdict = agent.verdicts[0]?.verdict;
    expect(verdict?.action).toBe("block");
    if (verdict?.action === "block") {
      expect(verdict.reason).toContain('hook "guard" failed');
      expect(verdict.reason).toContain("lack of resources (EMFILE");
    }
    expect(audit.entries[0]).toMatchObject({ hook: "guard", decision: "failed", effect: "block" });
    expect(audit.entries[0]?.error).toContain("could not be started for lack of resources (EMFILE");
  });

  it("goes on with a warning under failure open", async () => {
    const guard = makeHook({ name: "guard", failure: "open" });
    const agent = fakeAgent([ev.toolStart()]);
    const events = await collect(
      createHookInterceptor(interceptorOptions(dir.path, { hooks: [guard], runner: emfile }))(
        agent.run,
      ),
    );
    expect(agent.verdicts[0]?.verdict).toEqual({ action: "continue" });
    const warning = events.find((e) => e.type === "hook_warning");
    expect(warning?.message).toContain("lack of resources (EMFILE");
  });
});
