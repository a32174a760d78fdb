/**
 * agent-relay answers through the interceptor: `inject` reaches the agent as
 * context (cut at 2,000 characters unless unlimitedInjection), `stop: true`
 * skips the hooks after it, `sendMessage` goes to `onSendMessage` (a warning
 * without one), `suppress` is ignored with a warning where the event cannot
 * take it.
 */
import { describe, expect, it } from "vitest";
import type { HookDefinition } from "../../../../source/hooks/contract/definition.js";
import type { InterceptedEvent } from "../../../../source/hooks/run/activity.js";
import {
  createHookInterceptor,
  type HookSentMessage,
  type InterceptorOptions,
} from "../../../../source/hooks/run/interceptor.js";
import {
  answerHook,
  collect,
  ev,
  fakeAgent,
  interceptorOptions,
  tempDirPerTest,
} from "./support.js";

const dir = tempDirPerTest("acai-relay-answers-");

function options(
  hooks: HookDefinition[],
  extra: Partial<InterceptorOptions> = {},
): InterceptorOptions {
  return interceptorOptions(dir.path, { hooks, ...extra });
}

const warnings = (events: InterceptedEvent[]): string[] =>
  events.flatMap((e) => (e.type === "hook_warning" ? [e.message] : []));

describe("agent-relay answers", () => {
  it("inject is context; stop: true skips the hooks after it", async () => {
    const hooks = [
      await answerHook(
        dir.path,
        "first",
        { inject: "[CONTEXT] in acme", stop: true },
        {
          events: ["session_start"],
          priority: 200,
        },
      ),
      await answerHook(dir.path, "never", { inject: "NOT-RUN" }, { events: ["session_start"] }),
    ];
    const agent = fakeAgent([ev.sessionStart()]);
    const events = await collect(createHookInterceptor(options(hooks))(agent.run));
    expect(agent.verdicts).toEqual([
      { type: "session_start", verdict: { action: "continue", context: ["[CONTEXT] in acme"] } },
    ]);
    expect(events.filter((e) => e.type === "hook_start")).toHaveLength(1);
  });

  it("cuts inject at 2,000 characters and says so, unless unlimitedInjection", async () => {
    const long = "x".repeat(2500);
    const hooks = [
      await answerHook(dir.path, "big", { inject: long }, { events: ["session_start"] }),
    ];
    const capped = fakeAgent([ev.sessionStart()]);
    const events = await collect(createHookInterceptor(options(hooks))(capped.run));
    const context =
      capped.verdicts[0]?.verdict?.action === "continue" ? capped.verdicts[0].verdict.context : [];
    expect(context?.[0]).toMatch(/^x{2000}\n… \[context cut at 2000 characters by acai\]$/);
    expect(warnings(events).join("\n")).toContain(
      "cut at 2000 (agent-relay's inject limit; the capabilities.unlimitedInjection setting lifts it)",
    );

    const free = fakeAgent([ev.sessionStart()]);
    await collect(createHookInterceptor(options(hooks, { unlimitedInjection: true }))(free.run));
    expect(free.verdicts[0]?.verdict).toEqual({ action: "continue", context: [long] });
  });

  it("hands sendMessage to onSendMessage, naming the hook and event; warns when nobody sends", async () => {
    const hooks = [
      await answerHook(
        dir.path,
        "alert",
        { sendMessage: { to: "Coordinator", content: "tests fail" }, log: "alerted" },
        { events: ["after_tool"] },
      ),
    ];
    const sent: HookSentMessage[] = [];
    const agent = fakeAgent([ev.toolEnd()]);
    await collect(
      createHookInterceptor(options(hooks, { onSendMessage: (m) => void sent.push(m) }))(agent.run),
    );
    expect(sent).toEqual([
      {
        to: "Coordinator",
        content: "tests fail",
        event: "after_tool",
        hook: expect.objectContaining({ name: "alert" }),
      },
    ]);

    const lonely = fakeAgent([ev.toolEnd(), ev.stop()]);
    const events = await collect(createHookInterceptor(options(hooks))(lonely.run));
    expect(warnings(events).join("\n")).toContain(
      'hook "alert" asked to send a message to "Coordinator"; this session does not send messages between agents, so it was not sent',
    );
  });

  it("a delivery that fails is a warning, not a crash", async () => {
    const hooks = [
      await answerHook(
        dir.path,
        "alert",
        { sendMessage: { to: "Bob", content: "hi" } },
        {
          events: ["after_tool"],
        },
      ),
    ];
    const agent = fakeAgent([ev.toolEnd(), ev.stop()]);
    const events = await collect(
      createHookInterceptor(
        options(hooks, {
          onSendMessage: () => {
            throw new Error("no agent named Bob");
          },
        }),
      )(agent.run),
    );
    expect(warnings(events).join("\n")).toContain("could not be sent (no agent named Bob)");
  });

  it("suppress is ignored with a warning on an event that cannot take it", async () => {
    const hooks = [
      await answerHook(dir.path, "quiet", { suppress: true }, { events: ["before_tool"] }),
    ];
    const agent = fakeAgent([ev.toolStart()]);
    const events = await collect(createHookInterceptor(options(hooks))(agent.run));
    expect(agent.verdicts[0]?.verdict).toEqual({ action: "continue" });
    expect(warnings(events)).toContain(
      'hook "quiet" answered suppress, which before_tool cannot take; ignored',
    );
  });

  it("a message past 5,000 characters is a hook failure naming the limit", async () => {
    const hooks = [
      await answerHook(
        dir.path,
        "chatty",
        { sendMessage: { to: "Bob", content: "y".repeat(5001) } },
        { events: ["after_tool"] },
      ),
    ];
    const sent: HookSentMessage[] = [];
    const agent = fakeAgent([ev.toolEnd()]);
    const events = await collect(
      createHookInterceptor(options(hooks, { onSendMessage: (m) => void sent.push(m) }))(agent.run),
    );
    expect(sent).toEqual([]);
    expect(warnings(events).join("\n")).toMatch(
      /hook "chatty" failed: .*sendMessage\.content is longer than agent-relay's limit of 5000 characters/,
    );
  });
});
