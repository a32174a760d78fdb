/**
 * Hooks a plugin registers after its register() returned join the running
 * session (hooks/run/late.ts): a late `idle` hook starts the idle timer when
 * none ran (no idle hook, nobody asked for onIdle), and then runs on idle.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LateHooks } from "../../../source/hooks/contract/late-hooks.js";
import type { TimerFunctions } from "../../../source/hooks/run/idle-timer.js";
import { createHookInterceptor } from "../../../source/hooks/run/interceptor.js";
import {
  bashHook,
  collect,
  ev,
  fakeAgent,
  interceptorOptions,
  tempDirPerTest,
} from "./intercept/support.js";

const dir = tempDirPerTest("acai-late-");

/** Timers that fire only when the test says so. */
function manualTimers(): TimerFunctions & { armed: Map<number, () => void> } {
  const armed = new Map<number, () => void>();
  let next = 0;
  return {
    armed,
    setTimeout: (callback) => {
      armed.set(++next, callback);
      return next;
    },
    clearTimeout: (handle) => {
      armed.delete(handle as number);
    },
  };
}

describe("late hooks in a running session", () => {
  it("a late idle hook starts the idle timer, and runs when the session goes idle", async () => {
    const late = new LateHooks();
    const timers = manualTimers();
    const hook = await bashHook(dir.path, "idle-log", `cat > "$OUT/idle.json"`, {
      events: ["idle"],
    });
    const intercept = createHookInterceptor(
      interceptorOptions(dir.path, { lateHooks: late, idleTimers: timers, idleMs: 1000 }),
    );
    let armedBefore = -1;
    const agent = fakeAgent([
      ev.sessionStart(),
      async () => {
        armedBefore = timers.armed.size;
        late.add({ kind: "hook", hook });
        expect(timers.armed.size).toBe(1);
        for (const [handle, fire] of [...timers.armed]) {
          timers.armed.delete(handle);
          fire();
        }
      },
      ev.turnEnd(),
      ev.sessionEnd(),
    ]);
    const events = await collect(intercept(agent.run));
    // No timer ran before the late hook came: nothing listened to idle.
    expect(armedBefore).toBe(0);
    expect(events.map((e) => e.type)).toContain("idle");
    const payload = JSON.parse(await readFile(join(dir.path, "idle.json"), "utf8"));
    expect(payload).toMatchObject({ event: "idle" });
    // Stopped with the run: no timer left armed.
    expect(timers.armed.size).toBe(0);
  });
});
