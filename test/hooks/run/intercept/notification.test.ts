import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../../source/agent/events.js";
import type { AskRequest, InterceptedEvent } from "../../../../source/hooks/run/activity.js";
import {
  createHookInterceptor,
  type InterceptorOptions,
} from "../../../../source/hooks/run/interceptor.js";
import {
  answerHook,
  bashHook,
  ev,
  fakeAgent,
  interceptorOptions,
  tempDirPerTest,
} from "./support.js";

const dir = tempDirPerTest("acai-notification-");

const base = (extra: Partial<InterceptorOptions>): InterceptorOptions =>
  interceptorOptions(dir.path, extra);

/** A notification hook that appends its payload to $OUT/notes.jsonl. */
const recorder = () =>
  bashHook(dir.path, "notifier", `cat >> "$OUT/notes.jsonl"; echo >> "$OUT/notes.jsonl"`, {
    events: ["notification"],
  });

async function notes(): Promise<Record<string, unknown>[]> {
  const text = await readFile(join(dir.path, "notes.jsonl"), "utf8").catch(() => "");
  return text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("notification hooks", () => {
  it("run when a hook asks, before the user answers, and their activity is shown", async () => {
    const guard = await answerHook(
      dir.path,
      "guard",
      { action: "ask", reason: "sure?" },
      { events: ["user_prompt"] },
    );
    const notifier = await recorder();
    let seenWhenAsked: Record<string, unknown>[] | undefined;
    const askUser = async (_request: AskRequest) => {
      // The user takes a moment; the notification hook has started by now.
      for (let i = 0; i < 100 && (await notes()).length === 0; i++) {
        await new Promise((r) => setTimeout(r, 20));
      }
      seenWhenAsked = await notes();
      return true;
    };
    // The session ends properly: session end waits (within its budget) for the
    // notification hook running beside the loop, so its hook_end is yielded.
    // Without session_end the stream's close would kill it, racing its exit.
    const agent = fakeAgent([
      ev.sessionStart(),
      ev.prompt(),
      ev.turnEnd(),
      { type: "session_end", reason: "completed" },
    ]);
    const events: InterceptedEvent[] = [];
    for await (const e of createHookInterceptor(base({ hooks: [guard, notifier], askUser }))(
      agent.run,
    ))
      events.push(e);
    expect(seenWhenAsked).toHaveLength(1);
    expect(seenWhenAsked?.[0]).toMatchObject({
      event: "notification",
      notification_type: "permission_prompt",
      message: "Hook guard asks: sure?",
      session_id: "sess-1",
    });
    expect(agent.verdicts[1]?.verdict).toMatchObject({ action: "continue" });
    expect(
      events.some(
        (e) => e.type === "hook_end" && e.hook.name === "notifier" && e.event === "notification",
      ),
    ).toBe(true);
  });

  it("an ask yields the notification event before the asking hook's end, and tells onNotification", async () => {
    const guard = await answerHook(
      dir.path,
      "guard",
      { action: "ask", reason: "sure?" },
      { events: ["user_prompt"] },
    );
    const told: unknown[] = [];
    const agent = fakeAgent([ev.sessionStart(), ev.prompt(), ev.turnEnd()]);
    const events: InterceptedEvent[] = [];
    const intercept = createHookInterceptor(
      base({ hooks: [guard], onNotification: (event) => told.push(event) }),
    );
    for await (const e of intercept(agent.run)) events.push(e);
    const notification = {
      type: "notification",
      message: "Hook guard asks: sure?",
      notificationType: "permission_prompt",
    };
    // No notification hook is needed for the event itself.
    expect(told).toEqual([notification]);
    const at = events.findIndex((e) => e.type === "notification");
    expect(events[at]).toEqual(notification);
    const guardEnd = events.findIndex((e) => e.type === "hook_end" && e.hook.name === "guard");
    expect(at).toBeGreaterThan(events.findIndex((e) => e.type === "hook_start"));
    expect(at).toBeLessThan(guardEnd);
    expect(agent.verdicts[1]?.verdict).toMatchObject({ action: "block" });
  });

  it("notify() yields the notification at once while the agent waits, and the consumer can leave then", async () => {
    const told: unknown[] = [];
    const intercept = createHookInterceptor(base({ onNotification: (event) => told.push(event) }));
    const never = new Promise<void>(() => {});
    const agent = fakeAgent([ev.sessionStart(), () => never, ev.turnEnd()]);
    const stream = intercept(agent.run);
    expect((await stream.next()).value).toMatchObject({ type: "session_start" });
    const next = stream.next(); // the agent is waiting (for a prompt, say)
    expect(await intercept.notify("acai is waiting for your input", "idle_prompt")).toEqual([]);
    const notification = {
      type: "notification",
      message: "acai is waiting for your input",
      notificationType: "idle_prompt",
    };
    expect((await next).value).toEqual(notification);
    expect(told).toEqual([notification]);
    // Leaving while the agent's next() never settles does not hang.
    expect(await stream.return(undefined)).toEqual({ done: true, value: undefined });
  });

  it("run headless too, where the permission is denied", async () => {
    const notifier = await recorder();
    const agent = fakeAgent([ev.permission(), { type: "session_end", reason: "completed" }]);
    for await (const _ of createHookInterceptor(base({ hooks: [notifier] }))(agent.run)) {
      // drain
    }
    expect(agent.verdicts[0]?.verdict).toMatchObject({ action: "block" });
    expect(await notes()).toMatchObject([
      {
        notification_type: "permission_prompt",
        message: "acai needs your permission to use Bash (no rule allows Bash in default mode)",
      },
    ]);
  });

  it("notify() runs them during a run and resolves with their activity; no run, nothing runs", async () => {
    const notifier = await recorder();
    const intercept = createHookInterceptor(base({ hooks: [notifier] }));
    expect(await intercept.notify("before any run", "idle_prompt")).toEqual([]);
    let release: () => void = () => {};
    const waiting = new Promise<void>((r) => {
      release = r;
    });
    const script: (AgentEvent | (() => Promise<void>))[] = [ev.sessionStart(), () => waiting];
    const agent = fakeAgent(script);
    const seen: InterceptedEvent[] = [];
    const drained = (async () => {
      for await (const e of intercept(agent.run)) seen.push(e);
    })();
    await new Promise((r) => setTimeout(r, 20));
    const activity = await intercept.notify("acai is waiting for your input", "idle_prompt");
    expect(activity.map((a) => a.type)).toEqual(["hook_start", "hook_end"]);
    // The event itself went down the stream (before the agent's next event); the activity did not.
    expect(seen.map((e) => e.type)).toEqual(["session_start", "notification"]);
    expect(await notes()).toMatchObject([
      { notification_type: "idle_prompt", message: "acai is waiting for your input" },
    ]);
    release();
    await drained;
    expect(await intercept.notify("after the run", "idle_prompt")).toEqual([]);
    expect(await notes()).toHaveLength(1);
  });
});
