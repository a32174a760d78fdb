/**
 * Claude Code's newer events through `acai -p`, with Claude Code-shaped
 * settings hooks in the user's settings: PostToolBatch (after_tool_batch),
 * PermissionDenied (permission_denied), StopFailure (stop_failure). Each test
 * checks the payload the hook read and that its answer does what Claude
 * Code's does.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs, STACK_TRACE, toolResultsSent } from "./helpers.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-claude-events-e2e-");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

const q = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/** A command that appends its stdin as one line to `file`, then prints `answer` (if any). */
function recorder(file: string, answer?: unknown): string {
  const print = answer === undefined ? "" : `; echo ${q(JSON.stringify(answer))}`;
  return `cat >> ${q(file)}; echo >> ${q(file)}${print}`;
}

async function userSettings(settings: Record<string, unknown>): Promise<void> {
  await writeFile(path.join(dirs.acaiHome, "settings.json"), JSON.stringify(settings));
}

async function payloads(file: string): Promise<Record<string, unknown>[]> {
  if (!existsSync(file)) return [];
  return (await readFile(file, "utf8"))
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function hook(command: string, matcher?: string) {
  return [{ ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: "command", command }] }];
}

async function run(prompt: string, extra: string[] = []) {
  if (server === undefined) throw new Error("no server");
  const result = await runAcai({
    args: ["-p", prompt, ...extra, ...modelArgs("chat", server)],
    dirs,
    baseUrl: server.url,
  });
  expect(result.stderr).not.toMatch(STACK_TRACE);
  return result;
}

/** Every text the model was sent in request `index` (messages' content, as JSON). */
function sent(index: number): string {
  return JSON.stringify(server?.requests.filter((r) => r.api === "chat")[index]?.body?.messages);
}

describe("PostToolBatch (after_tool_batch)", () => {
  it("fires once per step with every call and its result; its context reaches the next request", async () => {
    const seen = path.join(dirs.root, "batch.jsonl");
    const answer = {
      hookSpecificOutput: { hookEventName: "PostToolBatch", additionalContext: "BATCH-NOTE-7" },
    };
    await userSettings({ hooks: { PostToolBatch: hook(recorder(seen, answer)) } });
    const a = path.join(dirs.cwd, "a.txt");
    await writeFile(a, "alpha\n");
    server = await startFakeOpenAI([
      {
        toolCalls: [
          { id: "call_r", name: "Read", input: { file_path: a } },
          { id: "call_g", name: "Glob", input: { pattern: "*.txt" } },
        ],
      },
      { text: "done" },
    ]);
    const result = await run("read both");
    expect(result.exitCode, result.stderr).toBe(0);
    const got = await payloads(seen);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({
      event: "after_tool_batch",
      hook_event_name: "PostToolBatch",
      step: 1,
      turn: 1,
      tool_calls: [
        { tool_use_id: "call_r", tool_name: "Read", tool_input: { file_path: a }, is_error: false },
        { tool_use_id: "call_g", tool_name: "Glob", is_error: false },
      ],
    });
    const calls = got[0]?.tool_calls as Array<{ tool_response: string }>;
    expect(calls[0]?.tool_response).toContain("alpha");
    expect(calls[1]?.tool_response).toContain("a.txt");
    // The context reaches the next request, once.
    expect(sent(1)).toContain("BATCH-NOTE-7");
    expect(sent(1).split("BATCH-NOTE-7")).toHaveLength(2);
  });

  it("a block ends the turn: no further model request", async () => {
    await userSettings({
      hooks: { PostToolBatch: hook(`echo ${q('{"decision":"block","reason":"ENOUGH-TOOLS"}')}`) },
    });
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Glob", input: { pattern: "*" } }] },
      { text: "should not be asked" },
    ]);
    const result = await run("look around");
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain("ENOUGH-TOOLS");
    expect(server.requests.filter((r) => r.api === "chat")).toHaveLength(1);
  });
});

describe("PermissionDenied (permission_denied)", () => {
  it("fires for a call a deny rule refuses, matched on the tool; retry tells the model it may retry", async () => {
    const seen = path.join(dirs.root, "denied.jsonl");
    const other = path.join(dirs.root, "other.jsonl");
    const retry = { hookSpecificOutput: { hookEventName: "PermissionDenied", retry: true } };
    await userSettings({
      permissions: { deny: ["Bash(curl:*)"] },
      hooks: {
        PermissionDenied: [
          ...hook(recorder(seen, retry), "Bash"),
          ...hook(recorder(other), "Write"),
        ],
      },
    });
    server = await startFakeOpenAI([
      { toolCalls: [{ id: "call_c", name: "Bash", input: { command: "curl example.com" } }] },
      { text: "ok" },
    ]);
    const result = await run("fetch it");
    expect(result.exitCode, result.stderr).toBe(0);
    const got = await payloads(seen);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({
      event: "permission_denied",
      hook_event_name: "PermissionDenied",
      tool_name: "Bash",
      tool_use_id: "call_c",
      tool_input: { command: "curl example.com" },
      reason: expect.stringContaining("curl"),
    });
    expect(await payloads(other)).toEqual([]);
    const results = toolResultsSent(server.requests.filter((r) => r.api === "chat")[1]?.body);
    expect(results.join("\n")).toContain("Permission denied");
    expect(results.join("\n")).toContain("may retry this call");
  });

  it("fires when nobody can approve (acai -p without --yes); without retry the result says nothing of retrying", async () => {
    const seen = path.join(dirs.root, "denied.jsonl");
    await userSettings({ hooks: { PermissionDenied: hook(recorder(seen)) } });
    const file = path.join(dirs.cwd, "x.txt");
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Write", input: { file_path: file, content: "x" } }] },
      { text: "ok" },
    ]);
    const result = await run("write it");
    expect(result.exitCode, result.stderr).toBe(0);
    expect(existsSync(file)).toBe(false);
    const got = await payloads(seen);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ tool_name: "Write", reason: expect.any(String) });
    const results = toolResultsSent(server.requests.filter((r) => r.api === "chat")[1]?.body);
    expect(results.join("\n")).not.toContain("may retry");
  });
});

describe("StopFailure (stop_failure)", () => {
  it("fires when the model request fails, matched on the error type; its answer changes nothing", async () => {
    const seen = path.join(dirs.root, "failure.jsonl");
    const other = path.join(dirs.root, "other.jsonl");
    await userSettings({
      hooks: {
        StopFailure: [
          ...hook(
            recorder(seen, { decision: "block", reason: "IGNORED" }),
            "authentication_failed",
          ),
          ...hook(recorder(other), "rate_limit"),
        ],
        Stop: hook(recorder(other)),
      },
    });
    server = await startFakeOpenAI([{ status: 401, errorMessage: "bad key" }]);
    const result = await run("hello");
    expect(result.exitCode).toBe(1);
    const got = await payloads(seen);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({
      event: "stop_failure",
      hook_event_name: "StopFailure",
      error: "authentication_failed",
      error_details: expect.stringContaining("401"),
      last_assistant_message: "",
      turn: 1,
    });
    // No Stop hook on a failed turn (as Claude Code), nor the hook of another error type.
    expect(await payloads(other)).toEqual([]);
    // The block is not acted on: a warning says it is ignored on an observe-only event.
    expect(result.stderr).toMatch(/block is ignored on stop_failure/);
  });
});

describe("InstructionsLoaded (instructions_loaded)", () => {
  it("fires once per instruction file in the system prompt, the user's then the project's", async () => {
    const seen = path.join(dirs.root, "loaded.jsonl");
    const other = path.join(dirs.root, "other.jsonl");
    await userSettings({
      hooks: {
        InstructionsLoaded: [
          ...hook(recorder(seen), "session_start"),
          ...hook(recorder(other), "compact"),
        ],
      },
    });
    await writeFile(path.join(dirs.acaiHome, "AGENTS.md"), "User rules.\n");
    await writeFile(path.join(dirs.cwd, "AGENTS.md"), "Project rules.\n");
    server = await startFakeOpenAI([{ text: "hi" }]);
    const result = await run("hello", ["--trust-project"]);
    expect(result.exitCode, result.stderr).toBe(0);
    const got = await payloads(seen);
    expect(got.map((p) => [p.file_path, p.memory_type, p.load_reason])).toEqual([
      [path.join(dirs.acaiHome, "AGENTS.md"), "User", "session_start"],
      [path.join(dirs.cwd, "AGENTS.md"), "Project", "session_start"],
    ]);
    expect(got[0]).toMatchObject({
      event: "instructions_loaded",
      hook_event_name: "InstructionsLoaded",
    });
    expect(await payloads(other)).toEqual([]);
  });

  it("does not fire for the project's file when it is left out (--no-project)", async () => {
    const seen = path.join(dirs.root, "loaded.jsonl");
    await userSettings({ hooks: { InstructionsLoaded: hook(recorder(seen)) } });
    await writeFile(path.join(dirs.cwd, "AGENTS.md"), "Project rules.\n");
    server = await startFakeOpenAI([{ text: "hi" }]);
    const result = await run("hello", ["--no-project"]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await payloads(seen)).toEqual([]);
  });
});

describe("SessionEnd reasons in Claude Code's words", () => {
  it("acai -p ends with claude_reason other: an `other` matcher runs, a `prompt_input_exit` one does not", async () => {
    const seen = path.join(dirs.root, "end.jsonl");
    const other = path.join(dirs.root, "other.jsonl");
    await userSettings({
      hooks: {
        SessionEnd: [
          ...hook(recorder(seen), "other"),
          ...hook(recorder(other), "prompt_input_exit"),
        ],
      },
    });
    server = await startFakeOpenAI([{ text: "hi" }]);
    const result = await run("hello");
    expect(result.exitCode, result.stderr).toBe(0);
    const got = await payloads(seen);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ reason: "completed", claude_reason: "other" });
    expect(await payloads(other)).toEqual([]);
  });
});
