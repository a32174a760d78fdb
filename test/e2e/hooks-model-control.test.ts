/**
 * Control around the model through `acai -p` (issue 22, item 3): a
 * before_model hook rewrites one request (messages, system prompt, sampling,
 * the tools offered) or answers in place of the model; an after_model hook
 * replaces the response's text and drops a tool call before it runs; an
 * after_tool hook's follow-up call passes before_tool like any other call.
 * Asserted on what the scripted model server actually received, on the
 * files the tools wrote, and on the audit log.
 */
import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { jsonLines, modelArgs, toolResultsSent } from "./helpers.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

/** One hook program: logs each payload (JSONL) and answers by its mode and the payload. */
const HOOK = `
import { appendFileSync, existsSync } from "node:fs";
const mode = process.argv[2];
const log = process.argv[3];
let text = "";
process.stdin.on("data", (c) => (text += c));
process.stdin.on("end", () => {
  const p = JSON.parse(text);
  appendFileSync(log, JSON.stringify({ mode, ...p }) + "\\n");
  const say = (a) => process.stdout.write(JSON.stringify(a));
  switch (mode) {
    case "rewrite":
      if (p.step === 1) say({ llm_request: { messages: [{ role: "user", content: "REWRITTEN PROMPT" }], system: "SYSTEM-REPLACED", config: { temperature: 0.25, maxOutputTokens: 77 }, tools: ["Read"] } });
      return;
    case "synthetic":
      say({ hookSpecificOutput: { hookEventName: "BeforeModel", llm_response: { candidates: [{ content: { role: "model", parts: ["SYNTHETIC ANSWER"] } }] } } });
      return;
    case "redact":
      if (p.step === 1) say({ llm_response: { text: "REDACTED" }, drop_tool_calls: ["call_drop"] });
      return;
    case "follow":
      say({ follow_up: { tool_name: "Bash", tool_input: { command: "touch followup-ran" } } });
      return;
    case "no-bash":
      process.stderr.write("NO-BASH-FOLLOWUPS");
      process.exit(2);
    case "defer":
      if (existsSync(process.argv[4])) say({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } });
      else say({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "defer", permissionDecisionReason: "WAITING-FOR-ANSWER" } });
      return;
  }
});
`;

interface Setup {
  log: string;
  hook: (mode: string, extra?: string) => { type: "command"; command: string };
}

async function setUp(d: AcaiDirs, hooks: (s: Setup) => Record<string, unknown>): Promise<Setup> {
  const script = path.join(d.acaiHome, "hook.mjs");
  await writeFile(script, HOOK);
  const log = path.join(d.root, "payloads.jsonl");
  const s: Setup = {
    log,
    hook: (mode, extra = "") => ({
      type: "command",
      command: `'${process.execPath}' '${script}' ${mode} '${log}' ${extra}`,
    }),
  };
  await writeFile(path.join(d.acaiHome, "settings.json"), JSON.stringify({ hooks: hooks(s) }));
  return s;
}

async function payloads(log: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(log, "utf8").catch(() => "");
  return jsonLines(text);
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

function run(d: AcaiDirs, s: FakeOpenAIServer, args: string[], stdin?: string) {
  return runAcai({
    dirs: d,
    args: [...args, "--yes", ...modelArgs("chat", s)],
    baseUrl: s.url,
    timeoutMs: 30_000,
    ...(stdin === undefined ? {} : { stdin }),
  });
}

type Body = Record<string, unknown> & { messages: Array<Record<string, unknown>> };
const bodyOf = (srv: FakeOpenAIServer, i: number) => srv.requests[i]?.body as Body;

describe("before_model changes one request", () => {
  it("replaces the messages, the system prompt, sampling and the tools offered; an unoffered call is refused", async () => {
    const d = await makeAcaiDirs("acai-model-control-");
    dirs = d;
    const s = await setUp(d, (h) => ({ before_model: [{ hooks: [h.hook("rewrite")] }] }));
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Bash", input: { command: "touch bash-ran" } }] },
      { text: "done" },
    ]);
    const result = await run(d, server, ["-p", "the original prompt"]);
    expect(result.exitCode, result.stderr).toBe(0);
    const first = bodyOf(server, 0);
    const sent = JSON.stringify(first.messages);
    expect(sent).toContain("REWRITTEN PROMPT");
    expect(sent).not.toContain("the original prompt");
    expect(first.messages[0]).toMatchObject({ role: "system", content: "SYSTEM-REPLACED" });
    expect(first.temperature).toBe(0.25);
    expect(first.max_tokens).toBe(77);
    const offered = (first.tools as Array<{ function: { name: string } }>).map(
      (t) => t.function.name,
    );
    expect(offered).toEqual(["Read"]);
    // The model named a tool it was not offered: refused, never run.
    expect(await exists(path.join(d.cwd, "bash-ran"))).toBe(false);
    expect(toolResultsSent(bodyOf(server, 1)).join("\n")).toContain("was not offered");
    // Step 2 is not rewritten: the conversation itself was never changed.
    expect(JSON.stringify(bodyOf(server, 1).messages)).toContain("the original prompt");
    // The hook saw the request in Gemini CLI's shape.
    const seen = (await payloads(s.log))[0] as { llm_request: { messages: unknown[] } };
    expect(seen.llm_request.messages).toEqual([{ role: "user", content: "the original prompt" }]);
    const audit = await readFile(path.join(d.acaiHome, "logs", "hooks-audit.jsonl"), "utf8");
    expect(audit).toContain("llm_request.tools [Read]");
    expect(audit).toContain("llm_request.messages (1)");
  });

  it("answers in place of the model: no request reaches the server", async () => {
    const d = await makeAcaiDirs("acai-model-control-");
    dirs = d;
    await setUp(d, (h) => ({ before_model: [{ hooks: [h.hook("synthetic")] }] }));
    server = await startFakeOpenAI([{ text: "the real model" }]);
    const result = await run(d, server, ["-p", "hi", "--output-format", "json"]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ result: "SYNTHETIC ANSWER" });
  });
});

describe("after_model changes the response", () => {
  it("replaces the text the conversation keeps and drops a tool call before it runs", async () => {
    const d = await makeAcaiDirs("acai-model-control-");
    dirs = d;
    await setUp(d, (h) => ({ after_model: [{ hooks: [h.hook("redact")] }] }));
    server = await startFakeOpenAI([
      {
        text: "SECRET-TEXT",
        toolCalls: [
          { id: "call_keep", name: "Bash", input: { command: "touch kept-ran" } },
          { id: "call_drop", name: "Bash", input: { command: "touch dropped-ran" } },
        ],
      },
      { text: "done" },
    ]);
    const result = await run(d, server, ["-p", "go"]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await exists(path.join(d.cwd, "kept-ran"))).toBe(true);
    expect(await exists(path.join(d.cwd, "dropped-ran"))).toBe(false);
    const history = JSON.stringify(bodyOf(server, 1).messages);
    expect(history).toContain("REDACTED");
    expect(history).not.toContain("SECRET-TEXT");
    expect(history).toContain("call_keep");
    expect(history).not.toContain("call_drop");
  });
});

describe("after_tool asks for a follow-up call", () => {
  const script = [
    { toolCalls: [{ name: "Bash", input: { command: "echo first" } }] },
    { text: "done" },
  ];

  it("runs it through before_tool, which can block it", async () => {
    const d = await makeAcaiDirs("acai-model-control-");
    dirs = d;
    await setUp(d, (h) => ({
      PostToolUse: [{ matcher: "Bash", hooks: [h.hook("follow")] }],
      PreToolUse: [{ matcher: "Bash", hooks: [h.hook("no-bash")] }],
    }));
    server = await startFakeOpenAI(script);
    const result = await run(d, server, ["-p", "go"]);
    // The model's own Bash call is blocked too (same hook); no follow-up is asked for a blocked call.
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await exists(path.join(d.cwd, "followup-ran"))).toBe(false);
  });

  it("runs it, its result replacing the call's; its own after_tool cannot chain another", async () => {
    const d = await makeAcaiDirs("acai-model-control-");
    dirs = d;
    const s = await setUp(d, (h) => ({
      PostToolUse: [{ matcher: "Bash", hooks: [h.hook("follow")] }],
      PreToolUse: [{ matcher: "Bash", hooks: [h.hook("log-only")] }],
    }));
    server = await startFakeOpenAI(script);
    const result = await run(d, server, ["-p", "go"]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await exists(path.join(d.cwd, "followup-ran"))).toBe(true);
    const results = toolResultsSent(bodyOf(server, 1)).join("\n");
    expect(results).toContain("ran a follow-up call");
    const before = (await payloads(s.log)).filter((p) => p.mode === "log-only");
    // before_tool ran for the model's call and for the follow-up.
    expect(before.map((p) => (p.tool_input as { command: string }).command)).toEqual([
      "echo first",
      "touch followup-ran",
    ]);
    expect(result.stderr).toContain("only one is run");
  });
});

describe("before_tool defers a call (headless)", () => {
  it("stops with exit 5 and stop_reason deferred; --resume asks the hook again and runs it", async () => {
    const d = await makeAcaiDirs("acai-model-control-");
    dirs = d;
    const answer = path.join(d.root, "answer");
    const s = await setUp(d, (h) => ({
      PreToolUse: [{ matcher: "Bash", hooks: [h.hook("defer", `'${answer}'`)] }],
    }));
    server = await startFakeOpenAI([
      { toolCalls: [{ id: "call_wait", name: "Bash", input: { command: "touch deferred-ran" } }] },
      { text: "resumed and done" },
    ]);
    const first = await run(d, server, ["-p", "go", "--output-format", "json"]);
    expect(first.exitCode, first.stderr).toBe(5);
    const result = JSON.parse(first.stdout);
    expect(result).toMatchObject({
      stop_reason: "deferred",
      is_error: false,
      deferred_tool_use: {
        id: "call_wait",
        name: "Bash",
        input: { command: "touch deferred-ran" },
      },
    });
    expect(await exists(path.join(d.cwd, "deferred-ran"))).toBe(false);
    expect(server.requests).toHaveLength(1);

    await writeFile(answer, "yes");
    const second = await run(d, server, ["-p", "--resume", result.session_id], "");
    expect(second.exitCode, second.stderr).toBe(0);
    expect(await exists(path.join(d.cwd, "deferred-ran"))).toBe(true);
    const asked = (await payloads(s.log)).filter((p) => p.tool_use_id === "call_wait");
    expect(asked).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
    expect(toolResultsSent(bodyOf(server, 1))).toHaveLength(1);
  });
});
