/**
 * A hook's `statusMessage` in the REPL: while the hook runs, the live area
 * shows the message (made inert: one line, controls as visible escapes) with the hook's
 * name beside it; once it ends the line goes.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { App } from "../../source/repl/app.js";
import { ReplController } from "../../source/repl/controller.js";
import type { ProjectTrustState } from "../../source/session/types.js";
import { cleanup, render } from "../support/ink-render.js";
import { fakeSession, guardRef, usage, waitFor } from "./fake-session.js";

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

describe("statusMessage in the REPL", () => {
  it("shows the running hook's message in place of its name, then drops it", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const session = fakeSession({
      async *turn(ctx) {
        yield {
          type: "hook_start",
          hook: guardRef,
          event: "user_prompt",
          startedAt: Date.now(),
          statusMessage: "Checking\u001b]0;pwned\u0007 the\nprompt…",
        };
        await gate;
        yield {
          type: "hook_end",
          hook: guardRef,
          event: "user_prompt",
          outcome: "continue",
          durationMs: 5,
        };
        yield { type: "text_delta", turn: ctx.turn, step: 1, text: "answered" };
        yield {
          type: "turn_end",
          turn: ctx.turn,
          stopReason: "end_turn",
          text: "",
          usage: usage(),
        };
      },
    });
    const dir = await mkdtemp(path.join(os.tmpdir(), "acai-repl-status-"));
    dirs.push(dir);
    const controller = new ReplController({
      prepare: async () => session,
      trust: NO_PROJECT_HOOKS,
      projectHooks: "require-trust",
      acaiHome: dir,
      env: {},
      exitBudgetMs: 2000,
    });
    const ui = render(<App controller={controller} color={false} />);
    void controller.run();
    const frame = () => ui.lastFrame() ?? "";
    const see = (text: string) => waitFor(() => frame().includes(text), `"${text}":\n${frame()}`);
    await see("ask anything");
    ui.stdin.write("hello");
    await see("› hello");
    await new Promise((r) => setTimeout(r, 30));
    ui.stdin.write("\r");
    await see("prompt… (hook guard)");
    // Settings text is made inert: the escape sequence and the newline show as escapes.
    expect(frame()).toContain("Checking\\x1b]0;pwned\\x07 the\\nprompt… (hook guard)");
    expect(frame()).not.toContain("\u001b]0;");
    expect(frame()).not.toContain("hook guard user_prompt");
    release();
    await see("answered");
    expect(frame()).not.toContain("prompt… (hook guard)");
  });
});
