import { describe, expect, it } from "vitest";
import type { Decision } from "../../../../source/hooks/contract/decision.js";
import { decodeAnswer, pickDialect } from "../../../../source/hooks/contract/dialects/index.js";

type Row = [string, Record<string, unknown>, Decision];

const rows: Row[] = [
  ["Continue", { action: "Continue" }, { action: "continue" }],
  [
    "Continue with modified replaces the input",
    { action: "Continue", modified: { command: "ls -la", timeout: 30000 } },
    { action: "modify", input: { command: "ls -la", timeout: 30000 } },
  ],
  [
    "lower-case continue with modified is still A3S",
    { action: "continue", modified: { command: "ls" } },
    { action: "modify", input: { command: "ls" } },
  ],
  [
    "Block with reason",
    { action: "Block", reason: "Recursive force deletion is not allowed" },
    { action: "block", reason: "Recursive force deletion is not allowed" },
  ],
  ["BLOCK in capitals", { action: "BLOCK" }, { action: "block" }],
  [
    "Retry with retry_delay_ms",
    { action: "Retry", retry_delay_ms: 5000 },
    { action: "retry", retryAfterMs: 5000 },
  ],
  ["Retry without a delay", { action: "Retry" }, { action: "retry", retryAfterMs: 1000 }],
  ["Skip", { action: "Skip" }, { action: "skip" }],
  ["sKiP", { action: "sKiP" }, { action: "skip" }],
  ["null fields are absent", { action: "Block", reason: null }, { action: "block" }],
];

describe("A3S answers", () => {
  it.each(rows)("%s", (_name, answer, expected) => {
    expect(pickDialect(answer).name).toBe("a3s");
    expect(decodeAnswer(answer)).toEqual(expected);
  });

  it("lower-case acai actions without A3S fields stay acai's (same meaning)", () => {
    expect(pickDialect({ action: "block", reason: "x" }).name).toBe("acai");
    expect(decodeAnswer({ action: "block", reason: "x" })).toEqual({
      action: "block",
      reason: "x",
    });
  });

  it("a bad field is a failure naming the dialect, never a silent continue", () => {
    const decision = decodeAnswer({ action: "Retry", retry_delay_ms: -1 });
    expect(decision.action).toBe("failed");
    expect(decision.action === "failed" && decision.error).toMatch(/A3S JSON.*retry_delay_ms/);
    const modified = decodeAnswer({ action: "Continue", modified: "rm -rf /" });
    expect(modified.action).toBe("failed");
  });

  it("an action neither A3S nor acai knows is a failure", () => {
    expect(decodeAnswer({ action: "Explode" }).action).toBe("failed");
  });

  it("a __proto__ key in modified stays plain data", () => {
    const answer = JSON.parse('{"action":"Continue","modified":{"__proto__":{"x":1},"a":2}}');
    const decision = decodeAnswer(answer);
    expect(decision.action).toBe("modify");
    const input = decision.action === "modify" ? (decision.input as object) : {};
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
    expect(Object.keys(input)).toEqual(["__proto__", "a"]);
  });

  it("Continue's modified is what the answered event lets A3S change", () => {
    const modified = { success: true, output: "[REDACTED]", duration_ms: 3 };
    expect(decodeAnswer({ action: "Continue", modified }, "after_tool")).toEqual({
      action: "modify",
      output: "[REDACTED]",
    });
    expect(
      decodeAnswer({ action: "Continue", modified: { prompt: "p2" } }, "before_model"),
    ).toEqual({ action: "modify", prompt: "p2" });
    expect(
      decodeAnswer({ action: "Continue", modified: { command: "ls" } }, "before_tool"),
    ).toEqual({ action: "modify", input: { command: "ls" } });
  });

  it("a modified result without its output, or a GenerateStart without a prompt, is a failure saying so", () => {
    const result = decodeAnswer({ action: "Continue", modified: { success: false } }, "after_tool");
    expect(result.action === "failed" && result.error).toMatch(
      /PostToolUse result without an "output"/,
    );
    const prompt = decodeAnswer({ action: "Continue", modified: { prompt: 7 } }, "before_model");
    expect(prompt.action === "failed" && prompt.error).toMatch(/GenerateStart without a "prompt"/);
  });
});
