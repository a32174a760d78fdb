/**
 * The phases of one tool call (tool-calls.ts, tool-call-gates.ts,
 * tool-call-run.ts) and the verdict helper (gate-flow.ts), each through its
 * typed outcome, driven as the agent drives them: events out, verdicts back.
 */
import { describe, expect, it } from "vitest";
import type { AgentEvent, Emit } from "../../source/agent/events.js";
import { gateFlow } from "../../source/agent/gate-flow.js";
import type { StepToolCall } from "../../source/agent/model-step.js";
import type { ToolStepContext } from "../../source/agent/tool-call-context.js";
import { permit, prepare } from "../../source/agent/tool-call-gates.js";
import { runToolCalls } from "../../source/agent/tool-calls.js";
import type { Verdict } from "../../source/agent/verdicts.js";
import { toRules } from "../../source/permissions/rules.js";
import { deferredShellAnalyzer } from "../../source/permissions/shell/deferred.js";
import { loadShellAnalyzer } from "../../source/permissions/shell/parser.js";
import { echoTool, failTool, testPolicy, unusedRunner } from "./helpers.js";

type Answer = (event: AgentEvent) => Verdict | undefined;

/** Runs a phase to its end, answering each gate with `answer`. */
async function drive<R>(
  run: AsyncGenerator<AgentEvent, R, Verdict | undefined>,
  answer: Answer = () => undefined,
): Promise<{ events: AgentEvent[]; outcome: R }> {
  const events: AgentEvent[] = [];
  let next = await run.next();
  while (!next.done) {
    events.push(next.value);
    next = await run.next(answer(next.value));
  }
  return { events, outcome: next.value };
}

const emit = async function* (
  event: AgentEvent,
): AsyncGenerator<AgentEvent, Verdict | undefined, Verdict | undefined> {
  return yield event;
} as unknown as Emit;

function context(overrides: Partial<ToolStepContext> = {}): ToolStepContext {
  return {
    emit,
    tools: new Map([echoTool, failTool].map((t) => [t.name, t])),
    cwd: "/nowhere",
    env: {},
    runner: unusedRunner,
    permissions: testPolicy("/nowhere"),
    signal: new AbortController().signal,
    now: () => 0,
    turn: 1,
    step: 1,
    ...overrides,
  };
}

const echo = (id: string, text = "hi"): StepToolCall => ({
  toolCallId: id,
  toolName: "Echo",
  input: { text },
});

describe("gateFlow", () => {
  it("reads the user's interrupt before a hook's stop", () => {
    const aborted = AbortSignal.abort();
    expect(gateFlow({ action: "stop", reason: "x" }, aborted)).toEqual({
      kind: "end_turn",
      end: { stopReason: "aborted" },
    });
  });
  it("turns a stop into the end of the session, with the hook's reason", () => {
    expect(gateFlow({ action: "stop", reason: "enough" }, new AbortController().signal)).toEqual({
      kind: "end_session",
      end: { stopReason: "hook_stop", message: "enough" },
    });
  });
  it("goes on with a block, a continue or no verdict, handing the verdict back", () => {
    const signal = new AbortController().signal;
    const block: Verdict = { action: "block", reason: "no" };
    expect(gateFlow(block, signal)).toEqual({ kind: "go_on", verdict: block });
    expect(gateFlow({ action: "continue" }, signal)).toEqual({
      kind: "go_on",
      verdict: { action: "continue" },
    });
    expect(gateFlow(undefined, signal)).toEqual({ kind: "go_on", verdict: undefined });
  });
});

describe("prepare", () => {
  it("refuses an unknown tool and an invalid input without raising tool_call_start", async () => {
    const unknown = await drive(
      prepare(context(), { toolCallId: "a", toolName: "Nope", input: {} }),
    );
    expect(unknown.events).toEqual([]);
    expect(unknown.outcome).toMatchObject({
      kind: "refused",
      refusal: { error: 'There is no tool named "Nope".' },
    });
    const invalid = await drive(prepare(context(), { ...echo("b"), input: { text: 3 } }));
    expect(invalid.events).toEqual([]);
    expect(invalid.outcome.kind).toBe("refused");
  });

  it("goes on with a hook's replaced input and permission hint; refuses an invalid replacement", async () => {
    const hint = { behavior: "allow" as const, reason: "ok", by: "test-hook" };
    const replaced = await drive(prepare(context(), echo("a")), () => ({
      action: "continue",
      input: { text: "changed" },
      permission: hint,
    }));
    expect(replaced.events.map((e) => e.type)).toEqual(["tool_call_start"]);
    expect(replaced.outcome).toMatchObject({ kind: "go_on", input: { text: "changed" }, hint });
    const invalid = await drive(prepare(context(), echo("b")), () => ({
      action: "continue",
      input: { text: 1 },
    }));
    expect(invalid.outcome).toMatchObject({ kind: "refused", refusal: { input: { text: 1 } } });
  });

  it("refuses a blocked call with the hook's words, and ends at a stop", async () => {
    const blocked = await drive(prepare(context(), echo("a")), () => ({
      action: "block",
      reason: "not today",
    }));
    expect(blocked.outcome).toEqual({
      kind: "refused",
      refusal: {
        input: { text: "hi" },
        error: "not today",
        blocked: true,
        modelText: "Blocked by a hook: not today",
      },
    });
    const stopped = await drive(prepare(context(), echo("b")), () => ({
      action: "stop",
      reason: "halt",
    }));
    expect(stopped.outcome).toEqual({
      kind: "end",
      end: { stopReason: "hook_stop", message: "halt" },
    });
  });
});

describe("permit", () => {
  const go = { kind: "go_on" as const, tool: echoTool, input: { text: "hi" } };

  it("lets an allowed call through and refuses a denied one as blocked and denied", async () => {
    const allowed = await drive(permit(context(), echo("a"), go));
    expect(allowed.outcome).toEqual({ kind: "go_on", input: { text: "hi" } });
    const { rules } = toRules(["Echo"], "deny", { scope: "flag", label: "--disallowedTools" });
    const permissions = { ...testPolicy("/nowhere"), rules: { allow: [], ask: [], deny: rules } };
    const denied = await drive(permit(context({ permissions }), echo("b"), go));
    expect(denied.outcome).toMatchObject({
      kind: "refused",
      refusal: { blocked: true, denied: true, input: { text: "hi" } },
    });
  });

  it("loads a deferred Bash parser before it decides: an allowed line runs without asking", async () => {
    const bash = { ...echoTool, name: "Bash" };
    const { rules } = toRules(["Bash(git status)"], "allow", { scope: "flag", label: "--allow" });
    const shell = deferredShellAnalyzer(() => loadShellAnalyzer({ baselineOnly: true }));
    const permissions = {
      ...testPolicy("/nowhere"),
      rules: { allow: rules, ask: [], deny: [] },
      shell,
    };
    const call = { toolCallId: "b", toolName: "Bash", input: { command: "git status" } };
    const prepared = { kind: "go_on" as const, tool: bash, input: { command: "git status" } };
    const { events, outcome } = await drive(permit(context({ permissions }), call, prepared));
    expect(events).toEqual([]);
    expect(outcome).toEqual({ kind: "go_on", input: { command: "git status" } });
  });

  it("an ask raises permission_request; a stop there ends the turn and the session", async () => {
    const { rules } = toRules(["Echo"], "ask", { scope: "flag", label: "--ask" });
    const permissions = { ...testPolicy("/nowhere"), rules: { allow: [], ask: rules, deny: [] } };
    const { events, outcome } = await drive(
      permit(context({ permissions }), echo("a"), go),
      () => ({
        action: "stop",
        reason: "no more",
      }),
    );
    expect(events.map((e) => e.type)).toEqual(["permission_request"]);
    expect(outcome).toEqual({ kind: "end", end: { stopReason: "hook_stop", message: "no more" } });
  });
});

describe("runToolCalls", () => {
  it("a stop at tool_call_end keeps that call's result and answers the rest 'Not run'", async () => {
    const { events, outcome } = await drive(
      runToolCalls(context(), [echo("a"), echo("b")]),
      (event) =>
        event.type === "tool_call_end" ? { action: "stop", reason: "seen enough" } : undefined,
    );
    expect(events.map((e) => e.type)).toEqual(["tool_call_start", "tool_call_end"]);
    expect(outcome.end).toEqual({ stopReason: "hook_stop", message: "seen enough" });
    expect(outcome.results.map((r) => [r.toolCallId, r.output])).toEqual([
      ["a", { type: "text", value: "echo: hi" }],
      ["b", { type: "error-text", value: "Not run: a hook stopped the session (seen enough)." }],
    ]);
  });

  it("a refused call is answered with its error and the next call still runs", async () => {
    const { events, outcome } = await drive(
      runToolCalls(context(), [{ toolCallId: "a", toolName: "Fail", input: {} }, echo("b")]),
    );
    expect(events.map((e) => e.type)).toEqual([
      "tool_call_start",
      "tool_call_error",
      "tool_call_start",
      "tool_call_end",
    ]);
    expect(outcome.end).toBeUndefined();
    expect(outcome.results.map((r) => r.toolCallId)).toEqual(["a", "b"]);
  });

  it("an interrupt during a gate ends the step 'aborted', every unanswered call answered", async () => {
    const controller = new AbortController();
    const { outcome } = await drive(
      runToolCalls(context({ signal: controller.signal }), [echo("a"), echo("b")]),
      () => {
        controller.abort();
        return undefined;
      },
    );
    expect(outcome.end).toEqual({ stopReason: "aborted" });
    expect(outcome.results.map((r) => [r.toolCallId, r.output])).toEqual([
      ["a", { type: "error-text", value: "Not run: the user interrupted the turn." }],
      ["b", { type: "error-text", value: "Not run: the user interrupted the turn." }],
    ]);
  });
});
