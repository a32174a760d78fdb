import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../source/agent/events.js";
import { sampleAgentEvent } from "../../source/cli/hooks/samples.js";
import { HOOK_EVENTS, type HookEventName } from "../../source/hooks/contract/definition.js";
import { HOOK_EVENT_OF } from "../../source/hooks/contract/events/names.js";
import { buildPayload } from "../../source/hooks/contract/payload.js";
import {
  createHook,
  type HookIO,
  isTool,
  PAYLOAD_SCHEMAS,
  runHook,
} from "../../source/sdk/hooks.js";

function io(env: Record<string, string>, stdin: string) {
  const out = { stdout: "", stderr: "" };
  const value: HookIO = {
    env,
    stdin: (async function* () {
      // Split in two chunks with a multi-byte character across them: the helper must reassemble it.
      const bytes = Buffer.from(stdin, "utf8");
      yield bytes.subarray(0, Math.floor(bytes.length / 2));
      yield bytes.subarray(Math.floor(bytes.length / 2));
    })(),
    stdout: async (text) => {
      out.stdout += text;
    },
    stderr: async (text) => {
      out.stderr += text;
    },
  };
  return { io: value, out };
}

async function payloadFor(
  event: HookEventName,
  toolName = "Bash",
): Promise<Record<string, unknown>> {
  const agentEvent = await sampleAgentEvent({
    event,
    toolName,
    projectDir: "/tmp/project",
    sessionId: "s-1",
    transcriptPath: "/tmp/t.jsonl",
    model: "m",
  });
  return buildPayload({
    event,
    agentEvent,
    session: { sessionId: "s-1", transcriptPath: "/tmp/t.jsonl", cwd: "/tmp/project" },
    dialect: "acai",
    now: Date.parse("2026-01-02T03:04:05.000Z"),
  });
}

const timeoutHook = createHook(
  { name: "bash-timeout", events: ["before_tool"], matcher: { tool: "Bash" }, priority: 200 },
  (event) => {
    if (!isTool(event, "Bash")) return;
    if ((event.tool_input.timeout ?? Number.POSITIVE_INFINITY) > 120_000) {
      return { action: "modify", input_patch: { timeout: 120_000 } };
    }
  },
);

describe("acai-agent/hooks typed helper", () => {
  it("prints its metadata for HOOK_ACTION=describe without reading stdin", async () => {
    const { io: hookIo, out } = io({ HOOK_ACTION: "describe" }, "");
    expect(await runHook(timeoutHook, hookIo)).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({
      name: "bash-timeout",
      events: ["before_tool"],
      matcher: { tool: "Bash" },
      priority: 200,
    });
  });

  it("validates stdin, calls the handler and prints its answer", async () => {
    const payload = await payloadFor("before_tool");
    payload.tool_input = { command: "sleep 1 # é", timeout: 600_000 };
    const { io: hookIo, out } = io({ HOOK_ACTION: "execute" }, JSON.stringify(payload));
    expect(await runHook(timeoutHook, hookIo)).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({ action: "modify", input_patch: { timeout: 120_000 } });
    expect(out.stderr).toBe("");
  });

  it("prints nothing when the handler returns nothing (continue)", async () => {
    const payload = await payloadFor("before_tool");
    payload.tool_input = { command: "ls", timeout: 1000 };
    const { io: hookIo, out } = io({}, JSON.stringify(payload));
    expect(await runHook(timeoutHook, hookIo)).toBe(0);
    expect(out.stdout).toBe("");
  });

  it("fails (exit 1, message on stderr) on garbage stdin, a wrong event, a bad payload, a throw, a bad answer", async () => {
    const cases: { hook: typeof timeoutHook; stdin: string; message: RegExp }[] = [
      { hook: timeoutHook, stdin: "not json", message: /bash-timeout: stdin is not JSON/ },
      {
        hook: timeoutHook,
        stdin: JSON.stringify(await payloadFor("user_prompt")),
        message: /received event "user_prompt", but this hook only handles before_tool/,
      },
      {
        hook: timeoutHook,
        stdin: JSON.stringify({ ...(await payloadFor("before_tool")), tool_name: 42 }),
        message: /invalid before_tool payload on stdin: tool_name/,
      },
      {
        hook: createHook({ name: "thrower", events: ["before_tool"] }, () => {
          throw new Error("boom");
        }),
        stdin: JSON.stringify(await payloadFor("before_tool")),
        message: /thrower: handler threw: boom/,
      },
      {
        hook: createHook({ name: "bad-answer", events: ["before_tool"] }, () => ({
          action: "explode" as "block",
        })),
        stdin: JSON.stringify(await payloadFor("before_tool")),
        message: /bad-answer" returned an invalid answer: action/,
      },
    ];
    for (const c of cases) {
      const { io: hookIo, out } = io({}, c.stdin);
      expect(await runHook(c.hook as typeof timeoutHook, hookIo)).toBe(1);
      expect(out.stderr).toMatch(c.message);
      expect(out.stderr).not.toMatch(/\n\s+at /); // no stack unless ACAI_HOOK_DEBUG
      expect(out.stdout).toBe("");
    }
  });

  it("carries ask_ahead in the metadata it describes; refuses one that is not a boolean", () => {
    const hook = createHook(
      { name: "pure", events: ["before_tool"], mode: "persistent", ask_ahead: true },
      () => {},
    );
    expect(hook.metadata).toMatchObject({ mode: "persistent", ask_ahead: true });
    expect(() =>
      createHook(
        { name: "x", events: ["before_tool"], ask_ahead: "yes" as unknown as boolean },
        () => {},
      ),
    ).toThrow(/invalid metadata for hook "x": ask_ahead/);
  });

  it("rejects invalid metadata when the hook is defined", () => {
    expect(() =>
      createHook({ name: "x", events: ["before_tool"], priority: 5000 }, () => {}),
    ).toThrow(/invalid metadata for hook "x": priority/);
    expect(() => createHook({ name: "x", events: ["nope" as "before_tool"] }, () => {})).toThrow(
      /unknown event "nope"/,
    );
  });
});

describe("payload schemas", () => {
  it("accept what acai actually sends for every event, and declare every field it sends", async () => {
    for (const event of HOOK_EVENTS) {
      for (const tool of ["Bash", "Write", "my_dynamic_tool"]) {
        const payload = await payloadFor(event, tool);
        const schema = PAYLOAD_SCHEMAS[event];
        const parsed = schema.safeParse(payload);
        expect(parsed.success, `${event}/${tool}: ${parsed.error?.message}`).toBe(true);
        const declared = Object.keys(schema.shape);
        const undeclared = Object.keys(payload).filter((key) => !declared.includes(key));
        expect(undeclared, `${event} sends fields the schema does not declare`).toEqual([]);
      }
    }
  });

  it("cover exactly the events the interceptor maps agent events to", () => {
    const mapped = new Set(Object.values(HOOK_EVENT_OF));
    expect([...mapped].sort()).toEqual([...HOOK_EVENTS].sort());
    expect(Object.keys(PAYLOAD_SCHEMAS).sort()).toEqual([...HOOK_EVENTS].sort());
  });

  it("keep Claude Code's field names for a Bash after_tool", () => {
    const agentEvent: AgentEvent = {
      type: "tool_call_end",
      turn: 1,
      step: 1,
      toolCallId: "c",
      toolName: "Bash",
      input: { command: "ls" },
      output: "a",
      response: { stdout: "a\n", stderr: "", exit_code: 0, interrupted: false },
      durationMs: 3,
    };
    const payload = buildPayload({
      event: "after_tool",
      agentEvent,
      session: { sessionId: "s", transcriptPath: "/t", cwd: "/p" },
      dialect: "acai",
      now: 0,
    });
    const parsed = PAYLOAD_SCHEMAS.after_tool.parse(payload);
    expect(parsed.hook_event_name).toBe("PostToolUse");
    expect(parsed.tool_response).toEqual({
      stdout: "a\n",
      stderr: "",
      exit_code: 0,
      interrupted: false,
    });
  });
});
