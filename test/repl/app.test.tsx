import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AskUser, InterceptedEvent, UserAnswer } from "../../source/hooks/run/activity.js";
import { App } from "../../source/repl/app.js";
import { ReplController } from "../../source/repl/controller.js";
import type { PrepareForRepl, ReplNotification, ReplOptions } from "../../source/repl/types.js";
import type { PreparedSession, ProjectTrustState } from "../../source/session/types.js";
import { cleanup, render } from "../support/ink-render.js";
import {
  aborted,
  type FakeSession,
  fakeSession,
  guardRef,
  hookDef,
  usage,
  waitFor,
} from "./fake-session.js";

const NO_PROJECT_HOOKS: ProjectTrustState = {
  status: "no-project-hooks",
  review: { root: "/tmp", items: [], settings: [], changes: { kind: "first-review" } },
  untrusted: [],
  trust: async () => {},
};

const dirs: string[] = [];
afterEach(async () => {
  cleanup();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

interface Setup {
  sessions?: FakeSession[];
  options?: Partial<ReplOptions>;
}

async function setup({ sessions = [fakeSession()], options = {} }: Setup = {}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), "acai-repl-app-"));
  dirs.push(dir);
  const prepared: PrepareForRepl[] = [];
  const controller = new ReplController({
    prepare: async (o) => {
      prepared.push(o);
      const session = sessions[prepared.length - 1] ?? sessions[sessions.length - 1];
      if (!session) throw new Error("no fake session");
      return session;
    },
    trust: NO_PROJECT_HOOKS,
    projectHooks: "require-trust",
    acaiHome: dir,
    env: {},
    exitBudgetMs: 2000,
    ...options,
  });
  const ui = render(<App controller={controller} color={false} />);
  const exit = controller.run();
  const frame = () => ui.lastFrame() ?? "";
  const see = (text: string | RegExp, ms?: number) =>
    waitFor(
      () => (typeof text === "string" ? frame().includes(text) : text.test(frame())),
      `"${String(text)}" on screen; last frame:\n${frame()}`,
      ms,
    );
  const type = async (text: string) => {
    ui.stdin.write(text);
    await new Promise((r) => setTimeout(r, 30));
  };
  await see("ask anything");
  return { dir, prepared, controller, ui, exit, frame, see, type };
}

describe("REPL app (rendered into fake streams, fake session)", () => {
  it("a prompt streams text and shows a tool block and the status line", async () => {
    const session = fakeSession({
      async *turn(ctx) {
        yield { type: "text_delta", turn: ctx.turn, step: 1, text: "Looking at " };
        yield { type: "text_delta", turn: ctx.turn, step: 1, text: "the files.\nDone soon" };
        yield {
          type: "tool_call_start",
          turn: ctx.turn,
          step: 1,
          toolCallId: "t1",
          toolName: "Bash",
          input: { command: "ls -la" },
        };
        yield {
          type: "tool_call_end",
          turn: ctx.turn,
          step: 1,
          toolCallId: "t1",
          toolName: "Bash",
          input: { command: "ls -la" },
          output: "one\ntwo\nthree\nfour\nfive\nsix",
          response: {},
          durationMs: 1234,
        };
        yield {
          type: "model_response",
          turn: ctx.turn,
          step: 1,
          model: "fake-model",
          text: "",
          toolCalls: [],
          usage: usage(1200, 34),
          finishReason: "stop",
          durationMs: 1,
        };
        yield {
          type: "turn_end",
          turn: ctx.turn,
          stopReason: "end_turn",
          text: "",
          usage: usage(1200, 34),
        };
      },
    });
    const t = await setup({ sessions: [session] });
    await t.type("list files");
    await t.see("› list files");
    await t.type("\r");
    await t.see("Looking at the files.");
    await t.see(/✓ Bash ls -la done 1\.2s \[1\]/);
    const f = t.frame();
    expect(f).toContain("Done soon");
    expect(f).toContain("⎿ one");
    expect(f).toContain("… +2 lines (/expand 1)");
    expect(f).not.toContain("five");
    await t.see(/fake-model · last turn .* ↑1\.2k ↓34/);
    expect(session.prompts).toEqual(["list files"]);
    await t.type("/expand 1\r");
    await t.see("six");
  });

  it("a hook block appears inline with the hook's name and reason; a running hook shows a spinner", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const session = fakeSession({
      async *turn(ctx) {
        yield {
          type: "tool_call_start",
          turn: ctx.turn,
          step: 1,
          toolCallId: "t1",
          toolName: "Bash",
          input: { command: "rm -rf /" },
        };
        yield { type: "hook_start", hook: guardRef, event: "before_tool", startedAt: Date.now() };
        await gate;
        yield {
          type: "hook_end",
          hook: guardRef,
          event: "before_tool",
          outcome: "block",
          detail: "destructive command refused",
          durationMs: 12,
        };
        yield {
          type: "tool_call_error",
          turn: ctx.turn,
          step: 1,
          toolCallId: "t1",
          toolName: "Bash",
          input: { command: "rm -rf /" },
          error: "destructive command refused",
          interrupted: false,
          blocked: true,
          durationMs: 0,
        };
        yield { type: "hook_warning", hook: guardRef, message: "guard wrote 2 MB to stderr; cut" };
        yield {
          type: "turn_end",
          turn: ctx.turn,
          stopReason: "end_turn",
          text: "",
          usage: usage(),
        };
      },
    });
    const t = await setup({ sessions: [session] });
    await t.type("clean up\r");
    await t.see(/hook guard before_tool \d+ms/);
    release();
    await t.see("⚑ hook guard blocked before_tool: destructive command refused");
    await t.see(/⊘ Bash rm -rf \/ blocked/);
    await t.see("⚠ hook guard: guard wrote 2 MB to stderr; cut");
  });

  it("Esc during a slow turn aborts that turn only and the prompt comes back", async () => {
    const seen: { turnAborted: boolean; sessionAborted: boolean }[] = [];
    const session = fakeSession({
      async *turn(ctx) {
        if (ctx.turn === 1) {
          yield { type: "text_delta", turn: ctx.turn, step: 1, text: "thinking hard" };
          await Promise.race([aborted(ctx.signal), new Promise((r) => setTimeout(r, 10_000))]);
          seen.push({
            turnAborted: ctx.signal?.aborted ?? false,
            sessionAborted: ctx.sessionSignal?.aborted ?? false,
          });
          yield {
            type: "turn_end",
            turn: ctx.turn,
            stopReason: "aborted",
            text: "",
            usage: usage(),
          };
          return;
        }
        yield {
          type: "text_delta",
          turn: ctx.turn,
          step: 1,
          text: `second ok ${ctx.signal?.aborted}`,
        };
        yield {
          type: "turn_end",
          turn: ctx.turn,
          stopReason: "end_turn",
          text: "",
          usage: usage(),
        };
      },
    });
    const t = await setup({ sessions: [session] });
    await t.type("slow\r");
    await t.see("thinking hard");
    await t.see("Esc aborts");
    await t.type("\u001b");
    await t.see("■ turn aborted");
    await t.see("ask anything");
    expect(seen).toEqual([{ turnAborted: true, sessionAborted: false }]);
    await t.type("again\r");
    await t.see("second ok false");
  });

  it("Ctrl-D ends the prompt iterable: session_end hooks run and run() resolves 0", async () => {
    const session = fakeSession({
      async *end() {
        yield { type: "hook_start", hook: guardRef, event: "session_end", startedAt: Date.now() };
        yield {
          type: "hook_end",
          hook: guardRef,
          event: "session_end",
          outcome: "continue",
          message: "bye from session_end",
          durationMs: 3,
        };
      },
    });
    const t = await setup({ sessions: [session] });
    await t.type("\u0004");
    expect(await session.finished).toEqual({ reason: "user_exit" });
    expect(await t.exit).toBe(0);
    await t.see("bye from session_end");
  });

  it("Ctrl-C clears a typed line, then twice exits", async () => {
    const session = fakeSession();
    const t = await setup({ sessions: [session] });
    await t.type("half typed");
    await t.see("half typed");
    await t.type("\u0003");
    await waitFor(() => !t.frame().includes("half typed"), "line cleared");
    await t.type("\u0003");
    expect(await t.exit).toBe(0);
    expect(await session.finished).toEqual({ reason: "user_exit" });
  });

  it("history: submitted prompts are saved and come back with the up arrow", async () => {
    const t = await setup();
    await t.type("first prompt\r");
    await t.see("echo: first prompt");
    await t.type("second\r");
    await t.see("echo: second");
    await t.type("\u001b[A");
    await t.see("› second");
    await t.type("\u001b[A");
    await t.see("› first prompt");
    await t.type("\u001b[B\u001b[B");
    await t.see("ask anything");
    const saved = await readFile(path.join(t.dir, "repl-history.jsonl"), "utf8");
    expect(
      saved
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).prompt),
    ).toEqual(["first prompt", "second"]);
  });

  it("multi-line input: trailing backslash and bracketed paste keep newlines in one prompt", async () => {
    const session = fakeSession();
    const t = await setup({ sessions: [session] });
    await t.type("line one\\");
    await t.type("\r");
    await t.type("line two");
    await t.type("\u001b[200~pasted a\npasted b\u001b[201~");
    await t.see("pasted b");
    await t.type("\r");
    await waitFor(() => session.prompts.length === 1, "prompt sent");
    expect(session.prompts[0]).toBe("line one\nline twopasted a\npasted b");
  });

  it("a hook ask becomes an inline y/n question that resolves the AskUser promise", async () => {
    const answers: boolean[] = [];
    let askUser: AskUser | undefined;
    const notes: ReplNotification[] = [];
    const session = fakeSession({
      async *turn(ctx) {
        for (let i = 0; i < 2; i++) {
          const allowed = await askUser?.(
            {
              hook: guardRef,
              event: "before_tool",
              reason: `really delete ${i}?`,
              toolName: "Bash",
              toolInput: { command: "rm x" },
            },
            ctx.signal ?? new AbortController().signal,
          );
          answers.push(allowed === true);
        }
        yield {
          type: "turn_end",
          turn: ctx.turn,
          stopReason: "end_turn",
          text: "",
          usage: usage(),
        };
      },
    });
    const t = await setup({
      sessions: [session],
      options: {
        prepare: async (o) => {
          askUser = o.askUser;
          return session;
        },
        notify: (_s: PreparedSession, n: ReplNotification) => {
          notes.push(n);
        },
      },
    });
    await t.type("go\r");
    await t.see("really delete 0?");
    expect(t.frame()).toContain("hook guard asks before Bash rm x");
    await t.type("y");
    await t.see("really delete 1?");
    await t.type("n");
    await waitFor(() => answers.length === 2, "two answers");
    expect(answers).toEqual([true, false]);
    await t.see("✓ you allowed what hook guard asked: really delete 0?");
    await t.see("✗ you denied what hook guard asked: really delete 1?");
    // The interceptor notifies for an ask in every mode; the REPL adds none of its own.
    expect(notes).toEqual([]);
    expect(session.notified).toEqual([]);
  });

  it("'you allowed …' comes below the line of the hook that asked, not above it", async () => {
    let askUser: AskUser | undefined;
    const session = fakeSession({
      async *turn(ctx) {
        yield { type: "hook_start", hook: guardRef, event: "before_tool", startedAt: 0 };
        const request = { hook: guardRef, event: "before_tool" as const, reason: "push to main?" };
        const allowed = await askUser?.(request, ctx.signal ?? new AbortController().signal);
        yield {
          type: "hook_end",
          hook: guardRef,
          event: "before_tool",
          outcome: "ask",
          detail: allowed ? "push to main?" : "push to main? — denied by the user",
          durationMs: 4,
        };
        yield { type: "text_delta", turn: ctx.turn, step: 1, text: "pushed\n" };
        yield {
          type: "turn_end",
          turn: ctx.turn,
          stopReason: "end_turn",
          text: "",
          usage: usage(),
        };
      },
    });
    const t = await setup({
      sessions: [session],
      options: {
        prepare: async (o) => {
          askUser = o.askUser;
          return session;
        },
      },
    });
    await t.type("go\r");
    await t.see("push to main?");
    await t.type("y");
    await t.see("pushed");
    const f = t.frame();
    const hookLine = f.indexOf("⚑ hook guard asked before_tool: push to main?");
    const answer = f.indexOf("✓ you allowed what hook guard asked: push to main?");
    expect(hookLine).toBeGreaterThan(-1);
    expect(answer).toBeGreaterThan(hookLine);
    expect(f.indexOf("pushed")).toBeGreaterThan(answer);
  });

  it("a tool gated by a before_tool hook or its ask says what it waits for, not 'running'", async () => {
    let askUser: AskUser | undefined;
    let release: (() => void) | undefined;
    const hookDone = new Promise<void>((resolve) => {
      release = resolve;
    });
    const session = fakeSession({
      async *turn(ctx) {
        const call = { turn: ctx.turn, step: 1, toolCallId: "c1", toolName: "Bash" };
        yield { type: "tool_call_start", ...call, input: { command: "echo first" } };
        yield { type: "hook_start", hook: guardRef, event: "before_tool", startedAt: Date.now() };
        await hookDone;
        yield {
          type: "hook_end",
          hook: guardRef,
          event: "before_tool",
          outcome: "ask",
          durationMs: 5,
        };
        // The hook's ask goes to the permission question, the one prompt.
        await askUser?.(
          {
            event: "permission_request",
            reason: 'hook "guard" asks: run it?',
            toolName: "Bash",
            toolInput: { command: "echo first" },
          },
          ctx.signal ?? new AbortController().signal,
        );
        yield {
          type: "tool_call_end",
          ...call,
          input: {},
          output: "first",
          response: {},
          durationMs: 3,
        };
        yield {
          type: "turn_end",
          turn: ctx.turn,
          stopReason: "end_turn",
          text: "",
          usage: usage(),
        };
      },
    });
    const t = await setup({
      options: {
        prepare: async (o) => {
          askUser = o.askUser;
          return session;
        },
      },
    });
    await t.type("go\r");
    await t.see("waiting for hook guard [1]");
    expect(t.frame()).not.toContain("running [1]");
    release?.();
    await t.see("waiting for your permission [1]");
    await t.see("? permission to run Bash echo first");
    expect(t.frame()).toContain('hook "guard" asks: run it?');
    await t.type("y");
    await t.see("ask anything");
    await t.see("✓ you allowed Bash echo first");
  });

  it("an ask is withdrawn (denied) when its turn is aborted", async () => {
    let askUser: AskUser | undefined;
    let answer: UserAnswer | undefined;
    const session = fakeSession({
      async *turn(ctx) {
        answer = await askUser?.(
          { hook: guardRef, event: "before_tool", reason: "sure?" },
          ctx.signal ?? new AbortController().signal,
        );
        yield { type: "turn_end", turn: ctx.turn, stopReason: "aborted", text: "", usage: usage() };
      },
    });
    const t = await setup({
      options: {
        prepare: async (o) => {
          askUser = o.askUser;
          return session;
        },
      },
    });
    await t.type("go\r");
    await t.see("sure?");
    await t.type("\u0003");
    await waitFor(() => answer === false, "ask denied by abort");
    await t.see("ask anything");
  });

  it("trust screen: trusting records trust and runs with project hooks", async () => {
    let trusted = 0;
    const trust: ProjectTrustState = {
      status: "untrusted",
      review: { root: "/tmp", items: [], settings: [], changes: { kind: "first-review" } },
      untrusted: [
        {
          name: "fmt",
          file: "/p/.acai/hooks/fmt",
          events: ["after_tool"],
          matcher: "Write|Edit",
          command: "/p/.acai/hooks/fmt",
        },
      ],
      trust: async () => {
        trusted++;
      },
    };
    const dir = await mkdtemp(path.join(os.tmpdir(), "acai-repl-trust-"));
    dirs.push(dir);
    const prepared: PrepareForRepl[] = [];
    const controller = new ReplController({
      prepare: async (o) => {
        prepared.push(o);
        return fakeSession();
      },
      trust,
      projectHooks: "require-trust",
      acaiHome: dir,
      env: {},
    });
    const ui = render(<App controller={controller} color={false} />);
    const exit = controller.run();
    await waitFor(
      () =>
        ui.lastFrame()?.includes("This project has hooks, tools or settings you have not trusted"),
      "trust screen",
    );
    const f = ui.lastFrame() ?? "";
    expect(f).toContain("fmt");
    expect(f).toContain("after_tool");
    expect(f).toContain("matcher Write|Edit");
    expect(f).toContain("/p/.acai/hooks/fmt");
    expect(prepared).toEqual([]);
    ui.stdin.write("t");
    await waitFor(() => prepared.length === 1, "session prepared");
    expect(trusted).toBe(1);
    expect(prepared[0]?.projectHooks).toBe("require-trust");
    await waitFor(() => ui.lastFrame()?.includes("ask anything"), "prompt");
    expect(ui.lastFrame()).not.toContain("OFF");
    controller.requestExit();
    expect(await exit).toBe(0);
  });

  it("trust screen: running without project hooks says they are off", async () => {
    let trusted = 0;
    const trust: ProjectTrustState = {
      status: "untrusted",
      review: { root: "/tmp", items: [], settings: [], changes: { kind: "first-review" } },
      // An executable never described: its events are unknown, and the screen says so.
      untrusted: [
        { name: "fmt", file: "/p/.acai/hooks/fmt", events: [], note: "not described yet" },
      ],
      trust: async () => {
        trusted++;
      },
    };
    const dir = await mkdtemp(path.join(os.tmpdir(), "acai-repl-trust-"));
    dirs.push(dir);
    const prepared: PrepareForRepl[] = [];
    const controller = new ReplController({
      prepare: async (o) => {
        prepared.push(o);
        return fakeSession();
      },
      trust,
      projectHooks: "require-trust",
      acaiHome: dir,
      env: {},
    });
    const ui = render(<App controller={controller} color={false} />);
    const exit = controller.run();
    await waitFor(() => ui.lastFrame()?.includes("Run without any of them"), "trust screen");
    expect(ui.lastFrame()).toContain("fmt (not described yet)");
    ui.stdin.write("\u001b[B");
    await new Promise((r) => setTimeout(r, 50));
    ui.stdin.write("\r");
    await waitFor(() => prepared.length === 1, "session prepared");
    expect(prepared[0]?.projectHooks).toBe("off");
    expect(trusted).toBe(0);
    await waitFor(
      () => ui.lastFrame()?.includes("Project hooks, tools and settings are off for this session"),
      "banner",
    );
    controller.requestExit();
    expect(await exit).toBe(0);
  });

  it("/hooks lists loaded and broken hooks with trust and last decision", async () => {
    const session = fakeSession({
      hooks: {
        loaded: [
          hookDef(),
          hookDef({
            id: "project:fmt",
            name: "fmt",
            scope: "project",
            events: ["after_tool"],
            matcher: {},
          }),
        ],
        broken: [
          {
            file: "/p/.acai/hooks/bad",
            scope: "project",
            sourceKind: "executable",
            name: "bad",
            reason: "describe printed no JSON",
          },
        ],
        projectHooksEnabled: true,
      },
      async *turn(ctx) {
        yield {
          type: "hook_end",
          hook: guardRef,
          event: "before_tool",
          outcome: "block",
          detail: "nope",
          durationMs: 1,
        };
        yield {
          type: "turn_end",
          turn: ctx.turn,
          stopReason: "end_turn",
          text: "",
          usage: usage(),
        };
      },
    });
    const t = await setup({ sessions: [session] });
    await t.type("x\r");
    await t.see("blocked before_tool");
    await t.type("/hooks\r");
    await t.see("Hooks (2 loaded, 1 broken)");
    const f = t.frame();
    expect(f).toMatch(/guard user\/executable trusted/);
    expect(f).toContain("events before_tool · matcher tool=Bash");
    expect(f).toMatch(/last: block on before_tool at \d\d:\d\d:\d\d \(nope\)/);
    expect(f).toMatch(/fmt project\/executable trusted/);
    expect(f).toContain("last: not run yet");
    expect(f).toContain("✗ broken bad");
    expect(f).toContain("describe printed no JSON");
  });

  it("/model shows the model; /model <spec> starts a new session with it; /clear too", async () => {
    const first = fakeSession({ model: "m-one" });
    const second = fakeSession({ model: "m-two", sessionId: "sess-2" });
    const third = fakeSession({ model: "m-two", sessionId: "sess-3" });
    const t = await setup({ sessions: [first, second, third] });
    await t.type("/model\r");
    await t.see("model: m-one");
    await t.type("/model m-two\r");
    expect(await first.finished).toEqual({ reason: "user_exit" });
    await waitFor(() => t.prepared.length === 2, "second prepare");
    expect(t.prepared[1]?.model).toBe("m-two");
    await t.see(/^default mode \(Shift-Tab\) · m-two/m);
    await t.type("/clear\r");
    await second.finished;
    await waitFor(() => t.prepared.length === 3, "third prepare");
    expect(t.prepared[2]?.model).toBe("m-two");
    await waitFor(() => !t.frame().includes("model: m-one"), "screen cleared");
    await t.type("/exit\r");
    expect(await t.exit).toBe(0);
    expect(await third.finished).toEqual({ reason: "user_exit" });
  });

  it("/model <spec> confirms the model it switched to and starts the session counters at 0", async () => {
    const first = fakeSession({ model: "m-one" });
    const second = fakeSession({ model: "m-two", sessionId: "sess-2" });
    const t = await setup({ sessions: [first, second] });
    await t.type("hello\r");
    await t.see("echo: hello");
    await t.see("session 8 tok");
    await t.type("/model m-two\r");
    await t.see("model: m-two (a new session: token and cost counts start at 0)");
    await t.see(/^default mode \(Shift-Tab\) · m-two · session 0 tok/m);
    expect(t.frame()).not.toContain("last turn");
    await t.type("again\r");
    await t.see("echo: again");
    await t.see("session 8 tok");
  });

  it("prompts typed during a turn are queued and run next; /help lists commands", async () => {
    let release: () => void = () => {};
    const session = fakeSession({
      async *turn(ctx) {
        if (ctx.turn === 1)
          await new Promise<void>((r) => {
            release = r;
          });
        yield { type: "text_delta", turn: ctx.turn, step: 1, text: `done ${ctx.prompt}\n` };
        yield {
          type: "turn_end",
          turn: ctx.turn,
          stopReason: "end_turn",
          text: "",
          usage: usage(),
        };
      },
    });
    const t = await setup({ sessions: [session] });
    await t.type("one\r");
    await t.see("Esc aborts");
    await t.type("two\r");
    await t.see("queued: two");
    await t.see("1 queued");
    release();
    await t.see("done two");
    expect(session.prompts).toEqual(["one", "two"]);
    await t.type("/help\r");
    await t.see("/hooks");
    expect(t.frame()).toContain("Ctrl-D");
  });

  it("fires an idle notification after the idle delay at the prompt, once", async () => {
    const notes: ReplNotification[] = [];
    const t = await setup({
      options: { idleNotifyMs: 80, notify: (_s, n) => void notes.push(n) },
    });
    await waitFor(() => notes.length === 1, "idle notification");
    expect(notes[0]).toEqual({
      message: "acai is waiting for your input",
      notificationType: "idle_prompt",
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(notes).toHaveLength(1);
    t.controller.requestExit();
    await t.exit;
  });

  it("without an injected notify, the idle notification runs the session's notification hooks and shows them", async () => {
    const session = fakeSession({
      notifyActivity: [
        {
          type: "hook_start",
          hook: guardRef,
          event: "notification",
          startedAt: 0,
        },
        {
          type: "hook_end",
          hook: guardRef,
          event: "notification",
          outcome: "continue",
          message: "desktop ping sent",
          durationMs: 3,
        },
      ],
    });
    const t = await setup({ sessions: [session], options: { idleNotifyMs: 80 } });
    await waitFor(() => session.notified.length === 1, "idle notification");
    expect(session.notified[0]).toEqual({
      message: "acai is waiting for your input",
      notificationType: "idle_prompt",
    });
    await t.see("desktop ping sent");
    t.controller.requestExit();
    await t.exit;
  });

  it("the initial (piped) prompt is sent first; warnings from loading are shown", async () => {
    const session = fakeSession({ warnings: ["hook x (/h/x) is not loaded: bad JSON"] });
    const t = await setup({ sessions: [session], options: { initialPrompt: "from a pipe" } });
    await t.see("echo: from a pipe");
    expect(t.frame()).toContain("⚠ hook x (/h/x) is not loaded: bad JSON");
  });

  it("a session that fails to start reports why and exits 1", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "acai-repl-fail-"));
    dirs.push(dir);
    const controller = new ReplController({
      prepare: async () => {
        throw new Error("unknown model spec 'nope:x' (--model)");
      },
      trust: NO_PROJECT_HOOKS,
      projectHooks: "require-trust",
      acaiHome: dir,
      env: {},
    });
    const ui = render(<App controller={controller} color={false} />);
    expect(await controller.run()).toBe(1);
    await waitFor(
      () => ui.lastFrame()?.includes("Could not start a session: unknown model spec"),
      "error",
    );
  });

  it("a session a hook stops exits 1 with the reason on screen", async () => {
    const session: FakeSession = fakeSession();
    session.run = async function* (): AsyncGenerator<InterceptedEvent, void, undefined> {
      yield {
        type: "hook_end",
        hook: guardRef,
        event: "session_start",
        outcome: "block",
        detail: "not on fridays",
        durationMs: 2,
      };
      yield { type: "session_end", reason: "hook_stop" };
    };
    const dir = await mkdtemp(path.join(os.tmpdir(), "acai-repl-stop-"));
    dirs.push(dir);
    const controller = new ReplController({
      prepare: async () => session,
      trust: NO_PROJECT_HOOKS,
      projectHooks: "require-trust",
      acaiHome: dir,
      env: {},
    });
    const ui = render(<App controller={controller} color={false} />);
    expect(await controller.run()).toBe(1);
    await waitFor(() => ui.lastFrame()?.includes("not on fridays"), "reason");
    expect(ui.lastFrame()).toContain("session ended: hook stop");
  });
});
