/** The requests of one asking written back to back (outbox.ts): held inside `together`, in order. */
import { describe, expect, it } from "vitest";
import { Outbox } from "../../../../source/hooks/run/persistent/outbox.js";
import type { LongLived } from "../../../../source/process/long-lived.js";

function recorder(log: string[], name: string): LongLived {
  return {
    pid: 1,
    write: (text) => log.push(`${name} wrote ${text}`),
    pendingBytes: () => 0,
    stderrTail: () => "",
    stop: () => Promise.resolve(),
    kill: () => {},
  };
}

describe("Outbox", () => {
  it("writes at once outside an asking, then runs the after-write step", () => {
    const log: string[] = [];
    new Outbox().send(recorder(log, "a"), "1", () => log.push("a written"));
    expect(log).toEqual(["a wrote 1", "a written"]);
  });

  it("holds the writes of an asking until it returns: all written in order, then each after-write step", () => {
    const log: string[] = [];
    const outbox = new Outbox();
    const result = outbox.together(() => {
      outbox.send(recorder(log, "a"), "1", () => log.push("a written"));
      // An asking inside an asking is part of it.
      outbox.together(() => outbox.send(recorder(log, "b"), "2", () => log.push("b written")));
      outbox.send(undefined, "3", () => log.push("gone written"));
      log.push("asked");
      return 42;
    });
    expect(result).toBe(42);
    expect(log).toEqual([
      "asked",
      "a wrote 1",
      "b wrote 2",
      "a written",
      "b written",
      "gone written",
    ]);
  });

  it("writes what was asked when the asking throws", () => {
    const log: string[] = [];
    const outbox = new Outbox();
    expect(() =>
      outbox.together(() => {
        outbox.send(recorder(log, "a"), "1", () => log.push("a written"));
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(log).toEqual(["a wrote 1", "a written"]);
    outbox.send(recorder(log, "b"), "2", () => log.push("b written"));
    expect(log.slice(2)).toEqual(["b wrote 2", "b written"]);
  });
});
