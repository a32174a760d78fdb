/**
 * A3S's hook examples (seed 001) as its users write them — TypeScript
 * plugins importing `HookEngine`, `Hook`, `HookMatcher`, `HookEventType`
 * from `acai-agent/hooks` (plugins/) — run through `acai -p` with the
 * effect the seed describes (issue 20, items 1 and 4).
 */
import { existsSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { modelArgs, STACK_TRACE, toolResultsSent } from "../../e2e/helpers.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../../support/run-acai.js";
import { replayModel, runPrompt, type ToolCall } from "../support.js";
import { installA3s, lines } from "./support.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;
beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-seeds-a3s-");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

const log = (name: string) => path.join(dirs.root, name);
const bash = (command: string, extra: Record<string, unknown> = {}): ToolCall => ({
  name: "Bash",
  input: { command, ...extra },
});

async function run(calls: ToolCall[], env: Record<string, string> = {}, extra: string[] = []) {
  const model = await replayModel(dirs, calls);
  const result = await runAcai({
    args: ["-p", "go", "--model", model, "--allowedTools", "Bash,Read,Write", ...extra],
    dirs,
    env,
    timeoutMs: 30_000,
  });
  expect(result.stderr).not.toMatch(STACK_TRACE);
  expect(result.stderr).not.toMatch(/plugin.*(broken|failed to load)/i);
  return result;
}

describe("A3S's examples through acai -p", () => {
  it("Security: block-rm-rf blocks rm -rf with its reason; other commands run", async () => {
    await installA3s(dirs, "block-rm-rf.ts");
    const result = await run([bash("mkdir victim && touch victim/kept"), bash("rm -rf victim")]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain("Recursive force deletion is not allowed");
    expect(existsSync(path.join(dirs.cwd, "victim", "kept"))).toBe(true);
  });

  it("Validation: restrict-writes refuses a Write outside /workspace/, naming the path", async () => {
    await installA3s(dirs, "restrict-writes.ts");
    const target = path.join(dirs.cwd, "out.txt");
    const result = await run([{ name: "Write", input: { file_path: target, content: "x" } }]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain(`Write access denied: ${target} is outside workspace`);
    expect(existsSync(target)).toBe(false);
  });

  it("Transformation: add-timeout gives every Bash call a timeout, keeping one it has", async () => {
    await installA3s(dirs, "add-timeout.ts");
    // An acai hook after it (priority 0 runs last) notes the input the tool gets.
    await writeFile(
      path.join(dirs.acaiHome, "plugins", "zz-observe.mjs"),
      `import { appendFileSync } from "node:fs";
export function register(api) {
  api.on("before_tool", (e) => { appendFileSync(process.env.SEEN, JSON.stringify(e.tool_input) + "\\n"); }, { priority: 0 });
}`,
    );
    const result = await run([bash("true"), bash("true", { timeout: 5000 })], {
      SEEN: log("seen"),
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const seen = (await lines(log("seen"))).map((line) => JSON.parse(line) as { timeout?: number });
    expect(seen.map((input) => input.timeout)).toEqual([30000, 5000]);
  });

  it("Logging: audit-log sees every tool execution, failed ones with success false", async () => {
    await installA3s(dirs, "audit-log.ts");
    const result = await run(
      [
        bash("echo ok"),
        bash("exit 3"),
        { name: "Read", input: { file_path: path.join(dirs.cwd, "missing.txt") } },
      ],
      { A3S_AUDIT_LOG: log("audit") },
      ["--output-format", "json"],
    );
    expect(result.exitCode, result.stderr).toBe(0);
    const sessionId = JSON.parse(result.stdout).session_id;
    const audit = (await lines(log("audit"))).map((line) => JSON.parse(line));
    const byTool = audit
      .map((entry) => ({
        tool: entry.tool,
        what: entry.args.command ?? path.basename(entry.args.file_path),
        success: entry.success,
        session: entry.session,
        timed: typeof entry.duration_ms === "number" && entry.duration_ms >= 0,
      }))
      .sort((a, b) => a.what.localeCompare(b.what));
    expect(byTool).toEqual([
      { tool: "Bash", what: "echo ok", success: true, session: sessionId, timed: true },
      { tool: "Bash", what: "exit 3", success: false, session: sessionId, timed: true },
      { tool: "Read", what: "missing.txt", success: false, session: sessionId, timed: true },
    ]);
  });

  it("Cost Control: token-budget adds up GenerateEnd's usage per session and warns past the budget", async () => {
    await installA3s(dirs, "token-budget.ts");
    const result = await run(
      [bash("true")],
      {
        A3S_BUDGET_LOG: log("budget"),
        A3S_BUDGET: "1",
      },
      ["--output-format", "json"],
    );
    expect(result.exitCode, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout);
    const warned = await lines(log("budget"));
    // Two generations (the tool call, then "done"): each warns with the running total.
    expect(warned).toHaveLength(2);
    const totals = warned.map((line) => Number(line.split(": ").at(-1)));
    expect(warned[0]).toContain(`Session ${out.session_id} exceeded 1 tokens`);
    expect(totals[0]).toBeGreaterThan(0);
    expect(totals[1]).toBeGreaterThan(totals[0] as number);
    expect(totals[1]).toBe(out.usage.total_tokens);
  });

  it("Retry Logic: rate-limit-retry's Retry sends the generation again after its delay", async () => {
    await installA3s(dirs, "rate-limit-retry.ts");
    const result = await run([bash("touch ran")], { A3S_RETRY_LOG: log("retry") });
    expect(result.exitCode, result.stderr).toBe(0);
    // The first request is retried once, then goes; the second request goes at once.
    expect(await lines(log("retry"))).toEqual(["retry", "continue", "continue"]);
    expect(existsSync(path.join(dirs.cwd, "ran"))).toBe(true);
  });

  it("Priority: the security check (10) runs before the audit log (1000), registered the other way round", async () => {
    await installA3s(dirs, "priorities.ts");
    const result = await run([bash("true")], { A3S_ORDER_LOG: log("order") });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await lines(log("order"))).toEqual(["security-check", "audit-log"]);
  });
});

type Event = { event_type: string; payload: Record<string, unknown> };

describe("A3S's payloads: every field of the seed's interfaces, on every event", () => {
  it("SessionStart, GenerateStart/End, PreToolUse, PostToolUse (failures too), SessionEnd", async () => {
    await installA3s(dirs, "every-event.ts");
    await writeFile(path.join(dirs.cwd, "notes.txt"), "hello\n");
    const result = await run(
      [
        bash("echo hi"),
        bash("echo oops >&2; exit 3"),
        { name: "Read", input: { file_path: path.join(dirs.cwd, "missing.txt") } },
        { name: "Read", input: { file_path: path.join(dirs.cwd, "notes.txt") } },
      ],
      { A3S_EVENTS_LOG: log("events") },
      ["--output-format", "json"],
    );
    expect(result.exitCode, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout);
    const events = (await lines(log("events"))).map((line) => JSON.parse(line) as Event);
    const of = (type: string) => events.filter((e) => e.event_type === type).map((e) => e.payload);
    for (const event of events) expect(event.payload.session_id).toBe(out.session_id);

    const [start] = of("SessionStart");
    expect(start).toMatchObject({ model_provider: "replay", model_name: expect.any(String) });
    expect(String(start?.system_prompt)).toContain("acai");

    const generations = of("GenerateStart");
    expect(generations).toHaveLength(5);
    for (const g of generations) {
      expect(g).toMatchObject({
        prompt: "go",
        model_provider: "replay",
        model_name: start?.model_name,
        system_prompt: start?.system_prompt,
      });
      expect(g.available_tools).toEqual(expect.arrayContaining(["Bash", "Read", "Write"]));
    }

    const ends = of("GenerateEnd");
    expect(ends).toHaveLength(5);
    expect(ends[0]?.tool_calls).toEqual([
      { id: expect.any(String), name: "Bash", args: { command: "echo hi" } },
    ]);
    expect(ends[4]).toMatchObject({ prompt: "go", response_text: "done", tool_calls: [] });
    for (const e of ends) {
      expect(e.usage).toEqual({
        prompt_tokens: expect.any(Number),
        completion_tokens: expect.any(Number),
        total_tokens: expect.any(Number),
      });
      expect(e.duration_ms).toEqual(expect.any(Number));
    }

    const pre = of("PreToolUse");
    expect(pre.map((p) => p.recent_tools)).toEqual([
      [],
      ["Bash"],
      ["Bash", "Bash"],
      ["Bash", "Bash", "Read"],
    ]);
    for (const p of pre) expect(p.working_directory).toBe(dirs.cwd);

    const post = of("PostToolUse");
    const results = post.map((p) => p.result as Record<string, unknown>);
    expect(post.map((p) => p.tool)).toEqual(["Bash", "Bash", "Read", "Read"]);
    expect(results.map((r) => r.success)).toEqual([true, false, false, true]);
    expect(results.map((r) => r.exit_code)).toEqual([0, 3, undefined, undefined]);
    expect(results[0]?.output).toContain("hi");
    expect(results[1]?.output).toContain("oops");
    expect(String(results[2]?.output)).toMatch(/missing\.txt/);
    expect(results[3]?.output).toContain("hello");
    for (const r of results) expect(r.duration_ms).toEqual(expect.any(Number));

    const [end] = of("SessionEnd");
    expect(end).toMatchObject({
      total_tool_calls: 4,
      total_tokens: out.usage.total_tokens,
      duration_ms: expect.any(Number),
    });
  });
});

describe("A3S's Continue with modified, where the seed allows it", () => {
  it("PostToolUse's modified result is the output the model gets", async () => {
    await installA3s(dirs, "redact-output.ts");
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Bash", input: { command: "echo key=sk-abc123" } }] },
      { text: "done" },
    ]);
    const result = await runAcai({
      args: ["-p", "go", "--allowedTools", "Bash", ...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
      timeoutMs: 30_000,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const told = toolResultsSent(server.requests[1]?.body).join("\n");
    expect(told).toContain("key=[REDACTED]");
    expect(told).not.toContain("sk-abc123");
  });

  it("GenerateStart's modified prompt is the prompt the model is sent, on every request of the turn", async () => {
    await installA3s(dirs, "prompt-context.ts", "every-event.ts");
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Bash", input: { command: "true" } }] },
      { text: "done" },
    ]);
    const result = await runAcai({
      args: ["-p", "go", "--allowedTools", "Bash", ...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
      env: { A3S_EVENTS_LOG: log("events") },
      timeoutMs: 30_000,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(2);
    for (const request of server.requests) {
      const users = ((request.body?.messages ?? []) as Array<{ role: string; content: unknown }>)
        .filter((m) => m.role === "user")
        .map((m) => JSON.stringify(m.content));
      expect(users[0]).toContain("[ticket ACAI-7] go");
      expect(users.join("\n")).not.toContain("[ticket ACAI-7] [ticket ACAI-7]");
    }
    const events = (await lines(log("events"))).map((line) => JSON.parse(line) as Event);
    // every-event.ts (registered later, same priority) sees the prompt as replaced.
    const prompts = events
      .filter((e) => e.event_type === "GenerateStart" || e.event_type === "GenerateEnd")
      .map((e) => `${e.event_type} ${e.payload.prompt}`);
    expect(prompts).toEqual([
      "GenerateStart [ticket ACAI-7] go",
      "GenerateEnd [ticket ACAI-7] go",
      "GenerateStart [ticket ACAI-7] go",
      "GenerateEnd [ticket ACAI-7] go",
    ]);
  });

  it("GenerateStart's modified prompt is the one the transcript keeps: --resume sends it, not the typed one", async () => {
    await installA3s(dirs, "prompt-context.ts");
    server = await startFakeOpenAI([{ text: "first answer" }, { text: "second answer" }]);
    const args = ["--allowedTools", "Bash", ...modelArgs("chat", server)];
    const first = await runAcai({
      args: ["-p", "go", ...args],
      dirs,
      baseUrl: server.url,
      timeoutMs: 30_000,
    });
    expect(first.exitCode, first.stderr).toBe(0);
    const [transcript] = await readdir(path.join(dirs.acaiHome, "transcripts"));
    // transcripts/<date>-<session id>.jsonl
    const sessionId = String(transcript).match(/[0-9a-f]{8}-[0-9a-f-]{27}/)?.[0] ?? "";
    const second = await runAcai({
      args: ["-p", "again", "--resume", sessionId, ...args],
      dirs,
      baseUrl: server.url,
      timeoutMs: 30_000,
    });
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stderr).not.toMatch(STACK_TRACE);
    expect(server.requests).toHaveLength(2);
    const users = (
      (server.requests[1]?.body?.messages ?? []) as Array<{ role: string; content: unknown }>
    )
      .filter((m) => m.role === "user")
      .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
    // The first turn's prompt as the hook rewrote it, then this turn's, rewritten in its turn.
    expect(users).toEqual(["[ticket ACAI-7] go", "[ticket ACAI-7] again"]);
  });
});

describe("A3S registrations among a plugin's other ones", () => {
  it("run in registration order at an equal place (A3S's default 100 is acai's 900)", async () => {
    const plugins = path.join(dirs.acaiHome, "plugins");
    await mkdir(plugins, { recursive: true });
    await writeFile(
      path.join(plugins, "mixed.mjs"),
      `import { appendFileSync } from "node:fs";
const ran = (id) => appendFileSync(process.env.ORDER, id + "\\n");
export function register(api) {
  api.on("before_tool", () => { ran("acai-first"); }, { priority: 900 });
  api.register({ id: "a3s-middle", event_type: "PreToolUse" });
  api.on("before_tool", () => { ran("acai-last"); }, { priority: 900 });
  api.register_handler("a3s-middle", { handle: () => { ran("a3s-middle"); return { action: "Continue" }; } });
}`,
    );
    const result = await run([bash("true")], { ORDER: log("order") });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await lines(log("order"))).toEqual(["acai-first", "a3s-middle", "acai-last"]);
  });

  it("a HookEngine with a mistake is a broken plugin, named with the hook and what to fix", async () => {
    const plugins = path.join(dirs.acaiHome, "plugins");
    await installA3s(dirs);
    await writeFile(
      path.join(plugins, "typo.mjs"),
      `import { Hook, HookEngine } from "acai-agent/hooks";
const engine = new HookEngine();
engine.register(Hook.new("guard", "PreToolCall"));
export default engine;`,
    );
    const model = await replayModel(dirs, [bash("touch ran")]);
    const result = await runPrompt(dirs, model, ["--allowedTools", "Bash"]);
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.stderr).toContain("typo.mjs");
    expect(result.stderr).toContain('A3S hook "guard": unknown event_type "PreToolCall"');
  });
});
