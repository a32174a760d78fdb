import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../../source/agent/events.js";
import { HOOK_EVENTS, type HookDefinition } from "../../../../source/hooks/contract/definition.js";
import type { HookActivityEvent, InterceptedEvent } from "../../../../source/hooks/run/activity.js";
import {
  createHookInterceptor,
  type InterceptorOptions,
} from "../../../../source/hooks/run/interceptor.js";
import { survivorsOf, uniqueMarker } from "../../support.js";
import {
  answerHook,
  bashHook,
  collect,
  ev,
  fakeAgent,
  interceptorOptions,
  memoryAudit,
  tempDirPerTest,
} from "./support.js";

const dir = tempDirPerTest("acai-interceptor-");

function options(
  hooks: HookDefinition[],
  extra: Partial<InterceptorOptions> = {},
): InterceptorOptions {
  return interceptorOptions(dir.path, { hooks, ...extra });
}

const isActivity = (e: InterceptedEvent): e is HookActivityEvent =>
  e.type === "hook_start" || e.type === "hook_end" || e.type === "hook_warning";

const fullSession = (): AgentEvent[] => [
  ev.sessionStart(),
  {
    type: "instructions_loaded",
    file: { path: "/p/AGENTS.md", memoryType: "Project" },
    loadReason: "session_start",
  },
  ev.prompt(),
  { type: "turn_start", turn: 1, prompt: "hello" },
  { type: "step_start", turn: 1, step: 1 },
  ev.request(),
  ev.delta(),
  ev.response(),
  ev.output(),
  ev.pattern(),
  ev.toolStart(),
  ev.permission(),
  ev.toolEnd(),
  ev.toolError(),
  {
    type: "permission_denied",
    turn: 1,
    step: 1,
    toolCallId: "call_1",
    toolName: "Bash",
    input: { command: "curl x" },
    reason: "denied by the rule Bash(curl:*)",
  },
  {
    type: "tool_batch_end",
    turn: 1,
    step: 1,
    calls: [{ toolCallId: "call_1", toolName: "Bash", input: {}, result: "out", isError: false }],
  },
  ev.subagentStart(),
  ev.subagentStop(),
  { type: "step_end", turn: 1, step: 1 },
  ev.stop(),
  {
    type: "turn_failed",
    turn: 1,
    error: "rate_limit",
    message: "the model server is rate-limiting requests (429)",
    lastAssistantMessage: "",
  },
  ev.turnEnd(),
  ev.compactStart(),
  ev.compactEnd(),
  ev.notification(),
  ev.idle(),
  {
    type: "message_received",
    turn: 2,
    message: {
      id: "m1",
      from: "alice",
      to: "bob",
      content: "hi",
      broadcast: false,
      sentAt: 0,
      text: "Message from agent alice:\nhi",
    },
  },
  {
    type: "before_message_send",
    message: { from: "bob", to: "alice", content: "hello" },
  },
  {
    type: "message_sent",
    message: { from: "bob", to: "alice", content: "hello", delivered: ["alice"], kept: [] },
  },
  {
    type: "config_change",
    change: { source: "user_settings", filePath: "/h/.acai/settings.json" },
  },
  { type: "file_changed", change: { filePath: "/p/.envrc", event: "change" } },
  ev.sessionEnd(),
];

describe("hook interceptor", () => {
  it("maps every agent event to its hook event and passes the others through untouched", async () => {
    const hook = await bashHook(dir.path, "recorder", 'cat > "$OUT/$ACAI_HOOK_EVENT.json"', {
      events: [...HOOK_EVENTS],
    });
    const agent = fakeAgent(fullSession());
    const events = await collect(createHookInterceptor(options([hook]))(agent.run));

    // The permission request, which no hook decided, notified before it was denied.
    const agentEvents = events.filter(
      (e) => !isActivity(e) && !(e.type === "notification" && e.message.includes("permission")),
    );
    expect(agentEvents).toEqual(fullSession());
    for (const event of HOOK_EVENTS) {
      const payload = JSON.parse(await readFile(join(dir.path, `${event}.json`), "utf8"));
      // file_changed's `event` is Claude Code's FileChanged field (the kind of change).
      expect(payload.event).toBe(event === "file_changed" ? "change" : event);
      expect(payload.session_id).toBe("sess-1");
      expect(payload.transcript_path).toBe("/t/sess-1.jsonl");
    }
    const started = events
      .filter((e) => e.type === "hook_start")
      .map((e) => e.type === "hook_start" && e.event);
    // The permission question's notification hooks run beside the loop: when is not fixed.
    expect(started.filter((e) => e === "notification")).toHaveLength(2);
    expect(started.filter((e) => e !== "notification")).toEqual([
      "session_start",
      "instructions_loaded",
      "user_prompt",
      "before_model",
      "after_model",
      "output",
      "pattern",
      "before_tool",
      "permission_request",
      "after_tool",
      "after_tool_failure",
      "permission_denied",
      "after_tool_batch",
      "subagent_start",
      "subagent_stop",
      "before_stop",
      "stop_failure",
      "after_agent",
      "pre_compact",
      "post_compact",
      "idle",
      "message_received",
      "before_message_send",
      "message_sent",
      "config_change",
      "file_changed",
      "session_end",
    ]);
    expect(agent.closed.value).toBe(true);
  });

  it("yields the agent event first, then its hooks' activity, then resumes the agent", async () => {
    const hook = await answerHook(dir.path, "guard", { action: "block", reason: "no" });
    const agent = fakeAgent([ev.toolStart(), ev.delta()]);
    const events = await collect(createHookInterceptor(options([hook]))(agent.run));
    expect(events.map((e) => e.type)).toEqual([
      "tool_call_start",
      "hook_start",
      "hook_end",
      "text_delta",
    ]);
    expect(agent.verdicts).toEqual([
      { type: "tool_call_start", verdict: { action: "block", reason: "no" } },
      { type: "text_delta", verdict: undefined },
    ]);
  });

  it("with no hooks every verdict is undefined and nothing but the agent's events comes out", async () => {
    const session = fullSession().filter((e) => e.type !== "permission_request");
    const agent = fakeAgent(session);
    const events = await collect(createHookInterceptor(options([]))(agent.run));
    expect(events).toEqual(session);
    expect(agent.verdicts.every((v) => v.verdict === undefined)).toBe(true);
  });

  it("turns every action into the agent's verdict", async () => {
    const hooks = [
      await answerHook(
        dir.path,
        "ctx",
        { context: "repo uses pnpm" },
        { events: ["session_start"] },
      ),
      await answerHook(
        dir.path,
        "prompt",
        { action: "modify", prompt: "hello, politely" },
        { events: ["user_prompt"] },
      ),
      await answerHook(
        dir.path,
        "patch",
        { action: "modify", input_patch: { timeout: 30000 } },
        { events: ["before_tool"], priority: 200 },
      ),
      await answerHook(
        dir.path,
        "claude-style",
        { hookSpecificOutput: { permissionDecision: "allow", additionalContext: "checked" } },
        { events: ["before_tool"], priority: 100 },
      ),
      await answerHook(
        dir.path,
        "out",
        { action: "modify", output: "[redacted]" },
        { events: ["after_tool"] },
      ),
      await answerHook(
        dir.path,
        "gate",
        { decision: "block", reason: "tests fail" },
        { events: ["before_stop"] },
      ),
      await answerHook(
        dir.path,
        "end-turn",
        { action: "block", reason: "budget" },
        { events: ["after_model"] },
      ),
    ];
    const agent = fakeAgent([
      ev.sessionStart(),
      ev.prompt(),
      ev.response(),
      ev.toolStart({ command: "npm test" }),
      ev.toolEnd(),
      ev.stop(),
    ]);
    await collect(createHookInterceptor(options(hooks))(agent.run));
    expect(agent.verdicts).toEqual([
      { type: "session_start", verdict: { action: "continue", context: ["repo uses pnpm"] } },
      { type: "user_prompt", verdict: { action: "continue", prompt: "hello, politely" } },
      { type: "model_response", verdict: { action: "block", reason: "budget" } },
      {
        type: "tool_call_start",
        verdict: {
          action: "continue",
          input: { command: "npm test", timeout: 30000 },
          context: ["checked"],
          // Claude Code's permissionDecision "allow": the permission question is spared.
          permission: { behavior: "allow", reason: "", by: "claude-style" },
        },
      },
      { type: "tool_call_end", verdict: { action: "continue", output: "[redacted]" } },
      { type: "stop_request", verdict: { action: "block", reason: "tests fail" } },
    ]);
  });

  it("a before_tool ask becomes the verdict's permission say; nobody is asked there", async () => {
    const hook = await answerHook(dir.path, "asker", { action: "ask", reason: "really?" });
    const asked: string[] = [];
    const agent = fakeAgent([ev.toolStart()]);
    await collect(
      createHookInterceptor(
        options([hook], {
          askUser: async (request) => {
            asked.push(request.reason);
            return true;
          },
        }),
      )(agent.run),
    );
    expect(asked).toEqual([]);
    expect(agent.verdicts[0]?.verdict).toEqual({
      action: "continue",
      permission: { behavior: "ask", reason: "really?", by: "asker" },
    });
  });

  it("a permission request is denied headless, allowed with assumeYes, put to askUser when given", async () => {
    const headless = fakeAgent([ev.permission()]);
    await collect(createHookInterceptor(options([]))(headless.run));
    const denied = headless.verdicts[0]?.verdict;
    expect(denied).toMatchObject({ action: "block" });
    if (denied?.action === "block") {
      expect(denied.reason).toMatch(/acai -p cannot ask/);
      expect(denied.modelText).toContain('--allowedTools "Bash(ls:*)"');
    }

    const yes = fakeAgent([ev.permission()]);
    await collect(createHookInterceptor(options([], { assumeYes: true }))(yes.run));
    expect(yes.verdicts[0]?.verdict).toEqual({ action: "allow" });

    const asked: unknown[] = [];
    const user = fakeAgent([ev.permission(), ev.permission()]);
    let answer = false;
    await collect(
      createHookInterceptor(
        options([], {
          askUser: async (request) => {
            asked.push(request);
            answer = !answer;
            return !answer;
          },
        }),
      )(user.run),
    );
    expect(asked[0]).toMatchObject({
      event: "permission_request",
      toolName: "Bash",
      toolInput: { command: "ls" },
      reason: "no rule allows Bash in default mode",
      suggestion: "Bash(ls:*)",
    });
    expect(user.verdicts[0]?.verdict).toMatchObject({ action: "block", reason: "denied by you" });
    expect(user.verdicts[1]?.verdict).toEqual({ action: "allow" });
  });

  it("permission_request hooks answer for the user: allow, deny, or nothing (the user is asked)", async () => {
    const events: Partial<HookDefinition> = { events: ["permission_request"] };
    const allow = await answerHook(dir.path, "allower", { action: "allow" }, events);
    const deny = await answerHook(dir.path, "denier", { action: "block", reason: "no" }, events);
    const quiet = await answerHook(dir.path, "quiet", { action: "continue" }, events);
    const asked: unknown[] = [];
    const askUser = async (request: unknown) => {
      asked.push(request);
      return true;
    };

    const allowed = fakeAgent([ev.permission()]);
    await collect(createHookInterceptor(options([allow], { askUser }))(allowed.run));
    expect(allowed.verdicts[0]?.verdict).toEqual({ action: "allow" });

    const denied = fakeAgent([ev.permission()]);
    await collect(createHookInterceptor(options([deny], { askUser }))(denied.run));
    expect(denied.verdicts[0]?.verdict).toMatchObject({
      action: "block",
      reason: "denied by a permission_request hook: no",
    });
    expect(asked).toEqual([]);

    const fallsThrough = fakeAgent([ev.permission()]);
    await collect(createHookInterceptor(options([quiet], { askUser }))(fallsThrough.run));
    expect(fallsThrough.verdicts[0]?.verdict).toEqual({ action: "allow" });
    expect(asked).toHaveLength(1);
  });

  it("stop ends the session; retry is bounded by maxRetries", async () => {
    const stopper = await answerHook(
      dir.path,
      "stopper",
      { action: "stop", reason: "quota" },
      { events: ["user_prompt"] },
    );
    const retrier = await answerHook(
      dir.path,
      "retrier",
      { action: "retry", retry_after_ms: 10 },
      { events: ["before_model"] },
    );
    const agent = fakeAgent([
      ev.prompt(),
      ev.request(1),
      ev.request(1),
      ev.request(1),
      ev.request(2),
    ]);
    const events = await collect(
      createHookInterceptor(options([stopper, retrier], { maxRetries: 2 }))(agent.run),
    );
    expect(agent.verdicts.map((v) => v.verdict)).toEqual([
      { action: "stop", reason: "quota" },
      { action: "retry", afterMs: 10 },
      { action: "retry", afterMs: 10 },
      { action: "continue" },
      { action: "retry", afterMs: 10 },
    ]);
    expect(
      events.some((e) => e.type === "hook_warning" && e.message.includes("more than 2 times")),
    ).toBe(true);
  });

  it.each(["open", "closed"] as const)(
    "a modified tool input that the tool rejects refuses the call (failure %s)",
    async (failure) => {
      const hook = await answerHook(
        dir.path,
        "breaker",
        { action: "modify", input: { command: 42 } },
        { failure },
      );
      const agent = fakeAgent([ev.toolStart()]);
      const events = await collect(
        createHookInterceptor(
          options([hook], {
            validateToolInput: (_name, input) =>
              typeof (input as { command?: unknown }).command === "string"
                ? { ok: true }
                : { ok: false, error: "command must be a string" },
          }),
        )(agent.run),
      );
      const verdict = agent.verdicts[0]?.verdict;
      expect(verdict?.action).toBe("block");
      if (verdict?.action === "block") {
        expect(verdict.reason).toContain('hook "breaker" replaced the input');
        expect(verdict.reason).toContain("command must be a string");
        expect(verdict.reason).toContain("refused");
      }
      const warnings = events.filter((e) => e.type === "hook_warning").map((e) => e.message);
      expect(warnings.some((m) => m.includes("refused"))).toBe(true);
      expect(warnings.some((m) => m.includes("going on"))).toBe(false);
    },
  );

  it("a failing hook with failure open warns, names the hook, and the agent goes on", async () => {
    const hook = await bashHook(dir.path, "crashy", "echo 'Traceback: boom' >&2; exit 1");
    const agent = fakeAgent([ev.toolStart()]);
    const events = await collect(createHookInterceptor(options([hook]))(agent.run));
    expect(agent.verdicts[0]?.verdict).toEqual({ action: "continue" });
    const warning = events.find((e) => e.type === "hook_warning");
    expect(warning?.type === "hook_warning" && warning.message).toBe(
      'hook "crashy" failed: exited with 1: Traceback: boom (failure policy "open": going on)',
    );
  });

  it("observe-only hooks run concurrently", async () => {
    // Each waits until all three have started: run one after another, they would time out.
    const body = (name: string) => `
touch "$OUT/started-${name}"
for i in $(seq 1 200); do
  [ -e "$OUT/started-a" ] && [ -e "$OUT/started-b" ] && [ -e "$OUT/started-c" ] && { echo '{"context":"${name} saw all"}'; exit 0; }
  sleep 0.01
done
exit 1`;
    const hooks = await Promise.all(
      ["a", "b", "c"].map((n) =>
        bashHook(dir.path, n, body(n), { events: ["after_tool_failure"], timeoutMs: 4000 }),
      ),
    );
    const agent = fakeAgent([ev.toolError(), ev.request()]);
    const events = await collect(createHookInterceptor(options(hooks))(agent.run));
    const outcomes = events
      .filter((e) => e.type === "hook_end")
      .map((e) => e.type === "hook_end" && e.outcome);
    expect(outcomes).toEqual(["continue", "continue", "continue"]);
    // Observe-only context reaches the model with the next request, in plan order.
    expect(agent.verdicts[1]?.verdict).toEqual({
      action: "continue",
      context: ["a saw all", "b saw all", "c saw all"],
    });
  });

  it("async hooks are not awaited; their context comes with the next before_model verdict", async () => {
    const audit = memoryAudit();
    const go = join(dir.path, "go");
    // The hook answers only once the agent has gone past model_request 1: if the
    // interceptor waited for it, it would time out instead.
    const hook = await bashHook(
      dir.path,
      "slow-lint",
      `cat >/dev/null; while [ ! -e "${go}" ]; do sleep 0.01; done; echo '{"context":"lint: 2 warnings"}'`,
      { events: ["after_tool"], async: true, timeoutMs: 5000 },
    );
    const agent = fakeAgent([
      ev.toolEnd(),
      ev.request(1),
      async () => {
        await writeFile(go, "");
        for (let i = 0; i < 500 && audit.entries.length === 0; i++) {
          await new Promise((r) => setTimeout(r, 10));
        }
      },
      ev.request(2),
    ]);
    const events = await collect(createHookInterceptor(options([hook], { audit }))(agent.run));
    expect(agent.verdicts.map((v) => v.verdict)).toEqual([
      undefined,
      undefined,
      { action: "continue", context: ["lint: 2 warnings"] },
    ]);
    expect(audit.entries[0]).toMatchObject({
      hook: "slow-lint",
      async: true,
      decision: "continue",
    });
    const order = events.map((e) => e.type);
    expect(order).toEqual([
      "tool_call_end",
      "hook_start",
      "model_request",
      "hook_end",
      "model_request",
    ]);
  });

  it("session_end waits for async hooks within its budget, then kills them", async () => {
    const marker = uniqueMarker();
    const quick = await bashHook(dir.path, "quick", `sleep 0.1; echo '{"context":"late"}'`, {
      events: ["before_tool"],
      async: true,
    });
    const stuck = await bashHook(dir.path, "stuck", `bash -c 'sleep 30; : ${marker}' & sleep 30`, {
      events: ["before_tool"],
      async: true,
    });
    const ender = await bashHook(dir.path, "ender", `touch "$OUT/ended"`, {
      events: ["session_end"],
    });
    const agent = fakeAgent([ev.toolStart(), ev.sessionEnd()]);
    const started = performance.now();
    const events = await collect(
      createHookInterceptor(options([quick, stuck, ender], { sessionEndBudgetMs: 600 }))(agent.run),
    );
    expect(performance.now() - started).toBeLessThan(4000);
    expect(existsSync(join(dir.path, "ended"))).toBe(true);
    const ends = events.filter((e) => e.type === "hook_end");
    expect(ends.map((e) => e.type === "hook_end" && `${e.hook.name}:${e.outcome}`).sort()).toEqual([
      "ender:continue",
      "quick:continue",
      "stuck:aborted",
    ]);
    expect(
      events.some((e) => e.type === "hook_warning" && e.message.includes("session-end budget")),
    ).toBe(true);
    expect(await survivorsOf(marker)).toEqual([]);
  });

  it("an abort kills a running hook at once; session_end hooks still run", async () => {
    const marker = uniqueMarker();
    const hanging = await bashHook(
      dir.path,
      "hanging",
      `bash -c 'sleep 30; : ${marker}' & sleep 30`,
    );
    const ender = await bashHook(dir.path, "ender", `touch "$OUT/ended"`, {
      events: ["session_end"],
    });
    const controller = new AbortController();
    const agent = fakeAgent([
      ev.toolStart(),
      ev.toolEnd(),
      { type: "session_end", reason: "aborted" },
    ]);
    const events: InterceptedEvent[] = [];
    const started = performance.now();
    for await (const event of createHookInterceptor(
      options([hanging, ender], { signal: controller.signal }),
    )(agent.run)) {
      events.push(event);
      if (event.type === "hook_start" && event.hook.name === "hanging") {
        setTimeout(() => controller.abort(), 50);
      }
    }
    expect(performance.now() - started).toBeLessThan(4000);
    expect(agent.verdicts[0]?.verdict).toEqual({ action: "block", reason: "aborted" });
    expect(agent.verdicts[1]?.verdict).toBeUndefined();
    expect(events.some((e) => e.type === "hook_end" && e.outcome === "aborted")).toBe(true);
    expect(existsSync(join(dir.path, "ended"))).toBe(true);
    expect(await survivorsOf(marker)).toEqual([]);
  });

  it("a consumer that stops iterating closes the agent and kills async hooks", async () => {
    const marker = uniqueMarker();
    const stuck = await bashHook(dir.path, "stuck", `bash -c 'sleep 30; : ${marker}' & sleep 30`, {
      async: true,
    });
    const agent = fakeAgent([ev.toolStart(), ev.delta(), ev.delta()]);
    for await (const event of createHookInterceptor(options([stuck]))(agent.run)) {
      if (event.type === "text_delta") break;
    }
    expect(agent.closed.value).toBe(true);
    expect(agent.verdicts).toHaveLength(1);
    expect(await survivorsOf(marker)).toEqual([]);
  });

  it("Agent Hooks (HOOK.md) hooks get that spec's payload and may answer in its dialect", async () => {
    const hook = await bashHook(
      dir.path,
      "spec-hook",
      `cat > "$OUT/agenthooks.json"; echo '{"decision":"deny","reason":"spec says no"}'`,
      { dialect: "agenthooks", sourceKind: "hook_md" },
    );
    const agent = fakeAgent([ev.sessionStart(), ev.toolStart()]);
    await collect(createHookInterceptor(options([hook]))(agent.run));
    const payload = JSON.parse(await readFile(join(dir.path, "agenthooks.json"), "utf8"));
    expect(payload).toMatchObject({
      event_type: "pre-tool-call",
      session_id: "sess-1",
      work_dir: "/proj",
    });
    expect(agent.verdicts[1]?.verdict).toEqual({ action: "block", reason: "spec says no" });
  });

  it("holds the audit log while a gate's chain runs: its run lines are written between hold and release", async () => {
    const hooks = [
      await answerHook(dir.path, "first", { action: "continue" }),
      await answerHook(dir.path, "second", { action: "continue" }),
    ];
    const calls: string[] = [];
    const audit = {
      write: (entry: { hook?: string; kind?: string }) => {
        calls.push(entry.kind === "considered" ? "considered" : `run ${entry.hook}`);
      },
      hold: () => {
        calls.push("hold");
        return () => calls.push("release");
      },
    };
    const agent = fakeAgent([ev.sessionStart(), ev.toolStart()]);
    await collect(createHookInterceptor(options(hooks, { audit }))(agent.run));
    expect(calls).toEqual(["considered", "hold", "run first", "run second", "release"]);
  });

  it("writes one audit line per hook run under ACAI_HOME, and one considered line per event", async () => {
    const acaiHome = join(dir.path, "home");
    const hooks = [
      await answerHook(dir.path, "ok", { action: "continue", log: "fine" }),
      await bashHook(dir.path, "bad", "echo 'broken here' >&2; exit 3"),
    ];
    const agent = fakeAgent([ev.sessionStart(), ev.toolStart()]);
    const opts = options(hooks, { acaiHome });
    delete opts.audit;
    await collect(createHookInterceptor(opts)(agent.run));
    const all = (await readFile(join(acaiHome, "logs", "hooks-audit.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    // The considered line (which hooks of the event were planned) comes first, then the runs.
    expect(all[0]).toMatchObject({ kind: "considered", event: "before_tool" });
    expect(all[0].hooks.map((h: { status: string }) => h.status)).toEqual(["planned", "planned"]);
    const entries = all.filter((e) => e.kind === undefined);
    expect(entries).toHaveLength(2);
    expect(entries.map((e) => e.hook).sort()).toEqual(["bad", "ok"]);
    const bad = entries.find((e) => e.hook === "bad");
    expect(bad).toMatchObject({
      session: "sess-1",
      event: "before_tool",
      scope: "user",
      source: "executable",
      decision: "failed",
      effect: "continue",
      exit_code: 3,
      timed_out: false,
      killed: false,
      error: "exited with 3: broken here",
      stderr: "broken here\n",
    });
    expect(entries.find((e) => e.hook === "ok")).toMatchObject({
      decision: "continue",
      log: "fine",
    });
    expect(typeof bad.duration_ms).toBe("number");
  });
});
