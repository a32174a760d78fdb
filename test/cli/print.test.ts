import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../source/agent/events.js";
import { EXIT } from "../../source/cli/exit-codes.js";
import { exitCodeFor, OutcomeTracker } from "../../source/cli/outcome.js";
import { createPrinter, type OutputFormat } from "../../source/cli/print.js";
import type { HookRef, InterceptedEvent } from "../../source/hooks/run/activity.js";

const usage = (n: number) => ({ inputTokens: n, outputTokens: n, totalTokens: 2 * n });
const hook: HookRef = {
  id: "user:executable:/h/guard",
  name: "guard",
  scope: "user",
  sourceKind: "executable",
};

const run: InterceptedEvent[] = [
  {
    type: "session_start",
    sessionId: "s1",
    model: "m",
    cwd: "/p",
    transcriptPath: "/t",
    source: "startup",
  },
  { type: "user_prompt", turn: 1, prompt: "do it" },
  { type: "turn_start", turn: 1, prompt: "do it" },
  { type: "step_start", turn: 1, step: 1 },
  { type: "model_request", turn: 1, step: 1, model: "m" },
  { type: "text_delta", turn: 1, step: 1, text: "Writing " },
  { type: "text_delta", turn: 1, step: 1, text: "the file." },
  {
    type: "model_response",
    turn: 1,
    step: 1,
    model: "m",
    text: "Writing the file.",
    toolCalls: [{ toolCallId: "c1", toolName: "Write", input: { file_path: "a" } }],
    usage: usage(10),
    finishReason: "tool-calls",
    durationMs: 5,
  },
  { type: "hook_start", hook, event: "before_tool", startedAt: 1 },
  {
    type: "hook_end",
    hook,
    event: "before_tool",
    outcome: "block",
    detail: "no writes here",
    durationMs: 3,
  },
  { type: "hook_warning", hook, message: "guard took 2 s" },
  { type: "step_end", turn: 1, step: 1 },
  { type: "step_start", turn: 1, step: 2 },
  { type: "text_delta", turn: 1, step: 2, text: "Done." },
  { type: "step_end", turn: 1, step: 2 },
  { type: "turn_end", turn: 1, stopReason: "end_turn", text: "Done.", usage: usage(30) },
  { type: "session_end", reason: "completed" },
];

function render(
  format: OutputFormat,
  events: InterceptedEvent[],
  exitCode = 0,
  verbose = false,
  stdoutIsTTY = false,
) {
  let out = "";
  let err = "";
  const printer = createPrinter(
    format,
    {
      stdout: { write: (c: string) => (out += c) },
      stderr: { write: (c: string) => (err += c) },
    },
    { verbose, stdoutIsTTY },
  );
  const tracker = new OutcomeTracker();
  for (const event of events) {
    tracker.observe(event);
    printer.event(event);
  }
  printer.finish(tracker.outcome, { sessionId: "s1", model: "m", durationMs: 42, exitCode });
  return { out, err, outcome: tracker.outcome };
}

describe("text printer", () => {
  it("streams assistant text to stdout, one line break between steps, notes on stderr", () => {
    const { out, err } = render("text", run);
    expect(out).toBe("Writing the file.\nDone.\n");
    expect(err).toBe(
      "acai: hook guard blocked before_tool: no writes here\nacai: hook warning (guard): guard took 2 s\n",
    );
  });

  it("--verbose also shows tool calls and every hook run", () => {
    const events: InterceptedEvent[] = [
      ...run.slice(0, 8),
      {
        type: "tool_call_start",
        turn: 1,
        step: 1,
        toolCallId: "c1",
        toolName: "Write",
        input: { file_path: "a" },
      },
      { type: "hook_end", hook, event: "before_tool", outcome: "continue", durationMs: 12.4 },
      ...run.slice(9),
    ];
    const { out, err } = render("text", events, 0, true);
    expect(out).toBe("Writing the file.\nDone.\n");
    expect(err).toBe(
      [
        'acai: tool Write {"file_path":"a"}',
        "acai: hook guard (before_tool): continue, 12 ms",
        "acai: hook guard blocked before_tool: no writes here",
        "acai: hook warning (guard): guard took 2 s",
        "",
      ].join("\n"),
    );
  });

  it("reports errors and max-steps on stderr", () => {
    const events: AgentEvent[] = [
      { type: "turn_start", turn: 1, prompt: "x" },
      { type: "error", message: "could not reach the model server", turn: 1 },
      { type: "turn_end", turn: 1, stopReason: "error", text: "", usage: usage(0) },
    ];
    expect(render("text", events, 1)).toMatchObject({
      out: "",
      err: "acai: error: could not reach the model server\n",
    });
    const limited: AgentEvent[] = [
      { type: "text_delta", turn: 1, step: 1, text: "partial" },
      {
        type: "turn_end",
        turn: 1,
        stopReason: "max_steps",
        text: "partial",
        usage: usage(0),
        message: "reached 3 steps",
      },
    ];
    expect(render("text", limited)).toMatchObject({
      out: "partial\n",
      err: "acai: stopped: reached 3 steps\n",
    });
  });

  it("a prompt blocked by a hook is reported once", () => {
    const events: InterceptedEvent[] = [
      { type: "user_prompt", turn: 1, prompt: "x" },
      {
        type: "hook_end",
        hook,
        event: "user_prompt",
        outcome: "block",
        detail: "closed",
        durationMs: 1,
      },
      {
        type: "turn_end",
        turn: 1,
        stopReason: "blocked",
        text: "",
        usage: usage(0),
        message: "A hook blocked the prompt: closed",
      },
    ];
    expect(render("text", events, 3)).toMatchObject({
      out: "",
      err: "acai: hook guard blocked user_prompt: closed\n",
    });
    // Without a hook_end (e.g. a gate of another consumer), the turn's message is shown.
    expect(render("text", [events[0]!, events[2]!], 3).err).toBe(
      "acai: A hook blocked the prompt: closed\n",
    );
  });
});

describe("terminal escapes from tools, hooks and models", () => {
  const hostile = "\x1b]0;PWNED\x07\x1b[31mred\x1b[0m\r";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

  it("never reach stderr: tool errors, tool inputs, hook details, messages and warnings", () => {
    const events: InterceptedEvent[] = [
      {
        type: "tool_call_start",
        turn: 1,
        step: 1,
        toolCallId: "c1",
        toolName: "Bash",
        input: { command: hostile },
      },
      {
        type: "tool_call_error",
        turn: 1,
        step: 1,
        toolCallId: "c1",
        toolName: "Bash",
        input: {},
        error: `exit 1. Output:\n${hostile}`,
        interrupted: false,
        blocked: false,
        durationMs: 1,
      },
      {
        type: "hook_end",
        hook,
        event: "before_tool",
        outcome: "block",
        detail: hostile,
        message: hostile,
        durationMs: 1,
      },
      { type: "hook_warning", hook, message: hostile },
      { type: "warning", message: hostile },
      { type: "error", message: hostile },
    ];
    for (const format of ["text", "json"] as const) {
      const { err } = render(format, events, 0, true);
      expect(err).toContain("red");
      expect(err, format).not.toMatch(CONTROL);
      expect(
        err
          .split("\n")
          .filter(Boolean)
          .every((l) => l.startsWith("acai: ")),
      ).toBe(true);
    }
    expect(render("text", events, 0, true).err).toContain("tool Bash failed: exit 1. Output: red");
  });

  it("the assistant's text loses them on a terminal, split across deltas, and keeps them in a pipe", () => {
    const events: InterceptedEvent[] = [
      { type: "text_delta", turn: 1, step: 1, text: "see \x1b]0;PW" },
      { type: "text_delta", turn: 1, step: 1, text: "NED\x07\x1b[31mred" },
      { type: "text_delta", turn: 1, step: 1, text: "\x1b[0m!" },
    ];
    expect(render("text", events, 0, false, true).out).toBe("see red!\n");
    expect(render("text", events, 0, false, false).out).toBe(
      "see \x1b]0;PWNED\x07\x1b[31mred\x1b[0m!\n",
    );
  });
});

describe("json printers", () => {
  it("json prints one result object; warnings of the run still go to stderr", () => {
    const { out, err } = render("json", run);
    expect(err).toBe("acai: hook warning (guard): guard took 2 s\n");
    const lines = out.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "")).toEqual({
      type: "result",
      subtype: "success",
      is_error: false,
      exit_code: 0,
      text: "Done.",
      result: "Done.",
      stop_reason: "end_turn",
      usage: { input_tokens: 30, output_tokens: 30, total_tokens: 60 },
      session_id: "s1",
      model: "m",
      num_turns: 1,
      num_steps: 2,
      duration_ms: 42,
      duration_api_ms: 5,
      total_cost_usd: null,
    });
  });

  it("stream-json prints every event, then the result, one JSON object per line", () => {
    const { out } = render("stream-json", run);
    const lines = out
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string });
    const claude = new Set(["system", "assistant", "user"]);
    const acai = lines.filter((l) => !claude.has(l.type));
    expect(acai.map((l) => l.type)).toEqual([...run.map((e) => e.type), "result"]);
    expect(acai[9]).toEqual(run[9]);
    // Claude Code's messages right after the events they stand for.
    const types = lines.map((l) => l.type);
    expect(types.slice(0, 2)).toEqual(["session_start", "system"]);
    expect(types[types.indexOf("model_response") + 1]).toBe("assistant");
    expect(types.filter((type) => claude.has(type))).toEqual(["system", "assistant"]);
  });

  it("the result's cost is the usage at the model's price, when there is one", () => {
    const printed: string[] = [];
    const printer = createPrinter("json", {
      stdout: { write: (c: string) => printed.push(c) },
      stderr: { write: () => {} },
    });
    const tracker = new OutcomeTracker();
    for (const event of run) tracker.observe(event);
    printer.finish(tracker.outcome, {
      sessionId: "s1",
      model: "m",
      durationMs: 42,
      exitCode: 0,
      price: { inputPerMTok: 3, outputPerMTok: 15 },
    });
    // 30 input tokens at $3/M, 30 output tokens at $15/M.
    expect(JSON.parse(printed.join("")).total_cost_usd).toBeCloseTo((30 * 3 + 30 * 15) / 1e6, 12);
  });

  it("an error result carries the message", () => {
    const events: AgentEvent[] = [
      { type: "turn_start", turn: 1, prompt: "x" },
      { type: "error", message: "401", turn: 1 },
      { type: "turn_end", turn: 1, stopReason: "error", text: "", usage: usage(0) },
    ];
    const result = JSON.parse(render("json", events, 1).out);
    expect(result).toMatchObject({
      is_error: true,
      exit_code: 1,
      stop_reason: "error",
      error: "401",
    });
  });
});

describe("exit codes", () => {
  const outcomeOf = (events: InterceptedEvent[]) => {
    const tracker = new OutcomeTracker();
    for (const event of events) tracker.observe(event);
    return tracker.outcome;
  };
  const end = (
    stopReason:
      | "end_turn"
      | "max_steps"
      | "blocked"
      | "hook_stop"
      | "stop_hook_limit"
      | "aborted"
      | "error",
  ): InterceptedEvent[] => [
    { type: "turn_start", turn: 1, prompt: "x" },
    { type: "turn_end", turn: 1, stopReason, text: "", usage: usage(0) },
  ];

  it("maps stop reasons and signals", () => {
    expect(exitCodeFor(outcomeOf(end("end_turn")), undefined)).toBe(EXIT.ok);
    expect(exitCodeFor(outcomeOf(end("max_steps")), undefined)).toBe(EXIT.ok);
    expect(exitCodeFor(outcomeOf(end("blocked")), undefined)).toBe(EXIT.hookBlocked);
    expect(exitCodeFor(outcomeOf(end("hook_stop")), undefined)).toBe(EXIT.hookBlocked);
    expect(exitCodeFor(outcomeOf(end("stop_hook_limit")), undefined)).toBe(EXIT.hookBlocked);
    expect(exitCodeFor(outcomeOf(end("error")), undefined)).toBe(EXIT.error);
    expect(exitCodeFor(outcomeOf(end("aborted")), "SIGTERM")).toBe(EXIT.sigterm);
    expect(exitCodeFor(outcomeOf(end("aborted")), "SIGINT")).toBe(EXIT.sigint);
    expect(exitCodeFor(outcomeOf([]), undefined)).toBe(EXIT.error);
  });

  it("an error result always has an error: signals say which", () => {
    for (const [code, error] of [
      [EXIT.sigint, "interrupted by SIGINT"],
      [EXIT.sigterm, "interrupted by SIGTERM"],
    ] as const) {
      const result = JSON.parse(render("json", end("aborted"), code).out);
      expect(result).toMatchObject({ is_error: true, exit_code: code, error });
    }
    const silent = JSON.parse(render("json", end("error"), EXIT.error).out);
    expect(silent).toMatchObject({ is_error: true, error: expect.stringContaining("error") });
    expect(JSON.parse(render("json", end("end_turn"), 0).out).error).toBeUndefined();
  });

  it("a session_start block is exit 3", () => {
    const events: InterceptedEvent[] = [
      {
        type: "session_start",
        sessionId: "s",
        model: "m",
        cwd: "/",
        transcriptPath: "/t",
        source: "startup",
      },
      {
        type: "hook_end",
        hook,
        event: "session_start",
        outcome: "block",
        detail: "no",
        durationMs: 1,
      },
      { type: "error", message: "A session_start hook refused to start the session: no" },
      { type: "session_end", reason: "error" },
    ];
    expect(exitCodeFor(outcomeOf(events), undefined)).toBe(EXIT.hookBlocked);
    // A user_prompt block ends the turn "blocked" without a turn_start.
    const prompt: InterceptedEvent[] = [
      { type: "user_prompt", turn: 1, prompt: "x" },
      { type: "turn_end", turn: 1, stopReason: "blocked", text: "", usage: usage(0), message: "m" },
    ];
    expect(exitCodeFor(outcomeOf(prompt), undefined)).toBe(EXIT.hookBlocked);
  });
});
