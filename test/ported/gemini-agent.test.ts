/**
 * Gemini CLI's own agent- and session-level hook scenarios
 * (integration-tests/hooks-system.test.ts, hooks-agent-flow.test.ts), ported
 * to `acai -p`: BeforeAgent context, AfterAgent once per turn, AfterAgent's
 * prompt and clearContext, sequential
 * hooks, several events in one run, SessionStart / SessionEnd, hooks turned
 * off with Gemini's `hooksConfig`. SCENARIOS.md maps each one.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { geminiGroup, type Ported, ported } from "./ported-support.js";

let p: Ported | undefined;
afterEach(async () => {
  await p?.cleanup();
  p = undefined;
});

const say = (answer: unknown) => `console.log(JSON.stringify(${JSON.stringify(answer)}));`;
const context = (event: string, text: string) =>
  say({ decision: "allow", hookSpecificOutput: { hookEventName: event, additionalContext: text } });
const read = (file: string) => readFile(file, "utf8").catch(() => undefined);

describe("Gemini CLI: BeforeAgent and AfterAgent", () => {
  it("BeforeAgent's additionalContext reaches the model with the prompt", async () => {
    p = await ported("gemini-before-agent-", [{ text: "security noted" }]);
    const hook = await p.node(
      "augment",
      context("BeforeAgent", "SECURITY CONTEXT: this project handles secrets"),
    );
    await p.settings({ hooks: { BeforeAgent: [geminiGroup([hook])] } });
    const run = await p.run("Hello validation");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(p.sent(0)).toContain("SECURITY CONTEXT: this project handles secrets");
    expect(p.sent(0)).toContain("Hello validation");
    const [payload] = await p.payloads("augment");
    expect(payload?.prompt).toBe("Hello validation");
  });

  it("BeforeAgent and AfterAgent fire exactly once per turn, however many tool calls it makes", async () => {
    p = await ported("gemini-once-per-turn-", [
      { toolCalls: [{ name: "Bash", input: { command: "echo one" } }] },
      { toolCalls: [{ name: "Bash", input: { command: "echo two" } }] },
      { text: "Hello World" },
    ]);
    const before = await p.node("before", context("BeforeAgent", "BeforeAgent Fired"));
    const after = await p.node("after", "console.log(JSON.stringify({ decision: 'allow' }));");
    await p.settings({
      hooks: { BeforeAgent: [geminiGroup([before])], AfterAgent: [geminiGroup([after])] },
    });
    const run = await p.run("run two commands");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(p.server.requests).toHaveLength(3);
    expect(await p.payloads("before")).toHaveLength(1);
    const afterPayloads = await p.payloads("after");
    expect(afterPayloads).toHaveLength(1);
    expect(afterPayloads[0]?.last_assistant_message).toBe("Hello World");
    expect(afterPayloads[0]?.stop_hook_active).toBe(false);
  });

  it("an AfterAgent deny sends the turn back to the model with the reason; stop_hook_active lets it go", async () => {
    p = await ported("gemini-after-agent-deny-", [{ text: "draft" }, { text: "final" }]);
    const hook = await p.node(
      "gate",
      `if (payload.stop_hook_active) console.log(JSON.stringify({ decision: 'allow' }));
else console.log(JSON.stringify({ decision: 'deny', reason: 'Security policy triggered: say final' }));`,
    );
    await p.settings({ hooks: { AfterAgent: [geminiGroup([hook])] } });
    const run = await p.run("answer");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(p.server.requests).toHaveLength(2);
    expect(p.sent(1)).toContain("Security policy triggered: say final");
    expect(run.stdout).toContain("final");
    expect((await p.payloads("gate")).map((x) => x.stop_hook_active)).toEqual([false, true]);
  });
});

describe("Gemini CLI: AfterAgent's prompt and clearContext", () => {
  it("AfterAgent receives the turn's prompt beside prompt_response", async () => {
    p = await ported("gemini-after-agent-prompt-", [{ text: "Hello World" }]);
    const hook = await p.node(
      "after",
      "console.log(JSON.stringify({ decision: 'allow', systemMessage: 'Received Input: ' + payload.prompt + ' / ' + payload.prompt_response }));",
    );
    await p.settings({ hooks: { AfterAgent: [geminiGroup([hook])] } });
    const run = await p.run("Hello validation");
    expect(run.exitCode, run.stderr).toBe(0);
    const [payload] = await p.payloads("after");
    expect(payload).toMatchObject({
      hook_event_name: "AfterAgent",
      prompt: "Hello validation",
      prompt_response: "Hello World",
    });
    expect(run.stderr).toContain("Received Input: Hello validation / Hello World");
  });

  it("a deny with clearContext retries in a cleared conversation (system prompt kept, the reason the prompt), and --continue resumes from there", {
    timeout: 60_000,
  }, async () => {
    p = await ported("gemini-clear-context-", [
      { text: "Hi there!" },
      { text: "Clarification: I am a bot." },
      { text: "still here" },
    ]);
    const counter = await p.node("count", "console.log(JSON.stringify({ decision: 'allow' }));");
    const gate = await p.node(
      "gate",
      `if (payload.stop_hook_active) console.log(JSON.stringify({ decision: 'allow' }));
else console.log(JSON.stringify({ decision: 'block', reason: 'Security policy triggered', hookSpecificOutput: { hookEventName: 'AfterAgent', clearContext: true } }));`,
    );
    await p.settings({
      hooks: { BeforeModel: [geminiGroup([counter])], AfterAgent: [geminiGroup([gate])] },
    });
    const run = await p.run("Hello SECRET-PROMPT");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toContain("Clarification: I am a bot.");
    expect(p.server.requests).toHaveLength(2);
    const first = p.server.requests[0]?.body?.messages as Array<Record<string, unknown>>;
    const retry = p.server.requests[1]?.body?.messages as Array<Record<string, unknown>>;
    // The system prompt stays; the prompt and the rejected answer are gone; the reason is the prompt.
    expect(retry[0]).toEqual(first[0]);
    expect(retry[0]?.role).toBe("system");
    expect(p.sent(1)).not.toContain("SECRET-PROMPT");
    expect(p.sent(1)).not.toContain("Hi there!");
    expect(retry.at(-1)).toEqual({ role: "user", content: "Security policy triggered" });
    expect(retry).toHaveLength(first.length);
    // BeforeModel saw the same: as many messages on the retry as on the first request.
    const counts = (await p.payloads("count")).map(
      (x) => (x.llm_request as { messages: unknown[] }).messages.length,
    );
    expect(counts).toHaveLength(2);
    expect(counts[0]).toBeGreaterThan(0);
    expect(counts[1]).toBe(counts[0]);
    // The retry's AfterAgent hears the reason as the turn's prompt.
    const gated = await p.payloads("gate");
    expect(gated.map((x) => [x.stop_hook_active, x.prompt])).toEqual([
      [false, "Hello SECRET-PROMPT"],
      [true, "Security policy triggered"],
    ]);
    // The transcript marks the clearing: a resumed session does not bring the old turn back.
    const next = await p.run("and now?", { extra: ["--continue"] });
    expect(next.exitCode, next.stderr).toBe(0);
    expect(p.sent(2)).not.toContain("SECRET-PROMPT");
    expect(p.sent(2)).not.toContain("Hi there!");
    expect(p.sent(2)).toContain("Clarification: I am a bot.");
    expect(p.sent(2)).toContain("and now?");
  });
});

describe("Gemini CLI: several hooks and events", () => {
  it("a sequential group runs its hooks in order and both contexts reach the model", async () => {
    p = await ported("gemini-sequential-", [{ text: "ok" }]);
    const first = await p.node(
      "step1",
      `require('fs').appendFileSync(${JSON.stringify(path.join("ORDER"))}, '1');\n${context("BeforeAgent", "Step 1: Initial validation passed.")}`,
    );
    const second = await p.node(
      "step2",
      `require('fs').appendFileSync(${JSON.stringify(path.join("ORDER"))}, '2');\n${context("BeforeAgent", "Step 2: Security check completed.")}`,
    );
    await p.settings({ hooks: { BeforeAgent: [geminiGroup([first, second])] } });
    const run = await p.run("Hello");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await read(path.join(p.dirs.cwd, "ORDER"))).toBe("12");
    const sent = p.sent(0);
    expect(sent).toContain("Step 1: Initial validation passed.");
    expect(sent).toContain("Step 2: Security check completed.");
    expect(sent.indexOf("Step 1")).toBeLessThan(sent.indexOf("Step 2"));
  });

  it("BeforeAgent, BeforeTool and AfterTool hooks all run in one turn, each with its effect", async () => {
    p = await ported("gemini-multi-events-", [
      {
        toolCalls: [
          { name: "Write", input: { file_path: "multi.txt", content: "testing multiple events" } },
        ],
      },
      { text: "written" },
    ]);
    const beforeAgent = await p.node(
      "beforeAgent",
      context("BeforeAgent", "BeforeAgent: User request processed"),
    );
    const beforeTool = await p.node(
      "beforeTool",
      say({ decision: "allow", systemMessage: "BeforeTool: File operation logged" }),
    );
    const afterTool = await p.node(
      "afterTool",
      context("AfterTool", "AfterTool: Operation completed successfully"),
    );
    await p.settings({
      hooks: {
        BeforeAgent: [geminiGroup([beforeAgent])],
        BeforeTool: [geminiGroup([beforeTool], "write_file")],
        AfterTool: [geminiGroup([afterTool], "write_file")],
      },
    });
    const run = await p.run("Create multi.txt");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await read(path.join(p.dirs.cwd, "multi.txt"))).toBe("testing multiple events");
    expect(run.stderr).toContain("BeforeTool: File operation logged");
    expect(p.sent(0)).toContain("BeforeAgent: User request processed");
    expect(p.sent(1)).toContain("AfterTool: Operation completed successfully");
    for (const name of ["beforeAgent", "beforeTool", "afterTool"]) {
      expect(await p.payloads(name), name).toHaveLength(1);
    }
  });
});

describe("Gemini CLI: SessionStart and SessionEnd", () => {
  it("SessionStart (matcher 'startup') fires with source startup, shows its systemMessage and its context reaches the model", async () => {
    p = await ported("gemini-session-start-", [{ text: "I am a protocol droid." }]);
    const hook = await p.node(
      "start",
      say({
        decision: "allow",
        systemMessage: "Context injected via SessionStart hook",
        hookSpecificOutput: {
          hookEventName: "SessionStart",
          additionalContext:
            "If asked about your identity, you must respond with the following: I am a protocol droid that speaks the bacchi.",
        },
      }),
    );
    await p.settings({ hooks: { SessionStart: [geminiGroup([hook], "startup")] } });
    const run = await p.run("Who are you?");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain("Context injected via SessionStart hook");
    expect(p.sent(0)).toContain("protocol droid");
    const [payload] = await p.payloads("start");
    expect(payload?.source).toBe("startup");
  });

  it("SessionEnd (matcher 'exit', Gemini's reason) fires when `acai -p` ends", async () => {
    p = await ported("gemini-session-end-", [{ text: "bye" }]);
    const hook = await p.node(
      "end",
      say({ decision: "allow", systemMessage: "SessionEnd hook executed on exit" }),
    );
    await p.settings({ hooks: { SessionEnd: [geminiGroup([hook], "exit")] } });
    const run = await p.run("Hello");
    expect(run.exitCode, run.stderr).toBe(0);
    const payloads = await p.payloads("end");
    expect(payloads).toHaveLength(1);
    expect(payloads[0]?.reason).toBe("completed");
  });
});

describe("Gemini CLI: PreCompress", () => {
  it("PreCompress (matcher 'auto') fires with trigger auto when the context nears the window", {
    timeout: 60_000,
  }, async () => {
    p = await ported("gemini-precompress-", [
      { text: "old answer" },
      {
        toolCalls: [{ name: "Read", input: { file_path: "a.txt" } }],
        usage: { inputTokens: 1_700, outputTokens: 10 },
      },
      { text: "SUMMARY: the user read a file." },
      { text: "final answer" },
    ]);
    const hook = await p.node(
      "compress",
      say({
        decision: "allow",
        systemMessage: "PreCompress hook executed for automatic compression",
      }),
    );
    await p.settings({
      contextWindow: 2_000,
      hooks: { PreCompress: [geminiGroup([hook], "auto")] },
    });
    await writeFile(path.join(p.dirs.cwd, "a.txt"), "A\n");
    const first = await p.run("an old turn");
    expect(first.exitCode, first.stderr).toBe(0);
    const run = await p.run("now read a.txt", { extra: ["--continue"] });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toContain("final answer");
    const payloads = await p.payloads("compress");
    expect(payloads).toHaveLength(1);
    expect(payloads[0]).toMatchObject({ hook_event_name: "PreCompress", trigger: "auto" });
    expect(run.stderr).toContain("PreCompress hook executed for automatic compression");
  });
});

describe("Gemini CLI: hooks turned off in settings (hooksConfig)", () => {
  it("hooksConfig.disabled keeps the named hook from running, run after run; the others still run", {
    timeout: 60_000,
  }, async () => {
    const turn = [
      {
        toolCalls: [{ name: "Write", input: { file_path: "disabled-test.txt", content: "test" } }],
      },
      { text: "done" },
    ];
    p = await ported("gemini-disabled-", [...turn, ...turn]);
    const enabled = await p.node(
      "hookA",
      say({ decision: "allow", systemMessage: "EXECUTION_ALLOWED_BY_HOOK_A" }),
    );
    const disabled = await p.node(
      "hookB",
      say({ decision: "block", reason: "EXECUTION_BLOCKED_BY_HOOK_B" }),
    );
    await p.settings({
      hooksConfig: { enabled: true, disabled: ["hook-b"] },
      hooks: {
        BeforeTool: [
          geminiGroup(
            [
              { name: "hook-a", command: enabled },
              { name: "hook-b", command: disabled },
            ],
            "write_file",
          ),
        ],
      },
    });
    for (const round of [1, 2]) {
      const run = await p.run("Create disabled-test.txt");
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stderr).toContain("EXECUTION_ALLOWED_BY_HOOK_A");
      expect(run.stderr).not.toContain("EXECUTION_BLOCKED_BY_HOOK_B");
      expect(run.stderr).not.toContain("hooksConfig");
      expect(await read(path.join(p.dirs.cwd, "disabled-test.txt"))).toBe("test");
      expect(await p.payloads("hookA")).toHaveLength(round);
      expect(await p.payloads("hookB")).toHaveLength(0);
    }
  });

  it("hooksConfig.enabled: false runs no hook at all", async () => {
    p = await ported("gemini-all-off-", [
      { toolCalls: [{ name: "Write", input: { file_path: "off.txt", content: "ran" } }] },
      { text: "done" },
    ]);
    const blocker = await p.node("blocker", say({ decision: "block", reason: "SHOULD NOT RUN" }));
    await p.settings({
      hooksConfig: { enabled: false },
      hooks: { BeforeTool: [geminiGroup([blocker], "write_file")] },
    });
    const run = await p.run("Create off.txt");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await read(path.join(p.dirs.cwd, "off.txt"))).toBe("ran");
    expect(await p.payloads("blocker")).toHaveLength(0);
  });
});
