import { describe, expect, it } from "vitest";
import type { Decision } from "../../../source/hooks/decision.js";
import {
  decodeAnswer,
  decodeAnswerText,
  pickDialect,
} from "../../../source/hooks/dialects/index.js";

type Row = [string, unknown, Decision];

const acaiRows: Row[] = [
  ["empty object", {}, { action: "continue" }],
  [
    "continue with context",
    { action: "continue", context: "c" },
    { action: "continue", context: "c" },
  ],
  ["block with reason", { action: "block", reason: "no" }, { action: "block", reason: "no" }],
  [
    "modify input",
    { action: "modify", input: { command: "ls" } },
    { action: "modify", input: { command: "ls" } },
  ],
  [
    "input_patch without action means modify",
    { input_patch: { timeout: 5 } },
    { action: "modify", inputPatch: { timeout: 5 } },
  ],
  ["prompt", { prompt: "new" }, { action: "modify", prompt: "new" }],
  ["output", { action: "modify", output: "o" }, { action: "modify", output: "o" }],
  ["ask", { action: "ask", reason: "sure?" }, { action: "ask", reason: "sure?" }],
  ["retry", { action: "retry", retry_after_ms: 250 }, { action: "retry", retryAfterMs: 250 }],
  ["retry default delay", { action: "retry" }, { action: "retry", retryAfterMs: 1000 }],
  ["skip", { action: "skip" }, { action: "skip" }],
  ["stop", { action: "stop", reason: "done" }, { action: "stop", reason: "done" }],
  [
    "message and log",
    { action: "continue", message: "m", log: "l" },
    { action: "continue", message: "m", log: "l" },
  ],
  ["nulls are absent", { action: "block", reason: null }, { action: "block" }],
  ["unknown fields ignored", { action: "continue", extra: 1 }, { action: "continue" }],
];

const claudeRows: Row[] = [
  ["decision block", { decision: "block", reason: "r" }, { action: "block", reason: "r" }],
  ["decision approve", { decision: "approve" }, { action: "continue" }],
  [
    "continue false → stop",
    { continue: false, stopReason: "bye", decision: "block" },
    { action: "stop", reason: "bye" },
  ],
  ["systemMessage", { systemMessage: "hi" }, { action: "continue", message: "hi" }],
  [
    "permission deny",
    { hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: "nope" } },
    { action: "block", reason: "nope" },
  ],
  [
    "permission ask",
    { hookSpecificOutput: { permissionDecision: "ask", permissionDecisionReason: "sure?" } },
    { action: "ask", reason: "sure?" },
  ],
  [
    "permission allow with updatedInput",
    {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "allow",
        updatedInput: { command: "ls" },
      },
    },
    { action: "modify", input: { command: "ls" } },
  ],
  [
    "additionalContext",
    { hookSpecificOutput: { additionalContext: "ctx" } },
    { action: "continue", context: "ctx" },
  ],
  [
    "updatedToolOutput string",
    { hookSpecificOutput: { updatedToolOutput: "short" } },
    { action: "modify", output: "short" },
  ],
  [
    "updatedMCPToolOutput object is serialized",
    { hookSpecificOutput: { updatedMCPToolOutput: { a: 1 } } },
    { action: "modify", output: '{"a":1}' },
  ],
];

const agentHooksRows: Row[] = [
  ["allow", { decision: "allow", log: "ok" }, { action: "continue", log: "ok" }],
  ["deny", { decision: "deny", reason: "bad" }, { action: "block", reason: "bad" }],
  [
    "modified_input",
    { decision: "allow", modified_input: { command: "ls" } },
    { action: "modify", input: { command: "ls" } },
  ],
  ["additional_context", { additional_context: "ctx" }, { action: "continue", context: "ctx" }],
];

describe("answer dialects", () => {
  it.each(acaiRows)("acai: %s", (_name, answer, expected) => {
    expect(decodeAnswer(answer)).toEqual(expected);
  });
  it.each(claudeRows)("claude: %s", (_name, answer, expected) => {
    expect(pickDialect(answer as Record<string, unknown>).name).toBe("claude");
    expect(decodeAnswer(answer)).toEqual(expected);
  });
  it.each(agentHooksRows)("agenthooks: %s", (_name, answer, expected) => {
    expect(pickDialect(answer as Record<string, unknown>).name).toBe("agenthooks");
    expect(decodeAnswer(answer)).toEqual(expected);
  });

  it("an explicit action wins over other dialects' fields", () => {
    expect(pickDialect({ action: "block", decision: "allow" }).name).toBe("acai");
  });

  it.each([
    ["unknown action", { action: "explode" }, /action/],
    [
      "retry delay of the wrong type",
      { action: "retry", retry_after_ms: "soon" },
      /retry_after_ms/,
    ],
    ["unknown claude decision", { decision: "maybe" }, /decision/],
    [
      "bad permissionDecision",
      { hookSpecificOutput: { permissionDecision: "perhaps" } },
      /permissionDecision/,
    ],
    [
      "agenthooks modified_input not an object",
      { decision: "allow", modified_input: 3 },
      /modified_input/,
    ],
  ])("invalid fields fail and say which: %s", (_name, answer, pattern) => {
    const decision = decodeAnswer(answer);
    expect(decision.action).toBe("failed");
    if (decision.action === "failed") expect(decision.error).toMatch(pattern);
  });

  it.each([
    ["inject", { inject: "remember X" }, /\("inject"\)/],
    ["suppress", { suppress: true }, /\("suppress"\)/],
    [
      "sendMessage and stop",
      { sendMessage: { to: "a", content: "b" }, stop: true },
      /"sendMessage", "stop"/,
    ],
  ])("agent-relay answers are reported, never dropped silently: %s", (_name, answer, fields) => {
    expect(pickDialect(answer).name).toBe("agent-relay");
    const decision = decodeAnswer(answer);
    expect(decision.action).toBe("failed");
    if (decision.action !== "failed") return;
    expect(decision.error).toMatch(fields);
    expect(decision.error).toMatch(/agent-relay's dialect .* which acai does not read yet/);
  });

  it("an agent-relay answer keeps its log; acai's own stop action is not relay's", () => {
    expect(decodeAnswer({ inject: "x", log: "note" })).toMatchObject({
      action: "failed",
      log: "note",
    });
    expect(decodeAnswer({ action: "stop" })).toEqual({ action: "stop" });
  });

  it("non-objects and invalid JSON fail", () => {
    expect(decodeAnswer([1]).action).toBe("failed");
    expect(decodeAnswer("x").action).toBe("failed");
    const bad = decodeAnswerText("{ not json");
    expect(bad.action).toBe("failed");
    if (bad.action === "failed") expect(bad.error).toMatch(/invalid JSON/);
  });
});
