import { describe, expect, it } from "vitest";
import type { HookDefinition } from "../../../source/hooks/contract/definition.js";
import {
  lowerFirstPriority,
  type RawRegistration,
  registrationHook,
} from "../../../source/hooks/contract/plugin-registration.js";
import { translateOpenClawAnswer } from "../../../source/hooks/run/plugins/openclaw.js";
import { handlerArgument } from "../../../source/hooks/run/plugins/shapes.js";

const source = { file: "/p/.acai/plugins/x.mjs", scope: "project" as const, projectDir: "/p" };
const reg = (r: Partial<RawRegistration>): RawRegistration => ({
  shape: "acai",
  events: ["before_tool"],
  options: {},
  ...r,
});

describe("plugin registrations", () => {
  it("api.on: acai's options, any acai or Claude Code event name", () => {
    const hook = registrationHook(
      reg({
        events: ["PreToolUse"],
        options: {
          name: "g",
          priority: 700,
          matcher: { tool: "Bash" },
          timeoutMs: 500,
          failure: "closed",
          maxRetries: 1,
        },
      }),
      2,
      source,
    );
    expect(hook).toMatchObject({
      id: "project:plugin:/p/.acai/plugins/x.mjs#2",
      name: "g",
      events: ["before_tool"],
      priority: 700,
      matcher: { tool: "Bash" },
      timeoutMs: 500,
      failure: "closed",
      maxRetries: 1,
      sourceKind: "plugin",
      launch: { mode: "plugin", command: source.file, args: ["#2"], registration: 2 },
    });
  });

  it("refuses an unknown event, an unknown matcher key or option, naming it", () => {
    expect(registrationHook(reg({ events: ["before_everything"] }), 0, source)).toMatch(
      /unknown event "before_everything"/,
    );
    expect(registrationHook(reg({ options: { matcher: { tools: "Bash" } } }), 0, source)).toMatch(
      /unknown matcher key "tools"/,
    );
    expect(registrationHook(reg({ options: { priorty: 5 } }), 0, source)).toMatch(/priorty/);
  });

  it("OpenClaw: its hook names, lower priority first placed at 1000 − p", () => {
    const hook = registrationHook(
      reg({ shape: "openclaw", events: ["before-tool-call"], options: { priority: 10 } }),
      0,
      source,
    );
    expect(hook).toMatchObject({ events: ["before_tool"], priority: 990 });
    expect(
      registrationHook(reg({ shape: "openclaw", events: ["after_tool_call"] }), 0, source),
    ).toMatchObject({ events: ["after_tool", "after_tool_failure"], priority: 1000, async: true });
    expect(
      registrationHook(reg({ shape: "openclaw", events: ["gateway-reload"] }), 0, source),
    ).toMatch(/OpenClaw hook "gateway-reload" is unknown/);
  });

  it("A3S: event types, matchers (tool exact, path_pattern, command_pattern, session_id) and config", () => {
    const hook = registrationHook(
      reg({
        shape: "a3s",
        name: "block-rm-rf",
        events: ["pre_tool_use"],
        options: {
          matcher: {
            tool: "Bash",
            command_pattern: "rm\\s+-rf",
            path_pattern: "src/**",
            session_id: "s-1",
          },
          config: { priority: 1, timeout_ms: 2000, async_execution: true, max_retries: 2 },
        },
      }),
      0,
      source,
    );
    expect(hook).toMatchObject({
      name: "block-rm-rf",
      events: ["before_tool"],
      priority: 999,
      matcher: { tool: "Bash", command: "rm\\s+-rf", path: "src/**", session_id: "s-1" },
      timeoutMs: 2000,
      async: true,
      maxRetries: 2,
    });
    expect(
      registrationHook(reg({ shape: "a3s", events: ["GenerateStart"] }), 0, source),
    ).toMatchObject({
      events: ["before_model"],
    });
  });

  it("api.pattern: the pattern event, exactly its namespace", () => {
    const hook = registrationHook(
      reg({
        shape: "pattern",
        events: ["pattern"],
        options: { namespace: "deploy.x", priority: 300 },
      }),
      0,
      source,
    );
    expect(hook).toMatchObject({
      events: ["pattern"],
      priority: 300,
      matcher: { namespace: "deploy\\.x" },
    });
  });

  it("askAhead: api.on's and api.pattern's option, A3S's config.ask_ahead; not a boolean is refused", () => {
    expect(registrationHook(reg({ options: { askAhead: true } }), 0, source)).toMatchObject({
      askAhead: true,
      launch: { mode: "plugin" },
    });
    expect(
      registrationHook(reg({ options: { askAhead: false } }), 0, source) as HookDefinition,
    ).not.toHaveProperty("askAhead");
    expect(registrationHook(reg({}), 0, source) as HookDefinition).not.toHaveProperty("askAhead");
    expect(
      registrationHook(
        reg({ shape: "pattern", events: ["pattern"], options: { namespace: "n", askAhead: true } }),
        0,
        source,
      ),
    ).toMatchObject({ askAhead: true });
    expect(
      registrationHook(
        reg({ shape: "a3s", events: ["PreToolUse"], options: { config: { ask_ahead: true } } }),
        0,
        source,
      ),
    ).toMatchObject({ askAhead: true });
    expect(registrationHook(reg({ options: { askAhead: "yes" } }), 0, source)).toMatch(
      /^invalid options: askAhead: /,
    );
    expect(
      registrationHook(
        reg({ shape: "a3s", events: ["PreToolUse"], options: { config: { ask_ahead: "yes" } } }),
        0,
        source,
      ),
    ).toMatch(/^invalid options: config\.ask_ahead: /);
  });

  it("places lower-first priorities on acai's scale, clamped; none given: the system's default", () => {
    const placed = [1, 10, 100, 1000, 5000, -3, 2.4, undefined].map((p) =>
      lowerFirstPriority(p, 100),
    );
    expect(placed).toEqual([999, 990, 900, 0, 0, 1000, 998, 900]);
    expect(lowerFirstPriority(undefined, 0)).toBe(1000);
  });
});

describe("what handlers receive and how OpenClaw answers read", () => {
  const payload = { session_id: "s", cwd: "/p", tool_name: "Bash", tool_input: { command: "ls" } };

  it("A3S handlers get { event_type, payload: { tool, args, session_id } }", () => {
    expect(handlerArgument("a3s", "before_tool", payload)).toMatchObject({
      event_type: "PreToolUse",
      payload: { tool: "Bash", args: { command: "ls" }, session_id: "s", working_directory: "/p" },
    });
  });

  it("OpenClaw handlers get its context names beside the payload", () => {
    expect(handlerArgument("openclaw", "before_tool", payload)).toMatchObject({
      toolName: "Bash",
      params: { command: "ls" },
      sessionKey: "s",
      tool_input: { command: "ls" },
    });
  });

  it("OpenClaw's { block, blockReason } and { params } become acai answers", () => {
    expect(translateOpenClawAnswer({ block: true, blockReason: "no" })).toEqual({
      action: "block",
      reason: "no",
    });
    expect(translateOpenClawAnswer({ params: { command: "ls -a" } })).toEqual({
      action: "modify",
      input: { command: "ls -a" },
    });
    expect(translateOpenClawAnswer({ action: "block" })).toEqual({ action: "block" });
  });
});
