import { readFile } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { auditEntry, auditLogPath, createFileAuditSink } from "../../../source/hooks/run/audit.js";
import { fakeRecord, makeHook, type TempDir, tempDir } from "../support.js";

let dir: TempDir;
beforeEach(async () => {
  dir = await tempDir("acai-audit-");
});
afterEach(async () => {
  await dir.cleanup();
});

describe("audit log", () => {
  it("builds an entry with the run's facts and the first 500 characters of stderr", () => {
    const hook = makeHook({
      name: "guard",
      scope: "project",
      sourceKind: "hook_md",
      file: "/p/.agents/hooks/guard/HOOK.md",
    });
    const record = fakeRecord(
      { action: "failed", error: "timed out after 100 ms" },
      {
        exitCode: null,
        signal: "SIGTERM",
        timedOut: true,
        stderr: "e".repeat(900),
        durationMs: 101.4,
      },
    );
    const entry = auditEntry({
      time: Date.parse("2026-01-01T00:00:00Z"),
      session: "s1",
      hook,
      record,
      answered: record.decision,
      effective: { action: "block", reason: 'hook "guard" failed' },
    });
    expect(entry).toMatchObject({
      time: "2026-01-01T00:00:00.000Z",
      session: "s1",
      hook: "guard",
      scope: "project",
      source: "hook_md",
      file: "/p/.agents/hooks/guard/HOOK.md",
      decision: "failed",
      effect: "block",
      exit_code: null,
      signal: "SIGTERM",
      duration_ms: 101,
      timed_out: true,
      killed: false,
      error: "timed out after 100 ms",
      reason: 'hook "guard" failed',
    });
    // Cut at 500 characters, visibly.
    expect(entry.stderr?.startsWith("e".repeat(500))).toBe(true);
    expect(entry.stderr).toContain("[stderr cut at 500 characters by acai]");
  });

  it("appends one JSON line per write under ACAI_HOME/logs, across sinks", async () => {
    const hook = makeHook();
    const record = fakeRecord({ action: "continue" });
    const entry = auditEntry({
      time: 0,
      session: "s",
      hook,
      record,
      answered: record.decision,
      effective: record.decision,
    });
    const first = createFileAuditSink(dir.path);
    first.write(entry);
    first.write(entry);
    first.close?.();
    const second = createFileAuditSink(dir.path);
    second.write({ ...entry, session: "t" });
    second.close?.();
    const lines = (await readFile(auditLogPath(dir.path), "utf8")).trim().split("\n");
    expect(lines.map((l) => JSON.parse(l).session)).toEqual(["s", "s", "t"]);
    expect(auditLogPath(dir.path)).toBe(`${dir.path}/logs/hooks-audit.jsonl`);
  });

  /**
   * A file sink in this test's folder whose held lines wait for their release (a bound of a
   * minute: the default 100 ms could pass on a loaded machine before a check that they wait),
   * one entry to write, the log's text, and one turn of the loop.
   */
  function heldSinkSetup() {
    const entry = auditEntry({
      time: Date.parse("2026-01-01T00:00:00Z"),
      session: "s",
      hook: makeHook({ name: "h" }),
      record: fakeRecord({ action: "continue" }),
      answered: { action: "continue" },
      effective: { action: "continue" },
    });
    const path = auditLogPath(dir.path);
    const text = async (): Promise<string> => readFile(path, "utf8").catch(() => "");
    const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
    return { entry, text, turn, sink: createFileAuditSink(dir.path, { maxHoldMs: 60_000 }) };
  }

  it("holds a chain's lines until it ends, then writes them together in their order (a bound writes them anyway)", async () => {
    const { entry, text, turn, sink } = heldSinkSetup();
    const release = sink.hold?.();
    expect(release).toBeTypeOf("function");
    for (const hook of ["a", "b", "c"]) {
      sink.write({ ...entry, hook });
      await turn(); // each hook of a chain answers in a turn of its own
      await turn();
    }
    expect(await text()).toBe("");
    release?.();
    release?.(); // a second release changes nothing
    await turn();
    const lines = (await text()).trim().split("\n");
    expect(lines.map((line) => JSON.parse(line).hook)).toEqual(["a", "b", "c"]);
    sink.close?.();
    // Not released (a slow hook, a question to the user): written after the bound (the default).
    const bounded = createFileAuditSink(dir.path);
    bounded.hold?.();
    bounded.write({ ...entry, hook: "d" });
    await turn();
    expect((await text()).trim().split("\n")).toHaveLength(3);
    for (let i = 0; i < 500 && !(await text()).includes('"hook":"d"'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(
      (await text())
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).hook),
    ).toEqual(["a", "b", "c", "d"]);
    bounded.close?.();
  });

  it("keeps a line written in the turn a hold begins (an event's considered line) with the held ones, in order", async () => {
    const { entry, text, turn, sink } = heldSinkSetup();
    sink.write({ ...entry, hook: "considered-first" });
    const release = sink.hold?.();
    await turn();
    await turn();
    expect(await text()).toBe("");
    sink.write({ ...entry, hook: "a" });
    await turn();
    expect(await text()).toBe("");
    release?.();
    await turn();
    const hooks = (await text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line).hook);
    expect(hooks).toEqual(["considered-first", "a"]);
    sink.close?.();
    // Never released: the bound (the default) writes it anyway.
    const bounded = createFileAuditSink(dir.path);
    bounded.write({ ...entry, hook: "b" });
    bounded.hold?.();
    for (let i = 0; i < 500 && !(await text()).includes('"hook":"b"'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await text()).trim().split("\n")).toHaveLength(3);
    bounded.close?.();
  });
});
