import { describe, expect, it } from "vitest";
import type { HookRef, InterceptedEvent } from "../../source/hooks/run/activity.js";
import { type Item, initialViewState, reduce, type ViewState } from "../../source/repl/state.js";

const hook: HookRef = {
  id: "user:executable:guard",
  name: "guard",
  scope: "user",
  sourceKind: "executable",
};
const usage = (i: number, o: number) => ({ inputTokens: i, outputTokens: o, totalTokens: i + o });

function run(
  events: InterceptedEvent[],
  state: ViewState = initialViewState(),
  start = 1000,
): ViewState {
  let at = start;
  for (const event of events) {
    at += 10;
    state = reduce(state, { type: "event", event, at });
  }
  return state;
}

const kinds = (state: ViewState) => state.items.map((i) => i.kind);
const texts = (state: ViewState) =>
  state.items.flatMap((i) => (i.kind === "assistant" ? [i.text] : []));

describe("view-state reducer", () => {
  it("session_start sets model and session id", () => {
    const s = run([
      {
        type: "session_start",
        sessionId: "s1",
        model: "m1",
        cwd: "/",
        transcriptPath: "/t",
        source: "startup",
      },
    ]);
    expect(s.model).toBe("m1");
    expect(s.sessionId).toBe("s1");
    expect(s.items).toEqual([]);
  });

  it("echoes the prompt and starts a turn", () => {
    const s = run([
      { type: "user_prompt", turn: 1, prompt: "hello" },
      { type: "turn_start", turn: 1, prompt: "hello" },
    ]);
    expect(s.items).toMatchObject([{ kind: "user", text: "hello" }]);
    expect(s.turn).toMatchObject({ number: 1, startedAt: 1010, aborting: false });
  });

  it("streams text: finished lines go to items, the open line stays live", () => {
    let s = run([
      { type: "text_delta", turn: 1, step: 1, text: "Hel" },
      { type: "text_delta", turn: 1, step: 1, text: "lo\nwor" },
    ]);
    expect(texts(s)).toEqual(["Hello"]);
    expect(s.stream?.text).toBe("wor");
    s = run([{ type: "text_delta", turn: 1, step: 1, text: "ld" }], s);
    expect(s.stream?.text).toBe("world");
    s = run(
      [
        {
          type: "model_response",
          turn: 1,
          step: 1,
          model: "m2",
          text: "Hello\nworld",
          toolCalls: [],
          usage: usage(10, 5),
          finishReason: "stop",
          durationMs: 5,
        },
      ],
      s,
    );
    // Not repeated from model_response.text: the step streamed.
    expect(texts(s)).toEqual(["Hello", "world"]);
    expect(s.items.map((i) => (i.kind === "assistant" ? i.continued : null))).toEqual([
      false,
      true,
    ]);
    expect(s.stream).toBeNull();
    expect(s.model).toBe("m2");
  });

  it("uses model_response.text when nothing streamed, even if a hook line flushed in between", () => {
    const s = run([
      { type: "user_prompt", turn: 1, prompt: "p" },
      {
        type: "model_response",
        turn: 1,
        step: 1,
        model: "m",
        text: "whole answer\n",
        toolCalls: [],
        usage: usage(3, 4),
        finishReason: "stop",
        durationMs: 1,
      },
    ]);
    expect(texts(s)).toEqual(["whole answer"]);
    expect(s.turn?.usage).toEqual(usage(3, 4));
  });

  it("does not duplicate streamed text when a hook line flushed the stream before model_response", () => {
    const s = run([
      { type: "text_delta", turn: 1, step: 1, text: "partial" },
      {
        type: "hook_end",
        hook,
        event: "after_model",
        outcome: "block",
        detail: "budget",
        durationMs: 3,
      },
      {
        type: "model_response",
        turn: 1,
        step: 1,
        model: "m",
        text: "partial",
        toolCalls: [],
        usage: usage(1, 1),
        finishReason: "stop",
        durationMs: 1,
      },
    ]);
    expect(texts(s)).toEqual(["partial"]);
    expect(kinds(s)).toEqual(["assistant", "hook"]);
  });

  it("tool blocks: live while running, finished into items with duration and output", () => {
    let s = run([
      { type: "text_delta", turn: 1, step: 1, text: "Let me look" },
      {
        type: "tool_call_start",
        turn: 1,
        step: 1,
        toolCallId: "c1",
        toolName: "Bash",
        input: { command: "ls" },
      },
    ]);
    expect(texts(s)).toEqual(["Let me look"]);
    expect(s.tools).toHaveLength(1);
    expect(s.tools[0]).toMatchObject({ status: "running", seq: 1, toolName: "Bash" });
    s = run(
      [
        {
          type: "tool_call_end",
          turn: 1,
          step: 1,
          toolCallId: "c1",
          toolName: "Bash",
          input: { command: "ls -a" },
          output: "a\nb",
          response: {},
          durationMs: 42,
        },
      ],
      s,
    );
    expect(s.tools).toEqual([]);
    const tool = s.items.find((i) => i.kind === "tool");
    expect(tool).toMatchObject({
      tool: { status: "ok", durationMs: 42, output: "a\nb", seq: 1, input: { command: "ls -a" } },
    });
  });

  it("tool errors map to blocked / interrupted / error", () => {
    const base = {
      type: "tool_call_error",
      turn: 1,
      step: 1,
      toolName: "Bash",
      input: {},
      durationMs: 1,
    } as const;
    const s = run([
      { ...base, toolCallId: "a", error: "guard said no", blocked: true, interrupted: false },
      { ...base, toolCallId: "b", error: "aborted", blocked: false, interrupted: true },
      { ...base, toolCallId: "c", error: "exit 1", blocked: false, interrupted: false },
    ]);
    expect(s.items.map((i) => (i.kind === "tool" ? [i.tool.status, i.tool.seq] : null))).toEqual([
      ["blocked", 1],
      ["interrupted", 2],
      ["error", 3],
    ]);
  });

  it("hooks: running list, last decision per hook, inline lines for notable outcomes only", () => {
    let s = run([{ type: "hook_start", hook, event: "before_tool", startedAt: 500 }]);
    expect(s.hooks).toMatchObject([
      { hook: { name: "guard" }, event: "before_tool", startedAt: 500 },
    ]);
    s = run(
      [{ type: "hook_end", hook, event: "before_tool", outcome: "continue", durationMs: 2 }],
      s,
    );
    expect(s.hooks).toEqual([]);
    expect(s.items).toEqual([]);
    expect(s.hookLast[hook.id]).toMatchObject({
      outcome: "continue",
      event: "before_tool",
      name: "guard",
    });
    for (const outcome of [
      "block",
      "modify",
      "ask",
      "retry",
      "stop",
      "failed",
      "timeout",
      "aborted",
    ] as const) {
      s = run(
        [
          {
            type: "hook_end",
            hook,
            event: "before_tool",
            outcome,
            detail: `why-${outcome}`,
            durationMs: 2,
          },
        ],
        s,
      );
    }
    expect(
      s.items.map((i) => (i.kind === "hook" ? `${i.name}:${i.outcome}:${i.detail}` : i.kind)),
    ).toEqual([
      "guard:block:why-block",
      "guard:modify:why-modify",
      "guard:ask:why-ask",
      "guard:retry:why-retry",
      "guard:stop:why-stop",
      "guard:failed:why-failed",
      "guard:timeout:why-timeout",
      "guard:aborted:why-aborted",
    ]);
    expect(s.hookLast[hook.id]?.outcome).toBe("aborted");
  });

  it("a continue with a message to the user is shown", () => {
    const s = run([
      {
        type: "hook_end",
        hook,
        event: "session_start",
        outcome: "continue",
        message: "hi there",
        durationMs: 1,
      },
    ]);
    expect(s.items).toMatchObject([{ kind: "hook", message: "hi there" }]);
  });

  it("warnings are never lost: agent warnings and hook warnings become items", () => {
    const s = run([
      { type: "warning", message: "tool x broken", source: "tools" },
      { type: "hook_warning", hook, message: "cap reached" },
      { type: "hook_warning", message: "audit log unwritable" },
      { type: "error", message: "model 500" },
    ]);
    expect(s.items).toMatchObject([
      { kind: "warning", text: "tool x broken", source: "tools" },
      { kind: "warning", text: "cap reached", source: "hook guard" },
      { kind: "warning", text: "audit log unwritable" },
      { kind: "error", text: "model 500" },
    ]);
  });

  it("turn_end: totals, last turn, a line unless the turn ended normally", () => {
    let s = run([{ type: "turn_start", turn: 1, prompt: "p" }], initialViewState(), 0);
    s = reduce(s, {
      type: "event",
      at: 2010,
      event: { type: "turn_end", turn: 1, stopReason: "end_turn", text: "", usage: usage(10, 2) },
    });
    expect(s.turn).toBeNull();
    expect(s.lastTurn).toEqual({ usage: usage(10, 2), elapsedMs: 2000, stopReason: "end_turn" });
    expect(s.items).toEqual([]);
    s = run([{ type: "turn_start", turn: 2, prompt: "q" }], s);
    s = reduce(s, { type: "aborting" });
    expect(s.turn?.aborting).toBe(true);
    s = run(
      [{ type: "turn_end", turn: 2, stopReason: "aborted", text: "", usage: usage(1, 1) }],
      s,
    );
    expect(s.totals).toEqual(usage(11, 3));
    expect(s.items).toMatchObject([{ kind: "turn", stopReason: "aborted" }]);
    s = run(
      [
        {
          type: "turn_end",
          turn: 3,
          stopReason: "blocked",
          text: "",
          usage: usage(0, 0),
          message: "guard: no",
        },
      ],
      s,
    );
    expect(s.items[1]).toMatchObject({ kind: "turn", stopReason: "blocked", message: "guard: no" });
  });

  it("turn_end closes tools the agent left open as interrupted", () => {
    const s = run([
      { type: "tool_call_start", turn: 1, step: 1, toolCallId: "c", toolName: "Bash", input: {} },
      { type: "turn_end", turn: 1, stopReason: "aborted", text: "", usage: usage(0, 0) },
    ]);
    expect(s.tools).toEqual([]);
    expect(s.items[0]).toMatchObject({ kind: "tool", tool: { status: "interrupted" } });
  });

  it("session_end: a banner unless the user exited", () => {
    expect(run([{ type: "session_end", reason: "user_exit" }]).items).toEqual([]);
    const s = run([
      { type: "hook_start", hook, event: "x" as never, startedAt: 1 },
      { type: "session_end", reason: "hook_stop" },
    ]);
    expect(s.hooks).toEqual([]);
    expect(s.items).toMatchObject([
      { kind: "banner", tone: "error", text: "session ended: hook stop" },
    ]);
  });

  it("local items get increasing ids and flush the open stream first", () => {
    let s = run([{ type: "text_delta", turn: 1, step: 1, text: "open" }]);
    s = reduce(s, { type: "item", item: { kind: "notice", lines: ["x"] } });
    expect(kinds(s)).toEqual(["assistant", "notice"]);
    const ids = s.items.map((i: Item) => i.id);
    expect(ids[1]).toBeGreaterThan(ids[0] ?? Number.POSITIVE_INFINITY);
  });

  it("clear empties items, bumps the epoch, keeps ids increasing and the hook history", () => {
    let s = run([
      { type: "hook_end", hook, event: "before_tool", outcome: "block", durationMs: 1 },
      { type: "warning", message: "w" },
    ]);
    const lastId = s.nextId;
    s = reduce(s, { type: "clear" });
    expect(s.items).toEqual([]);
    expect(s.epoch).toBe(1);
    expect(s.nextId).toBe(lastId);
    expect(s.hookLast[hook.id]?.outcome).toBe("block");
  });
});
