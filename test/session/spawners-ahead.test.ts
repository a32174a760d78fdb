/**
 * Which hooks' sandbox spawners start ahead (session/spawners-ahead.ts): those
 * that start a process on an event raised before the first model request.
 */
import { describe, expect, it } from "vitest";
import type { HookDefinition } from "../../source/hooks/contract/definition.js";
import {
  hooksBeforeFirstRequest,
  startSpawnersAhead,
} from "../../source/session/spawners-ahead.js";
import { makeHook } from "../hooks/support.js";

describe("spawners started ahead", () => {
  const spawned = (name: string, events: HookDefinition["events"]) => makeHook({ name, events });
  const hooks = [
    spawned("start", ["session_start"]),
    spawned("prompt", ["user_prompt"]),
    spawned("model", ["before_model"]),
    spawned("instructions", ["instructions_loaded"]),
    spawned("tool", ["before_tool"]),
    spawned("both", ["after_tool", "user_prompt"]),
    makeHook({
      name: "persistent",
      events: ["session_start"],
      launch: { command: "/bin/cat", args: [], viaShell: false, mode: "persistent" },
    }),
    makeHook({
      name: "http",
      events: ["session_start"],
      launch: {
        mode: "http",
        command: "http://127.0.0.1:9/",
        args: [],
        viaShell: false,
        url: "http://127.0.0.1:9/",
        headers: {},
        allowedEnvVars: [],
      },
    }),
  ];

  it("are those of hooks that start a process on an event before the first request", () => {
    expect(hooksBeforeFirstRequest(hooks).map((h) => h.name)).toEqual([
      "start",
      "prompt",
      "model",
      "instructions",
      "both",
      "persistent",
    ]);
  });

  it("each is prepared once through the session's sandbox", () => {
    const prepared: string[] = [];
    const prepareFor = (hook: HookDefinition) => {
      prepared.push(hook.name);
    };
    startSpawnersAhead(hooks, { prepareFor });
    expect(prepared).toEqual(["start", "prompt", "model", "instructions", "both", "persistent"]);
    startSpawnersAhead([spawned("late", ["before_stop"])], { prepareFor });
    expect(prepared).toHaveLength(6);
  });
});
