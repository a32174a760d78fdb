/**
 * `acai -p --output-format json|stream-json` as scripts written for
 * `claude -p` read it: the result carries Claude Code's fields (`result`,
 * `subtype`, `is_error`, `total_cost_usd`, `num_turns`, `session_id`,
 * `duration_api_ms`) beside acai's own, and stream-json has Claude Code's
 * `system`/`init`, `assistant` and `user` (tool_result) messages beside acai's
 * event lines. Through the built CLI against the scripted OpenAI server.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { jsonLines, modelArgs } from "./helpers.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-claude-output-");
  await writeFile(path.join(dirs.cwd, "notes.txt"), "the notes say 42\n");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

/** A Read of notes.txt and of a file that is not there, then the answer. */
function readThenAnswer(): Parameters<typeof startFakeOpenAI>[0] {
  return [
    {
      text: "Reading.",
      toolCalls: [
        { name: "Read", input: { file_path: "notes.txt" }, id: "call_read_1" },
        { name: "Read", input: { file_path: "missing.txt" }, id: "call_read_2" },
      ],
      usage: { inputTokens: 100, outputTokens: 20 },
    },
    { text: "The answer is 42.", usage: { inputTokens: 300, outputTokens: 10 } },
  ];
}

/** The content blocks of a Claude Code message line. */
function blocksOf(line: Record<string, unknown> | undefined): Record<string, unknown>[] {
  const message = line?.message as { content?: Record<string, unknown>[] } | undefined;
  return message?.content ?? [];
}

async function priced(input: number, output: number): Promise<void> {
  const pricing = { "fake-model": { input, output } };
  await writeFile(path.join(dirs.acaiHome, "settings.json"), JSON.stringify({ pricing }));
}

describe("-p --output-format json, read as claude -p's", () => {
  it("a successful run: subtype success, result, is_error, num_turns, session_id, total_cost_usd from the pricing setting", async () => {
    server = await startFakeOpenAI(readThenAnswer());
    await priced(2, 10);
    const run = await runAcai({
      args: [
        "-p",
        "what do the notes say?",
        "--output-format",
        "json",
        ...modelArgs("chat", server),
      ],
      dirs,
    });
    expect(run.exitCode).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines).toHaveLength(1);
    const result = lines[0] as Record<string, unknown>;
    expect(result).toMatchObject({
      type: "result",
      subtype: "success",
      is_error: false,
      result: "The answer is 42.",
      num_turns: 1,
      // acai's own fields stay.
      text: "The answer is 42.",
      exit_code: 0,
      num_steps: 2,
      usage: { input_tokens: 400, output_tokens: 30, total_tokens: 430 },
    });
    expect(result.session_id).toMatch(/^[0-9a-f-]{36}$/);
    // 400 input tokens at $2/M and 30 output tokens at $10/M.
    expect(result.total_cost_usd).toBeCloseTo((400 * 2 + 30 * 10) / 1e6, 12);
    expect(typeof result.duration_api_ms).toBe("number");
    expect(result.duration_api_ms as number).toBeLessThanOrEqual(result.duration_ms as number);
  });

  it("a model acai knows no price for: total_cost_usd is null, not a guess", async () => {
    server = await startFakeOpenAI([{ text: "hi" }]);
    const run = await runAcai({
      args: ["-p", "hi", "--output-format", "json", ...modelArgs("chat", server)],
      dirs,
    });
    expect(run.exitCode).toBe(0);
    expect(jsonLines(run.stdout)[0]).toMatchObject({ subtype: "success", total_cost_usd: null });
  });

  it("the step limit: subtype error_max_turns (acai's exit code and is_error unchanged); a failed request: error_during_execution", async () => {
    server = await startFakeOpenAI(readThenAnswer());
    const limited = await runAcai({
      args: [
        "-p",
        "go",
        "--output-format",
        "json",
        "--max-steps",
        "1",
        ...modelArgs("chat", server),
      ],
      dirs,
    });
    expect(jsonLines(limited.stdout)[0]).toMatchObject({
      subtype: "error_max_turns",
      is_error: limited.exitCode !== 0,
      exit_code: limited.exitCode,
      stop_reason: "max_steps",
    });
    await server.close();
    server = await startFakeOpenAI([{ status: 400, errorMessage: "bad request" }]);
    const failed = await runAcai({
      args: ["-p", "go", "--output-format", "json", ...modelArgs("chat", server)],
      dirs,
    });
    expect(failed.exitCode).toBe(1);
    expect(jsonLines(failed.stdout)[0]).toMatchObject({
      subtype: "error_during_execution",
      is_error: true,
      result: "",
    });
  });
});

describe("-p --output-format stream-json, read as claude -p's", () => {
  it("system init, assistant messages with text and tool_use, user tool_result messages, then the result — beside acai's events", async () => {
    server = await startFakeOpenAI(readThenAnswer());
    const run = await runAcai({
      args: [
        "-p",
        "what do the notes say?",
        "--output-format",
        "stream-json",
        ...modelArgs("chat", server),
      ],
      dirs,
    });
    expect(run.exitCode).toBe(0);
    const lines = jsonLines(run.stdout);
    const claude = lines.filter((line) => ["system", "assistant", "user"].includes(line.type));
    const start = lines.find((line) => line.type === "session_start");
    const sessionId = start?.sessionId;
    expect(typeof sessionId).toBe("string");

    expect(claude.map((line) => line.type)).toEqual([
      "system",
      "assistant",
      "user",
      "user",
      "assistant",
    ]);
    const [init, first, found, missing, last] = claude;
    expect(init).toEqual({
      type: "system",
      subtype: "init",
      session_id: sessionId,
      cwd: start?.cwd,
      model: "fake-model",
    });
    expect(first).toMatchObject({
      parent_tool_use_id: null,
      session_id: sessionId,
      message: {
        type: "message",
        role: "assistant",
        model: "fake-model",
        stop_reason: "tool_use",
        usage: { input_tokens: 100, output_tokens: 20 },
        content: [
          { type: "text", text: "Reading." },
          { type: "tool_use", id: "call_read_1", name: "Read", input: { file_path: "notes.txt" } },
          {
            type: "tool_use",
            id: "call_read_2",
            name: "Read",
            input: { file_path: "missing.txt" },
          },
        ],
      },
    });
    const [foundBlock] = blocksOf(found);
    expect(foundBlock).toMatchObject({ type: "tool_result", tool_use_id: "call_read_1" });
    expect(foundBlock?.content).toContain("the notes say 42");
    expect(foundBlock?.is_error).toBeUndefined();
    const [missingBlock] = blocksOf(missing);
    expect(missingBlock).toMatchObject({
      type: "tool_result",
      tool_use_id: "call_read_2",
      is_error: true,
    });
    expect(found).toMatchObject({ parent_tool_use_id: null, session_id: sessionId });
    expect(last).toMatchObject({
      message: { stop_reason: "end_turn", content: [{ type: "text", text: "The answer is 42." }] },
    });

    // Each Claude Code message follows the acai event it stands for; the result is last.
    const types = lines.map((line) => line.type);
    expect(types.indexOf("system")).toBe(types.indexOf("session_start") + 1);
    expect(types.at(-1)).toBe("result");
    expect(lines.at(-1)).toMatchObject({
      subtype: "success",
      result: "The answer is 42.",
      session_id: sessionId,
    });
    expect(types).toContain("tool_call_end");
    expect(types).toContain("tool_call_error");
  });
});
