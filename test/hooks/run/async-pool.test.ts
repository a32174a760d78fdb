import { describe, expect, it } from "vitest";
import {
  createAsyncPool,
  droppedMessage,
  droppedWarning,
  notStartedMessage,
} from "../../../source/hooks/run/async-pool.js";

/** A task that runs until `release()` is called, recording when it started. */
function gate(log: string[], name: string) {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    task: async () => {
      log.push(`start ${name}`);
      await released;
      log.push(`end ${name}`);
    },
    release: () => release(),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("createAsyncPool", () => {
  it("runs at most maxRunning at once, queues the rest in order, drops past the queue limit", async () => {
    const log: string[] = [];
    const pool = createAsyncPool({ maxRunning: 2, queueLimit: 2 });
    const gates = ["a", "b", "c", "d", "e"].map((n) => gate(log, n));
    const admissions = gates.map((g) => pool.submit(g.task).admission);
    expect(admissions).toEqual(["started", "started", "queued", "queued", "dropped"]);
    expect(pool.running).toBe(2);
    expect(pool.queued).toBe(2);
    expect(log).toEqual(["start a", "start b"]);

    gates[1]?.release();
    await tick();
    expect(log).toEqual(["start a", "start b", "end b", "start c"]);
    expect(pool.running).toBe(2);
    expect(pool.queued).toBe(1);

    for (const g of gates) g.release();
    for (let i = 0; i < 5; i++) await tick();
    expect(log.filter((l) => l.startsWith("start"))).toEqual([
      "start a",
      "start b",
      "start c",
      "start d",
    ]);
    expect(pool.running).toBe(0);
    expect(pool.queued).toBe(0);
  });

  it("done settles when the task has run; a dropped task is never called", async () => {
    const pool = createAsyncPool({ maxRunning: 1, queueLimit: 0 });
    let ran = 0;
    const first = pool.submit(async () => {
      ran++;
    });
    const dropped = pool.submit(async () => {
      ran += 100;
    });
    expect(dropped.admission).toBe("dropped");
    await Promise.all([first.done, dropped.done]);
    expect(ran).toBe(1);
  });

  it("a task that throws or rejects frees its slot and is reported", async () => {
    const errors: unknown[] = [];
    const pool = createAsyncPool({ maxRunning: 1, queueLimit: 5 }, (e) => errors.push(e));
    const a = pool.submit(() => Promise.reject(new Error("boom")));
    const b = pool.submit(() => {
      throw new Error("sync boom");
    });
    let ranC = false;
    const c = pool.submit(async () => {
      ranC = true;
    });
    await Promise.all([a.done, b.done, c.done]);
    expect(ranC).toBe(true);
    expect(errors.map((e) => (e as Error).message)).toEqual(["boom", "sync boom"]);
    expect(pool.running).toBe(0);
  });

  it("keeps order through many queued tasks (the queue is compacted as it goes)", async () => {
    const pool = createAsyncPool({ maxRunning: 3, queueLimit: 10_000 });
    const order: number[] = [];
    const all = Array.from({ length: 5000 }, (_, i) =>
      pool.submit(async () => {
        order.push(i);
        await Promise.resolve();
      }),
    );
    await Promise.all(all.map((s) => s.done));
    expect(order).toEqual(Array.from({ length: 5000 }, (_, i) => i));
  });

  it("clamps nonsense limits to at least one running and no negative queue", () => {
    const pool = createAsyncPool({ maxRunning: 0, queueLimit: -3 });
    expect(pool.limits).toEqual({ maxRunning: 1, queueLimit: 0 });
  });

  it("messages name the hook and the settings to raise", () => {
    expect(droppedMessage("lint", { maxRunning: 8, queueLimit: 256 })).toBe(
      'async hook "lint" was not run: 8 async hooks were running and 256 waiting (raise hookDefaults.maxAsyncHooks or hookDefaults.asyncQueueLimit to keep more)',
    );
    expect(notStartedMessage("session end")).toContain("session ended");
    const limits = { maxRunning: 8, queueLimit: 256 };
    expect(droppedWarning(["lint"], "before_tool", limits)).toBe(droppedMessage("lint", limits));
    const many = droppedWarning(
      Array.from({ length: 12 }, (_, i) => `h${i}`),
      "before_tool",
      limits,
    );
    expect(many).toBe(
      '12 async hooks of before_tool were not run: "h0", "h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8", "h9" and 2 more; 8 async hooks were running and 256 waiting (raise hookDefaults.maxAsyncHooks or hookDefaults.asyncQueueLimit to keep more; each is in the audit log)',
    );
  });
});
