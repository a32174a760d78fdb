/**
 * The gate before a message to another agent goes out (before_message_send,
 * hooks/run/send-gate.ts), raised beside the loop through the interceptor's
 * `gate`: a rewrite chains, a block or a stop keeps the message unsent, an
 * ask nobody can answer denies, and with no run going on a hook that could
 * not judge the message keeps it unsent.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../source/agent/events.js";
import type { HookDefinition } from "../../../source/hooks/contract/definition.js";
import type { InterceptedEvent } from "../../../source/hooks/run/activity.js";
import { createHookInterceptor } from "../../../source/hooks/run/interceptor.js";
import type { SendVerdict } from "../../../source/hooks/run/send-gate.js";
import {
  answerHook,
  bashHook,
  ev,
  fakeAgent,
  interceptorOptions,
  tempDirPerTest,
} from "./intercept/support.js";

const dir = tempDirPerTest("acai-send-gate-");

const sending: Extract<AgentEvent, { type: "before_message_send" }> = {
  type: "before_message_send",
  message: { from: "alice", to: "bob", content: "the key is sk-123" },
};

/** Runs a short session and asks the gate while it runs; the verdict and everything yielded. */
async function gateDuringRun(
  hooks: HookDefinition[],
): Promise<{ verdict: SendVerdict | undefined; events: InterceptedEvent[] }> {
  const intercept = createHookInterceptor(interceptorOptions(dir.path, { hooks }));
  const agent = fakeAgent([
    ev.sessionStart(),
    ev.turnEnd(),
    { type: "session_end", reason: "completed" },
  ]);
  const events: InterceptedEvent[] = [];
  let verdict: SendVerdict | undefined;
  for await (const event of intercept(agent.run)) {
    events.push(event);
    if (event.type === "session_start") verdict = await intercept.gate(sending);
  }
  return { verdict, events };
}

const onSend = { events: ["before_message_send" as const] };

describe("before_message_send, the gate before a message is sent", () => {
  it("with no hook the message goes as it is", async () => {
    const { verdict } = await gateDuringRun([]);
    expect(verdict).toEqual({ send: true, content: "the key is sk-123" });
  });

  it("rewrites chain in priority order (acai's: higher first), each hook seeing the text before it; its activity is yielded", async () => {
    const redact = await answerHook(
      dir.path,
      "redact",
      { action: "modify", prompt: "the key is [key]" },
      { ...onSend, priority: 20 },
    );
    const sign = await bashHook(
      dir.path,
      "sign",
      `cat > "$OUT/second.json"; echo '{"action":"modify","prompt":"signed"}'`,
      { ...onSend, priority: 10 },
    );
    const { verdict, events } = await gateDuringRun([sign, redact]);
    expect(verdict).toEqual({ send: true, content: "signed" });
    const second = JSON.parse(await readFile(join(dir.path, "second.json"), "utf8"));
    expect(second).toMatchObject({
      event: "before_message_send",
      from: "alice",
      to: "bob",
      content: "the key is [key]",
      broadcast: false,
      agent_name: "alice",
    });
    const ended = events
      .filter((e) => e.type === "hook_end")
      .map((e) => e.type === "hook_end" && e.hook.name);
    expect(ended).toEqual(["redact", "sign"]);
  });

  it("a block, a stop or an ask nobody answers keeps the message unsent, with the reason and the hook", async () => {
    for (const answer of [
      { action: "block", reason: "no keys to other agents" },
      { action: "stop", reason: "no keys to other agents" },
    ]) {
      const hook = await answerHook(dir.path, "guard", answer, onSend);
      const { verdict } = await gateDuringRun([hook]);
      expect(verdict).toEqual({ send: false, reason: "no keys to other agents", hook: "guard" });
    }
    const ask = await answerHook(dir.path, "asker", { action: "ask", reason: "send it?" }, onSend);
    const { verdict } = await gateDuringRun([ask]);
    expect(verdict).toMatchObject({ send: false, hook: "asker" });
    expect(verdict?.send === false && verdict.reason).toContain("denied");
  });

  it("a recipient matcher picks the messages its hook judges", async () => {
    const hook = await answerHook(
      dir.path,
      "to-carol-only",
      { action: "block", reason: "not to carol" },
      { ...onSend, matcher: { source: "carol" } },
    );
    const { verdict } = await gateDuringRun([hook]);
    expect(verdict).toEqual({ send: true, content: "the key is sk-123" });
  });

  it("with no run going on, a message a hook would judge is not sent; with no such hook it goes", async () => {
    const hook = await answerHook(dir.path, "guard", { action: "continue" }, onSend);
    const guarded = createHookInterceptor(interceptorOptions(dir.path, { hooks: [hook] }));
    expect(await guarded.gate(sending)).toMatchObject({ send: false });
    const open = createHookInterceptor(interceptorOptions(dir.path, { hooks: [] }));
    expect(await open.gate(sending)).toEqual({ send: true, content: "the key is sk-123" });
  });
});
