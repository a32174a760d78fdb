/**
 * asyncRewake's turns (trackTurnSignals().rewake): a wake-up becomes a turn
 * of its own, as a system reminder — at once when the agent waits for a
 * prompt, else before the next prompt; a prompt that arrived meanwhile is not
 * lost; after the prompts ran out it is not delivered ("ended"); wake-ups in a
 * row with no prompt between them stop at the cap. With a `deliver` (the
 * REPL's queue) the wake-up is queued there like a prompt, behind the ones
 * queued before it, with the signal the queue gave it; the cap still holds.
 */
import { describe, expect, it } from "vitest";
import type { TurnInput } from "../../../source/agent/types.js";
import { MAX_REWAKES_IN_A_ROW, trackTurnSignals } from "../../../source/hooks/run/turn-signal.js";

/** Prompts pushed by the test, like the REPL's queue. */
function pushed() {
  const queue: TurnInput[] = [];
  let wake: (() => void) | undefined;
  let closed = false;
  const iterable: AsyncIterable<TurnInput> = {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const next = queue.shift();
        if (next) {
          yield next;
          continue;
        }
        if (closed) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
  };
  return {
    iterable,
    push(prompt: string) {
      queue.push({ prompt });
      wake?.();
    },
    close() {
      closed = true;
      wake?.();
    },
  };
}

describe("asyncRewake turns", () => {
  it("a wake-up while the agent waits is the next turn; the prompt typed later still comes", async () => {
    const source = pushed();
    const tracked = trackTurnSignals(source.iterable);
    const it = tracked.prompts[Symbol.asyncIterator]();
    source.push("first");
    expect((await it.next()).value?.prompt).toBe("first");
    const waiting = it.next();
    expect(tracked.rewake("tests", "2 tests failed")).toBe("queued");
    const woke = (await waiting).value?.prompt ?? "";
    expect(woke).toContain("<system-reminder>");
    expect(woke).toContain('The async hook "tests" exited 2 and woke you with:\n2 tests failed');
    source.push("second");
    expect((await it.next()).value?.prompt).toBe("second");
    source.close();
    expect((await it.next()).done).toBe(true);
    expect(tracked.rewake("tests", "late")).toBe("ended");
  });

  it("a wake-up during a turn comes before the next prompt", async () => {
    const tracked = trackTurnSignals([{ prompt: "one" }, { prompt: "two" }]);
    const it = tracked.prompts[Symbol.asyncIterator]();
    expect((await it.next()).value?.prompt).toBe("one");
    expect(tracked.rewake("lint", "")).toBe("queued");
    expect((await it.next()).value?.prompt).toContain("(it gave no text)");
    expect((await it.next()).value?.prompt).toBe("two");
    expect((await it.next()).done).toBe(true);
  });

  it(`stops at ${MAX_REWAKES_IN_A_ROW} wake-ups in a row; a prompt between them starts the count again`, async () => {
    const source = pushed();
    const tracked = trackTurnSignals(source.iterable);
    const it = tracked.prompts[Symbol.asyncIterator]();
    source.push("go");
    await it.next();
    for (let i = 0; i < MAX_REWAKES_IN_A_ROW; i++)
      expect(tracked.rewake("h", `${i}`)).toBe("queued");
    expect(tracked.rewake("h", "one too many")).toBe("capped");
    for (let i = 0; i < MAX_REWAKES_IN_A_ROW; i++)
      expect((await it.next()).value?.prompt).toContain(`woke you with:\n${i}`);
    source.push("typed");
    expect((await it.next()).value?.prompt).toBe("typed");
    expect(tracked.rewake("h", "again")).toBe("queued");
  });

  it("with a deliver, a wake-up is queued there behind earlier prompts, with its own signal; the cap holds", async () => {
    const queue: TurnInput[] = [];
    let waiter: ((t: TurnInput) => void) | undefined;
    let closed = false;
    const put = (t: TurnInput) => {
      if (waiter) {
        const w = waiter;
        waiter = undefined;
        w(t);
      } else queue.push(t);
    };
    const source: AsyncIterable<TurnInput> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          const t = queue.shift();
          if (t) return { done: false, value: t };
          return {
            done: false,
            value: await new Promise<TurnInput>((r) => {
              waiter = r;
            }),
          };
        },
      }),
    };
    const deliver = (prompt: string): TurnInput | undefined => {
      if (closed) return undefined;
      const turn = { prompt, signal: new AbortController().signal };
      put(turn);
      return turn;
    };
    const tracked = trackTurnSignals(source, deliver);
    const it = tracked.prompts[Symbol.asyncIterator]();
    put({ prompt: "first" });
    expect((await it.next()).value?.prompt).toBe("first");
    put({ prompt: "typed meanwhile" });
    expect(tracked.rewake("tests", "failed")).toBe("queued");
    expect((await it.next()).value?.prompt).toBe("typed meanwhile");
    const woke = await it.next();
    expect(woke.value?.prompt).toContain('The async hook "tests" exited 2');
    expect(tracked.current()).toBe(woke.value?.signal);
    expect(tracked.current()).toBeDefined();
    // The prompt typed meanwhile started the count again; wake-ups taken from the
    // queue do not count as the user's prompts, so the cap still holds.
    for (let i = 0; i < MAX_REWAKES_IN_A_ROW; i++) {
      expect(tracked.rewake("tests", `again ${i}`)).toBe("queued");
      await it.next();
    }
    expect(tracked.rewake("tests", "one too many")).toBe("capped");
    closed = true;
    put({ prompt: "user again" });
    expect((await it.next()).value?.prompt).toBe("user again");
    expect(tracked.rewake("tests", "after the queue closed")).toBe("ended");
  });
});
