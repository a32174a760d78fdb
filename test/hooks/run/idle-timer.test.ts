import { describe, expect, it } from "vitest";
import { createIdleTimer, type TimerFunctions } from "../../../source/hooks/run/idle-timer.js";

/** Manual timers: `advance(ms)` runs what is due, in order. */
function manualClock() {
  let time = 0;
  let next = 1;
  const pending = new Map<number, { at: number; run: () => void }>();
  const timers: TimerFunctions = {
    setTimeout: (run, ms) => {
      const id = next++;
      pending.set(id, { at: time + ms, run });
      return id;
    },
    clearTimeout: (id) => void pending.delete(id as number),
  };
  const advance = (ms: number) => {
    const end = time + ms;
    for (;;) {
      const due = [...pending.entries()]
        .filter(([, t]) => t.at <= end)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (due === undefined) break;
      pending.delete(due[0]);
      time = due[1].at;
      due[1].run();
    }
    time = end;
  };
  return { timers, now: () => time, advance, pending };
}

describe("createIdleTimer", () => {
  it("fires once per idle period while silence lasts, with the seconds since the last activity", () => {
    const clock = manualClock();
    const calls: number[] = [];
    const timer = createIdleTimer({ idleMs: 30_000, onIdle: (s) => calls.push(s), ...clock });
    clock.advance(29_000);
    expect(calls).toEqual([]);
    clock.advance(1_000);
    expect(calls).toEqual([30]);
    clock.advance(30_000);
    expect(calls).toEqual([30, 60]);
    timer.activity();
    clock.advance(29_999);
    expect(calls).toEqual([30, 60]);
    clock.advance(1);
    expect(calls).toEqual([30, 60, 30]);
    timer.stop();
    clock.advance(100_000);
    expect(calls).toEqual([30, 60, 30]);
    expect(clock.pending.size).toBe(0);
  });

  it("activity keeps postponing it", () => {
    const clock = manualClock();
    const calls: number[] = [];
    const timer = createIdleTimer({ idleMs: 1000, onIdle: (s) => calls.push(s), ...clock });
    for (let i = 0; i < 10; i++) {
      clock.advance(900);
      timer.activity();
    }
    expect(calls).toEqual([]);
    timer.stop();
  });
});
