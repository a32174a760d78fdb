/**
 * OpenClaw's 13 hooks on acai's events (source/hooks/contract/openclaw.ts):
 * each registration's events, whether it is void (async: parallel, not
 * waited for), its matcher; what its handler receives (every context field
 * of the seed) and how its answers read.
 */
import { describe, expect, it } from "vitest";
import type { HookDefinition } from "../../../source/hooks/contract/definition.js";
import { OPENCLAW_EVENTS } from "../../../source/hooks/contract/events/names.js";
import { OPENCLAW_HOOKS } from "../../../source/hooks/contract/openclaw.js";
import { registrationHook } from "../../../source/hooks/contract/plugin-registration.js";
import {
  openClawContext,
  translateOpenClawAnswer,
} from "../../../source/hooks/run/plugins/openclaw.js";

const source = { file: "/p/.acai/plugins/claw.mjs", scope: "project" as const, projectDir: "/p" };

function hookFor(event: string, priority?: number): HookDefinition {
  const options = priority === undefined ? {} : { priority };
  const hook = registrationHook({ shape: "openclaw", events: [event], options }, 0, source);
  if (typeof hook === "string") throw new Error(hook);
  return hook;
}

describe("OpenClaw's hooks on acai's events", () => {
  const table: [string, string[], boolean][] = [
    ["gateway-start", ["session_start"], true],
    ["gateway-stop", ["session_end"], true],
    ["session-start", ["session_start"], true],
    ["session-end", ["session_end"], true],
    ["before-agent-start", ["user_prompt"], false],
    ["message-received", ["user_prompt"], false],
    ["message-sending", ["before_message_send"], false],
    ["message-sent", ["after_agent"], true],
    ["before-tool-call", ["before_tool"], false],
    ["after-tool-call", ["after_tool", "after_tool_failure"], true],
    ["before-compaction", ["pre_compact"], false],
    ["after-compaction", ["post_compact"], true],
    ["tool-result-persist", ["after_tool"], false],
  ];

  it.each(table)("%s → %j (void: %s), in either spelling", (name, events, isVoid) => {
    for (const spelling of [name, name.replaceAll("-", "_")]) {
      expect(hookFor(spelling)).toMatchObject({ events, async: isVoid, priority: 1000 });
    }
  });

  it("the table covers every hook OpenClaw has", () => {
    expect(table).toHaveLength(13);
    expect(Object.keys(OPENCLAW_EVENTS).sort()).toEqual(table.map(([n]) => n).sort());
    expect(Object.keys(OPENCLAW_HOOKS).sort()).toEqual(table.map(([n]) => n).sort());
  });

  it("gateway-start and session-start are the session's start, not its restart after a compaction", () => {
    expect(hookFor("gateway-start").matcher).toEqual({ source: "startup|resume" });
    expect(hookFor("session-start").matcher).toEqual({ source: "startup|resume" });
  });

  it("an unknown hook is refused with OpenClaw's names", () => {
    const r = registrationHook(
      { shape: "openclaw", events: ["agent-end"], options: {} },
      0,
      source,
    );
    expect(r).toMatch(/OpenClaw hook "agent-end" is unknown; OpenClaw's hooks are gateway-start/);
    expect(
      registrationHook({ shape: "openclaw", events: ["__proto__"], options: {} }, 0, source),
    ).toMatch(/is unknown/);
  });

  it("priorities: lower first, unset (0) before 100, placed at 1000 − p", () => {
    expect(hookFor("before-tool-call").priority).toBe(1000);
    expect(hookFor("before-tool-call", 100).priority).toBe(900);
    expect(hookFor("before-tool-call", 5000).priority).toBe(0);
    expect(hookFor("before-tool-call", -5).priority).toBe(1000);
  });
});

describe("an OpenClaw handler's context", () => {
  const common = {
    session_id: "s-1",
    prompt_id: "p-3",
    cwd: "/work/project",
    permission_mode: "default",
    agent_name: "bob",
  };
  const session = { agentDir: "/home/u/.acai", model: "gpt-5.1" };

  it("agent context: runId, config, workspaceDir, agentDir", () => {
    expect(
      openClawContext({ ...common, prompt: "hi" }, "before-agent-start", session),
    ).toMatchObject({
      runId: "p-3",
      workspaceDir: "/work/project",
      agentDir: "/home/u/.acai",
      config: {
        model: "gpt-5.1",
        permissionMode: "default",
        agentName: "bob",
        workspaceDir: "/work/project",
      },
      prompt: "hi",
    });
  });

  it("message context: sessionKey, channel, senderId, direction", () => {
    expect(openClawContext({ ...common, prompt: "hi" }, "message-received", session)).toMatchObject(
      {
        sessionKey: "s-1",
        channel: "acai",
        senderId: "user",
        direction: "received",
        content: "hi",
      },
    );
    expect(
      openClawContext({ ...common, last_assistant_message: "done" }, "message-sent", session),
    ).toMatchObject({
      sessionKey: "s-1",
      senderId: "bob",
      direction: "sent",
      to: "user",
      content: "done",
    });
    expect(openClawContext(common, "before-tool-call", session)).not.toHaveProperty("direction");
  });

  it("tool context: runId, toolName, args before, result after, error on a failure", () => {
    const input = { command: "ls" };
    expect(
      openClawContext({ ...common, tool_name: "Bash", tool_input: input }, "before-tool-call"),
    ).toMatchObject({ runId: "p-3", toolName: "Bash", args: input, params: input });
    expect(
      openClawContext(
        {
          ...common,
          tool_name: "Bash",
          tool_input: input,
          tool_response: { stdout: "a" },
          duration_ms: 4,
        },
        "after-tool-call",
      ),
    ).toMatchObject({ toolName: "Bash", args: input, result: { stdout: "a" }, durationMs: 4 });
    expect(
      openClawContext(
        { ...common, tool_name: "Read", tool_input: {}, error: "ENOENT" },
        "after-tool-call",
      ),
    ).toMatchObject({ toolName: "Read", error: "ENOENT" });
  });

  it("session context: sessionKey, channel; compaction: messageCount, tokenCount", () => {
    expect(openClawContext(common, "session-start")).toMatchObject({
      sessionKey: "s-1",
      channel: "acai",
    });
    expect(
      openClawContext({ ...common, tokens_before: 900, message_count: 12 }, "before-compaction"),
    ).toMatchObject({ tokenCount: 900, messageCount: 12 });
  });
});

describe("OpenClaw's answers in acai's dialect", () => {
  it("before-tool-call: { block, blockReason }, { params }", () => {
    expect(translateOpenClawAnswer({ block: true, blockReason: "no" }, "before_tool")).toEqual({
      action: "block",
      reason: "no",
    });
    expect(translateOpenClawAnswer({ params: { command: "ls -a" } }, "before_tool")).toEqual({
      action: "modify",
      input: { command: "ls -a" },
    });
  });

  it("message-received: { cancel } drops the prompt, { content } replaces it; before-agent-start: context", () => {
    expect(translateOpenClawAnswer({ cancel: true }, "user_prompt")).toEqual({
      action: "block",
      reason: "cancelled",
    });
    expect(translateOpenClawAnswer({ content: "new" }, "user_prompt")).toEqual({
      action: "modify",
      prompt: "new",
    });
    expect(
      translateOpenClawAnswer({ prependContext: "ctx", systemPrompt: "sys" }, "user_prompt"),
    ).toEqual({ context: "sys\n\nctx" });
  });

  it("tool-result-persist: { message } or { result } is what is stored for the result", () => {
    expect(translateOpenClawAnswer({ result: "redacted" }, "after_tool")).toEqual({
      action: "modify",
      output: "redacted",
    });
    expect(
      translateOpenClawAnswer(
        {
          message: {
            content: [
              { type: "text", text: "a" },
              { type: "text", text: "b" },
            ],
          },
        },
        "after_tool",
      ),
    ).toEqual({ action: "modify", output: "ab" });
    expect(
      translateOpenClawAnswer({ message: { role: "tool", content: "x" } }, "after_tool"),
    ).toEqual({
      action: "modify",
      output: "x",
    });
  });

  it("an answer in a dialect acai reads is left as it is", () => {
    expect(translateOpenClawAnswer({ action: "block" }, "user_prompt")).toEqual({
      action: "block",
    });
    expect(translateOpenClawAnswer({ decision: "block" }, "after_tool")).toEqual({
      decision: "block",
    });
  });
});
