/**
 * The REPL tells the agent why its prompts ran out (`RunInput.endReason`), so
 * session_end hooks see `user_exit` when the user leaves and `completed` when
 * the input simply ended. The fake session answers like the agent: the
 * caller's endReason, "completed" by default.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { App } from "../../source/repl/app.js";
import { type ControllerOptions, ReplController } from "../../source/repl/controller.js";
import type { ProjectTrustState } from "../../source/session/types.js";
import { cleanup, render } from "../support/ink-render.js";
import { type FakeSession, fakeSession, waitFor } from "./fake-session.js";

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

async function start(sessions: FakeSession[], extra: Partial<ControllerOptions> = {}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), "acai-repl-end-"));
  dirs.push(dir);
  let prepared = 0;
  const controller = new ReplController({
    prepare: async () => {
      const session = sessions[prepared++];
      if (!session) throw new Error("no fake session left");
      return session;
    },
    trust: NO_PROJECT_HOOKS,
    projectHooks: "require-trust",
    acaiHome: dir,
    env: {},
    exitBudgetMs: 2000,
    ...extra,
  });
  const ui = render(<App controller={controller} color={false} />);
  const exit = controller.run();
  const type = async (text: string) => {
    ui.stdin.write(text);
    await new Promise((r) => setTimeout(r, 30));
  };
  return { controller, ui, exit, type };
}

describe("REPL session_end reason", () => {
  it("/exit and Ctrl-D end the session with user_exit", async () => {
    const viaExit = fakeSession();
    const a = await start([viaExit]);
    await waitFor(() => a.ui.lastFrame()?.includes("ask anything"), "prompt");
    await a.type("/exit\r");
    expect(await viaExit.finished).toEqual({ reason: "user_exit" });
    expect(await a.exit).toBe(0);
    cleanup();

    const viaCtrlD = fakeSession();
    const b = await start([viaCtrlD]);
    await waitFor(() => b.ui.lastFrame()?.includes("ask anything"), "prompt");
    await b.type("\u0004");
    expect(await viaCtrlD.finished).toEqual({ reason: "user_exit" });
    expect(await b.exit).toBe(0);
  });

  it("/clear ends the old session with clear (as Claude Code); the new one goes on", async () => {
    const first = fakeSession();
    const second = fakeSession({ sessionId: "sess-2" });
    const t = await start([first, second]);
    await waitFor(() => t.ui.lastFrame()?.includes("ask anything"), "prompt");
    await t.type("/clear\r");
    expect(await first.finished).toEqual({ reason: "clear" });
    t.controller.requestExit();
    expect(await second.finished).toEqual({ reason: "user_exit" });
    expect(await t.exit).toBe(0);
  });

  it("prompts that run out without the user leaving (no keyboard after a piped prompt) say completed", async () => {
    const session = fakeSession();
    const t = await start([session], {
      initialPrompt: "from a pipe",
      exitAfterInitialPrompt: true,
    });
    expect(await session.finished).toEqual({ reason: "completed" });
    expect(session.prompts).toEqual(["from a pipe"]);
    expect(await t.exit).toBe(0);
  });
});
