import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { TurnInput } from "../../../../source/agent/types.js";
import type { InterceptedEvent } from "../../../../source/hooks/run/activity.js";
import { createHookInterceptor } from "../../../../source/hooks/run/interceptor.js";
import { trackTurnSignals } from "../../../../source/hooks/run/turn-signal.js";
import { survivorsOf, uniqueMarker } from "../../support.js";
import { bashHook, ev, fakeAgent, interceptorOptions, tempDirPerTest } from "./support.js";

const dir = tempDirPerTest("acai-turn-abort-");

describe("turn abort (REPL Esc) reaches the turn's hooks", () => {
  it("kills a running before_tool hook's process group; the turn's observers and the next turn's hooks still run", async () => {
    const marker = uniqueMarker();
    const slow = await bashHook(dir.path, "slow", `bash -c 'sleep 30; : ${marker}' & sleep 30`);
    const failed = await bashHook(dir.path, "failed", `touch "$OUT/failure-seen"`, {
      events: ["after_tool_failure"],
    });
    const prompt = await bashHook(dir.path, "prompt", `touch "$OUT/prompt-$$"; echo '{}'`, {
      events: ["user_prompt"],
    });
    const turn1 = new AbortController();
    const turn2 = new AbortController();
    let current: AbortSignal | undefined = turn1.signal;
    const agent = fakeAgent([
      ev.sessionStart(),
      ev.toolStart(),
      { ...ev.toolError(), interrupted: true },
      ev.turnEnd(),
      async () => {
        current = turn2.signal;
      },
      ev.prompt("second"),
      { type: "session_end", reason: "completed" },
    ]);
    const intercept = createHookInterceptor(
      interceptorOptions(dir.path, {
        hooks: [slow, failed, prompt],
        turnSignal: () => current,
      }),
    );
    const events: InterceptedEvent[] = [];
    const started = performance.now();
    for await (const event of intercept(agent.run)) {
      events.push(event);
      if (event.type === "hook_start" && event.hook.name === "slow") {
        setTimeout(() => turn1.abort(), 50);
      }
    }
    expect(performance.now() - started).toBeLessThan(5000);
    expect(agent.verdicts.find((v) => v.type === "tool_call_start")?.verdict).toEqual({
      action: "block",
      reason: "aborted",
    });
    expect(
      events.some(
        (e) => e.type === "hook_end" && e.hook.name === "slow" && e.outcome === "aborted",
      ),
    ).toBe(true);
    expect(await survivorsOf(marker)).toEqual([]);
    // The session was not aborted: the aftermath is observed and the next turn's hooks run.
    expect(existsSync(join(dir.path, "failure-seen"))).toBe(true);
    expect(
      events.some(
        (e) => e.type === "hook_end" && e.hook.name === "prompt" && e.outcome === "continue",
      ),
    ).toBe(true);
    expect(turn2.signal.aborted).toBe(false);
  });

  it("a turn aborted before a gating event starts none of its hooks", async () => {
    const gate = await bashHook(dir.path, "gate", `touch "$OUT/gate-ran"`);
    const turn = new AbortController();
    turn.abort();
    const agent = fakeAgent([ev.toolStart()]);
    const intercept = createHookInterceptor(
      interceptorOptions(dir.path, { hooks: [gate], turnSignal: () => turn.signal }),
    );
    for await (const _ of intercept(agent.run)) {
      // drain
    }
    expect(agent.verdicts[0]?.verdict).toEqual({ action: "block", reason: "aborted" });
    expect(existsSync(join(dir.path, "gate-ran"))).toBe(false);
  });
});

describe("trackTurnSignals", () => {
  it("reports the signal of the prompt the agent took last, forwards return()", async () => {
    const a = new AbortController();
    const b = new AbortController();
    let returned = false;
    const inputs: TurnInput[] = [
      { prompt: "one", signal: a.signal },
      { prompt: "two" },
      { prompt: "three", signal: b.signal },
    ];
    const source: AsyncIterable<TurnInput> = {
      [Symbol.asyncIterator]: () => {
        let i = 0;
        return {
          next: async () =>
            i < inputs.length
              ? { done: false, value: inputs[i++] as TurnInput }
              : { done: true, value: undefined },
          return: async () => {
            returned = true;
            return { done: true, value: undefined };
          },
        };
      },
    };
    const tracked = trackTurnSignals(source);
    const it = tracked.prompts[Symbol.asyncIterator]();
    expect(tracked.current()).toBeUndefined();
    expect((await it.next()).value?.prompt).toBe("one");
    expect(tracked.current()).toBe(a.signal);
    await it.next();
    expect(tracked.current()).toBeUndefined();
    await it.next();
    expect(tracked.current()).toBe(b.signal);
    expect((await it.next()).done).toBe(true);
    expect(tracked.current()).toBeUndefined();
    await it.return?.();
    expect(returned).toBe(true);
  });

  it("accepts a plain iterable (acai -p)", async () => {
    const tracked = trackTurnSignals([{ prompt: "only" }]);
    const seen: string[] = [];
    for await (const input of tracked.prompts) seen.push(input.prompt);
    expect(seen).toEqual(["only"]);
  });
});
