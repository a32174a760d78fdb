/**
 * Claude Code's `asyncRewake` in the real REPL: an async UserPromptSubmit
 * hook's exit 2 wakes the agent with a turn that goes through the REPL's
 * prompt queue like any other — it is shown as the turn's prompt, Esc aborts
 * it while the model streams, and a prompt the user typed meanwhile is queued
 * behind it and runs next, not lost.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs } from "../support/run-acai.js";
import { replCommand, tmuxSkipReason as skipReason, Term } from "../support/tmux-term.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;
let term: Term | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-repl-rewake-");
});
afterEach(async () => {
  term?.kill();
  term = undefined;
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

type Message = { role: string; content: unknown };
const lastUserText = (i: number): string => {
  const messages = (server?.requests[i]?.body?.messages ?? []) as Message[];
  const last = messages.filter((m) => m.role === "user").at(-1);
  return typeof last?.content === "string" ? last.content : JSON.stringify(last?.content ?? "");
};

describe.skipIf(skipReason !== "")(`asyncRewake in the REPL ${skipReason}`, () => {
  it("the wake-up is a queued turn: shown, aborted by Esc, and the prompt typed meanwhile runs next", async () => {
    const marker = path.join(dirs.root, "hook-woke");
    const settings = {
      hooks: {
        UserPromptSubmit: [
          {
            hooks: [
              {
                type: "command",
                name: "tests",
                asyncRewake: true,
                // Wakes the agent once (the first prompt); later prompts find the marker.
                command: `cat >/dev/null; [ -e '${marker}' ] && exit 0; touch '${marker}'; echo "3 tests failed in auth.test.ts" >&2; exit 2`,
              },
            ],
          },
        ],
      },
    };
    await writeFile(path.join(dirs.acaiHome, "settings.json"), JSON.stringify(settings));
    server = await startFakeOpenAI([
      { text: "FIRST-ANSWER" },
      // The wake-up turn streams a little, then stalls until Esc aborts it.
      { text: "WOKEN-AND-STREAMING", hangMs: 60_000 },
      { text: "ANSWER-TO-SECOND" },
    ]);
    const args = ["--model", "openai:fake-model", "--base-url", server.url];
    const t = new Term({ columns: 120, rows: 40 });
    t.start(replCommand(dirs, args, { OPENAI_BASE_URL: server.url }), dirs.cwd);
    term = t;
    await t.see("ask anything");
    t.line("first prompt");
    await t.see("FIRST-ANSWER");
    // The hook's wake-up: a turn of its own, its prompt shown like the user's.
    await t.see('The async hook "tests" exited 2 and woke you with:');
    await t.see("WOKEN"); // the stream stalls after its first frame
    // Typed while the wake-up turn runs: queued behind it.
    t.line("second prompt");
    await t.see("queued: second prompt");
    t.keys("Escape");
    await t.see("■ turn aborted");
    // The queued prompt was not lost: it is the next turn.
    await t.see("ANSWER-TO-SECOND");
    expect(server.requests).toHaveLength(3);
    expect(lastUserText(1)).toContain("3 tests failed in auth.test.ts");
    expect(lastUserText(1)).toContain("<system-reminder>");
    expect(lastUserText(2)).toBe("second prompt");
    t.keys("C-c");
    t.keys("C-c");
    await t.see("acai exited 0");
  });
});
