import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../../source/agent/events.js";
import type { InterceptedEvent } from "../../../../source/hooks/run/activity.js";
import { createHookInterceptor } from "../../../../source/hooks/run/interceptor.js";
import { bashHook, ev, fakeAgent, interceptorOptions, tempDirPerTest } from "./support.js";

const dir = tempDirPerTest("acai-beside-");

const sent: Extract<AgentEvent, { type: "message_sent" }> = {
  type: "message_sent",
  message: { from: "alice", to: "bob", content: "hi", delivered: ["bob"], kept: [] },
};

describe("events raised beside the loop (message_sent)", () => {
  it("are yielded and run their hooks, and the agent's steps are never lost to the wake", async () => {
    const hook = await bashHook(dir.path, "sent-log", `cat > "$OUT/sent.json"`, {
      events: ["message_sent"],
    });
    const intercept = createHookInterceptor(interceptorOptions(dir.path, { hooks: [hook] }));
    const agent = fakeAgent([
      ev.sessionStart(),
      ev.turnEnd(),
      { type: "session_end", reason: "completed" },
    ]);
    const events: InterceptedEvent[] = [];
    for await (const event of intercept(agent.run)) {
      events.push(event);
      // Raised while the consumer handles an event: the loop is not waiting for the agent.
      if (event.type === "session_start") await intercept.raise(sent);
    }
    const types = events.map((e) => e.type);
    expect(types).toContain("message_sent");
    expect(types).toContain("turn_end");
    expect(types.at(-1)).toBe("session_end");
    const payload = JSON.parse(await readFile(join(dir.path, "sent.json"), "utf8"));
    expect(payload).toMatchObject({
      event: "message_sent",
      from: "alice",
      to: "bob",
      content: "hi",
      delivered_to: ["bob"],
      agent_name: "alice",
    });
  });

  it("with no run going on, nothing happens", async () => {
    const intercept = createHookInterceptor(interceptorOptions(dir.path));
    await expect(intercept.raise(sent)).resolves.toBeUndefined();
  });
});
