/**
 * asyncRewake's turns (trackTurnSignals().rewake): a wake-up becomes a turn
 * of its own, as a system reminder — at once when the agent waits for a
 * prompt, else before the next prompt; a prompt that arrived meanwhile is not
 * lost; after the prompts ran out it is not delivered ("ended"); wake-ups in a
 * row with no prompt between them stop at the cap.
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
});
