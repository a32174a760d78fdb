import { describe, expect, it } from "vitest";
import type { Decision } from "../../../../source/hooks/contract/decision.js";
import {
  decodeAnswer,
  decodeAnswerText,
  pickDialect,
} from "../../../../source/hooks/contract/dialects/index.js";
import {
  RELAY_INJECT_CAP,
  RELAY_MESSAGE_CAP,
} from "../../../../source/hooks/contract/dialects/relay.js";

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
  ["allow", { action: "allow" }, { action: "allow" }],
  [
    "allow with a new input",
    { action: "allow", input: { command: "ls" } },
    { action: "allow", input: { command: "ls" } },
  ],
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
  [
    "Gemini's AfterAgent deny with clearContext",
    {
      decision: "deny",
      reason: "again",
      hookSpecificOutput: { hookEventName: "AfterAgent", clearContext: true },
    },
    { action: "block", reason: "again", clearContext: true },
  ],
  [
    "hookSpecificOutput keys acai does not read are named in the audit note",
    {
      decision: "block",
      reason: "no",
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        updatedInptu: { a: 1 },
        sessionTitle: "x",
      },
    },
    {
      action: "block",
      reason: "no",
      log: "hookSpecificOutput fields acai does not read (ignored): updatedInptu, sessionTitle",
    },
  ],
  [
    "clearContext without a deny says nothing",
    { decision: "allow", hookSpecificOutput: { hookEventName: "AfterAgent", clearContext: true } },
    { action: "continue" },
  ],
  ["decision block", { decision: "block", reason: "r" }, { action: "block", reason: "r" }],
  // Claude Code's allow spares the permission question (on before_tool), hence its own action.
  ["decision approve", { decision: "approve" }, { action: "allow" }],
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
    { action: "allow", input: { command: "ls" } },
  ],
  [
    "PermissionRequest allow",
    {
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "allow", updatedInput: { command: "npm test" } },
      },
    },
    { action: "allow", input: { command: "npm test" } },
  ],
  [
    "PermissionRequest deny, with the message for the model",
    {
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "deny", message: "no network" },
      },
    },
    { action: "block", reason: "no network" },
  ],
  [
    "PermissionRequest deny with interrupt ends the session",
    {
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "deny", message: "stop now", interrupt: true },
      },
    },
    { action: "stop", reason: "stop now" },
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
  // Read as "no objection" on before_tool (step.ts), a grant on permission_request.
  ["allow", { decision: "allow", log: "ok" }, { action: "allow", log: "ok" }],
  ["deny", { decision: "deny", reason: "bad" }, { action: "block", reason: "bad" }],
  [
    "modified_input",
    { decision: "allow", modified_input: { command: "ls" } },
    { action: "allow", input: { command: "ls" } },
  ],
  [
    "modified_input alone",
    { modified_input: { command: "ls" } },
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

  it("agent-relay answers: inject is capped context, stop: true skips, suppress, sendMessage, log", () => {
    expect(pickDialect({ inject: "x" }).name).toBe("agent-relay");
    expect(pickDialect({ stop: true }).name).toBe("agent-relay");
    expect(decodeAnswer({ inject: "remember X", log: "note" })).toEqual({
      action: "continue",
      context: "remember X",
      contextCap: RELAY_INJECT_CAP,
      log: "note",
    });
    expect(decodeAnswer({ stop: true })).toEqual({ action: "skip" });
    expect(decodeAnswer({ stop: false, inject: "y" })).toMatchObject({
      action: "continue",
      context: "y",
    });
    expect(decodeAnswer({ suppress: true, log: "quiet" })).toEqual({
      action: "continue",
      suppress: true,
      log: "quiet",
    });
    expect(decodeAnswer({ sendMessage: { to: "Coordinator", content: "idle 60s" } })).toEqual({
      action: "continue",
      sendMessage: { to: "Coordinator", content: "idle 60s" },
    });
    // acai's own stop action is not relay's.
    expect(decodeAnswer({ action: "stop" })).toEqual({ action: "stop" });
  });

  it.each([
    [
      "content past 5,000 characters",
      { sendMessage: { to: "a", content: "x".repeat(RELAY_MESSAGE_CAP + 1) } },
      /sendMessage\.content is longer than agent-relay's limit of 5000 characters/,
    ],
    [
      "a list of messages",
      { sendMessage: [{ to: "a", content: "b" }] },
      /one sendMessage per answer/,
    ],
    ["no recipient", { sendMessage: { to: " ", content: "b" } }, /sendMessage\.to must name/],
    ["content not text", { sendMessage: { to: "a", content: 3 } }, /sendMessage\.content/],
    [
      "metadata not an object",
      { sendMessage: { to: "a", content: "b", metadata: [1] } },
      /metadata must be a JSON object/,
    ],
    [
      "metadata past its cap",
      { sendMessage: { to: "a", content: "b", metadata: { note: "x".repeat(2000) } } },
      /metadata is longer than 2000 characters/,
    ],
    ["inject not text", { inject: { text: "x" } }, /inject/],
    ["suppress not a boolean", { suppress: "yes" }, /suppress/],
  ])("agent-relay answers that cannot be read fail, naming the field: %s", (_n, answer, error) => {
    const decision = decodeAnswer(answer);
    expect(decision.action).toBe("failed");
    if (decision.action === "failed") {
      expect(decision.error).toMatch(/agent-relay/);
      expect(decision.error).toMatch(error);
    }
  });

  it("sendMessage may carry metadata (a JSON object, kept as given, __proto__ as plain data)", () => {
    const metadata = JSON.parse('{"urgent": true, "__proto__": {"polluted": 1}}') as object;
    const decision = decodeAnswer({ sendMessage: { to: "Reviewer", content: "look", metadata } });
    expect(decision).toMatchObject({ action: "continue", sendMessage: { to: "Reviewer" } });
    const sent = decision.action === "continue" ? decision.sendMessage?.metadata : undefined;
    expect(sent?.urgent).toBe(true);
    expect(Object.getPrototypeOf(sent)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("exactly 5,000 characters of message content are accepted", () => {
    const content = "y".repeat(RELAY_MESSAGE_CAP);
    expect(decodeAnswer({ sendMessage: { to: "*", content } })).toMatchObject({
      sendMessage: { to: "*", content },
    });
  });

  it("non-objects and invalid JSON fail", () => {
    expect(decodeAnswer([1]).action).toBe("failed");
    expect(decodeAnswer("x").action).toBe("failed");
    const bad = decodeAnswerText("{ not json");
    expect(bad.action).toBe("failed");
    if (bad.action === "failed") expect(bad.error).toMatch(/invalid JSON/);
  });
});
