/**
 * Hook answers past acai's limits: too deep (4,000-deep input_patch, 5,000-deep
 * Claude Code updatedToolOutput, a 100,000-deep field inside input), keys that
 * name prototypes, texts that are too long, and spawns that fail for lack of
 * resources. Each is that hook's failure (or a visible cut), never a crash.
 */
import { describe, expect, it } from "vitest";
import { ANSWER_TEXT_CAPS, capDecisionTexts } from "../../../source/hooks/contract/decision.js";
import {
  decodeAnswer,
  decodeAnswerText,
  MAX_ANSWER_DEPTH,
} from "../../../source/hooks/contract/dialects/index.js";
import { applyMergePatch } from "../../../source/hooks/contract/merge-patch.js";
import { decodeRunResult, describeSpawnFailure } from "../../../source/hooks/run/decode.js";
import { runHookOnce } from "../../../source/hooks/run/run.js";
import { quietRunResult } from "../../../source/process/result.js";
import { makeHook } from "../support.js";

/** `{"k":{"k":…"leaf"…}}` nested `depth` objects deep. */
function nestedText(depth: number, leaf = '"x"'): string {
  return '{"k":'.repeat(depth) + leaf + "}".repeat(depth);
}

const limits = { timeoutMs: 1000, maxOutputBytes: 1024 * 1024 };

function exit0(stdout: string) {
  return decodeRunResult(quietRunResult({ exitCode: 0, stdout }), "before_tool", limits);
}

describe("answers nested too deep are the hook's failure", () => {
  const cases: [string, string][] = [
    ["an input_patch 4,000 levels deep", `{"input_patch":${nestedText(4000)}}`],
    [
      "a Claude Code updatedToolOutput 5,000 levels deep",
      `{"hookSpecificOutput":{"updatedToolOutput":${nestedText(5000)}}}`,
    ],
    [
      "a field 100,000 levels deep inside input",
      `{"action":"modify","input":{"command":"ls","x":${"[".repeat(100_000)}${"]".repeat(100_000)}}}`,
    ],
    ["an Agent Hooks modified_input 200 levels deep", `{"modified_input":${nestedText(200)}}`],
  ];
  it.each(cases)("%s", (_what, text) => {
    const decision = exit0(text);
    expect(decision.action).toBe("failed");
    if (decision.action === "failed") {
      expect(decision.error).toContain(`more than ${MAX_ANSWER_DEPTH} levels deep`);
    }
  });

  it("an answer just within the limit is read", () => {
    // The answer is level 1, input level 2: the innermost object sits at MAX_ANSWER_DEPTH.
    const decision = decodeAnswerText(
      `{"action":"modify","input":${nestedText(MAX_ANSWER_DEPTH - 2, "{}")}}`,
    );
    expect(decision.action).toBe("modify");
  });

  it("a parsed value too deep is refused as well (the check after parsing)", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 10_000; i++) deep = { k: deep };
    const decision = decodeAnswer({ action: "modify", input: deep });
    expect(decision.action).toBe("failed");
  });

  it("exit 2 with a too-deep JSON answer still blocks, with stderr as the reason", () => {
    const decision = decodeRunResult(
      quietRunResult({ exitCode: 2, stdout: nestedText(5000), stderr: "no" }),
      "before_tool",
      limits,
    );
    expect(decision).toEqual({ action: "block", reason: "no", byExitCode: true });
  });
});

describe("__proto__, constructor and prototype are plain data", () => {
  it('{"__proto__": {"action": "block"}} is not a block', () => {
    expect(decodeAnswerText('{"__proto__": {"action": "block"}}')).toEqual({
      action: "continue",
    });
    expect(decodeAnswerText('{"constructor": {"action": "block"}, "prototype": 1}')).toEqual({
      action: "continue",
    });
  });

  it("no prototype of anything is changed by an answer", () => {
    decodeAnswerText('{"__proto__": {"polluted": true}, "action": "continue"}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ["Claude Code updatedInput", '{"hookSpecificOutput":{"updatedInput":', "}}"],
    ["Agent Hooks modified_input", '{"modified_input":', "}"],
    ["acai input", '{"action":"modify","input":', "}"],
  ])("a %s keeps a __proto__ key as its own data, not as a prototype", (_what, prefix, end) => {
    const decision = decodeAnswerText(`${prefix}{"__proto__":{"command":"rm -rf /"},"a":1}${end}`);
    expect(decision.action).toBe("modify");
    const input = (decision as { input: Record<string, unknown> }).input;
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
    expect(input.command).toBeUndefined();
    expect(Object.keys(input)).toEqual(["__proto__", "a"]);
    expect(Object.getOwnPropertyDescriptor(input, "__proto__")?.value).toEqual({
      command: "rm -rf /",
    });
  });

  it("a merge patch writes __proto__, constructor and prototype as own data, never a prototype", () => {
    const patch = JSON.parse(
      '{"__proto__":{"command":"evil"},"constructor":{"prototype":{"x":1}},"prototype":2}',
    ) as unknown;
    const result = applyMergePatch({ command: "ls" }, patch) as Record<string, unknown>;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(result.command).toBe("ls");
    expect(Object.keys(result)).toEqual(["command", "__proto__", "constructor", "prototype"]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(result, "constructor")?.value).toEqual({
      prototype: { x: 1 },
    });
  });

  it("a merge patch onto a target without the key does not read the inherited one", () => {
    const patch = JSON.parse('{"__proto__":{"a":1}}') as unknown;
    const result = applyMergePatch({}, patch) as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(result, "__proto__")?.value).toEqual({ a: 1 });
  });

  it("a merge patch null deletes an own __proto__ key and nothing else", () => {
    const target = JSON.parse('{"__proto__":{"a":1},"b":2}') as unknown;
    const result = applyMergePatch(target, JSON.parse('{"__proto__":null}')) as object;
    expect(Object.keys(result)).toEqual(["b"]);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
  });
});

/** What a hook that ran like this answered, through runHookOnce (where every kind's texts are capped). */
async function ranLike(result: Parameters<typeof quietRunResult>[0]) {
  const record = await runHookOnce(
    makeHook(),
    "before_tool",
    {},
    {
      runner: async () => quietRunResult(result),
      env: {},
      projectDir: "/",
      sessionId: "s",
    },
  );
  return record.decision;
}

const ranExit0 = (stdout: string) => ranLike({ exitCode: 0, stdout });

describe("every text a hook supplies is capped, visibly", () => {
  it("a 400 KB stop reason is cut at the reason cap with a marker", async () => {
    const decision = await ranExit0(
      JSON.stringify({ action: "stop", reason: "r".repeat(400_000) }),
    );
    expect(decision.action).toBe("stop");
    expect(decision.reason?.length).toBeLessThan(ANSWER_TEXT_CAPS.reason + 100);
    expect(decision.reason).toContain(
      `[reason cut at ${ANSWER_TEXT_CAPS.reason} characters by acai]`,
    );
  });

  it("a Claude Code stopReason, systemMessage and updatedToolOutput are capped", async () => {
    const stop = await ranExit0(
      JSON.stringify({ continue: false, stopReason: "s".repeat(50_000) }),
    );
    expect(stop.reason).toContain("[reason cut at");
    const output = await ranExit0(
      JSON.stringify({
        systemMessage: "m".repeat(50_000),
        hookSpecificOutput: { updatedToolOutput: "o".repeat(100_000) },
      }),
    );
    expect(output.action).toBe("modify");
    expect(output.message).toContain(`[message cut at ${ANSWER_TEXT_CAPS.message} characters`);
    if (output.action === "modify") {
      expect(output.output?.length).toBeLessThan(ANSWER_TEXT_CAPS.output + 100);
      expect(output.output).toContain("[output cut at");
    }
  });

  it("an exit-2 reason from a megabyte of stderr is capped", async () => {
    const decision = await ranLike({ exitCode: 2, stderr: "e".repeat(1_000_000) });
    expect(decision.action).toBe("block");
    expect(decision.reason).toContain("[reason cut at");
  });

  it("plain stdout kept as a log note is capped with a marker", async () => {
    const decision = await ranExit0("l".repeat(10_000));
    expect(decision.log).toContain(`[log cut at ${ANSWER_TEXT_CAPS.log} characters by acai]`);
  });

  it("short texts are untouched; context is left to the configurable context cap", () => {
    const decision = { action: "continue", reason: "r", context: "c".repeat(50_000) } as const;
    expect(capDecisionTexts(decision)).toEqual(decision);
  });

  it("a replacement prompt and an error are capped too", () => {
    const prompt = capDecisionTexts({ action: "modify", prompt: "p".repeat(200_000) });
    expect(prompt.action === "modify" && prompt.prompt).toContain("[prompt cut at");
    const failure = capDecisionTexts({ action: "failed", error: "x".repeat(10_000) });
    expect(failure.action === "failed" && failure.error).toContain("[error cut at");
  });
});

describe("a spawn that fails for lack of resources", () => {
  it.each([
    ["EMFILE", "too many open files in acai"],
    ["ENFILE", "too many open files in the system"],
    ["EAGAIN", "too many processes"],
    ["ENOMEM", "out of memory"],
  ])("%s is said as such", (code, meaning) => {
    const spawnError = `cannot run "/hooks/guard": spawn ${code}`;
    expect(describeSpawnFailure(spawnError)).toBe(
      `could not be started for lack of resources (${code}: ${meaning}): ${spawnError}`,
    );
    const decision = decodeRunResult(quietRunResult({ spawnError }), "before_tool", limits);
    expect(decision.action === "failed" && decision.error).toContain("lack of resources");
  });

  it("other spawn errors are left as they are", () => {
    expect(describeSpawnFailure('cannot run "x": permission denied')).toBe(
      'cannot run "x": permission denied',
    );
  });
});

describe("a payload too deep to serialize", () => {
  it("is that hook's failure, and nothing is started", async () => {
    let deep: unknown = {};
    for (let i = 0; i < 20_000; i++) deep = { k: deep };
    let started = 0;
    const record = await runHookOnce(
      makeHook({ name: "deep-payload" }),
      "before_tool",
      { tool_input: deep },
      {
        runner: async () => {
          started++;
          return quietRunResult({ exitCode: 0 });
        },
        env: {},
        projectDir: "/tmp",
        sessionId: "s",
      },
    );
    expect(started).toBe(0);
    expect(record.decision.action).toBe("failed");
    expect(record.decision.action === "failed" && record.decision.error).toContain(
      "its payload cannot be serialized",
    );
  });
});
