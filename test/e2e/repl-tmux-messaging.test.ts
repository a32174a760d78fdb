/**
 * Messages between agents reaching the real REPL (tmux): a message sent with
 * `acai send` while the REPL waits becomes its next turn; one sent while a
 * turn runs is queued and answered after it, never lost.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { replCommand, Term, tmuxSkipReason } from "../support/tmux-term.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;
let term: Term | undefined;
beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-repl-messaging-");
});
afterEach(async () => {
  term?.kill();
  term = undefined;
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

const sent = (i: number) => JSON.stringify(server?.requests[i]?.body?.messages ?? []);

/** `acai send` from the shell, with the REPL's ACAI_HOME (the embedded relay lives there). */
async function send(name: string, text: string): Promise<void> {
  const result = await runAcai({ args: ["send", name, text], dirs });
  expect(result.exitCode, result.stderr).toBe(0);
}

describe.skipIf(tmuxSkipReason !== "")(`messages in the REPL ${tmuxSkipReason}`, () => {
  it("a message arriving while the REPL waits is its next turn; one arriving during a turn is queued", async () => {
    server = await startFakeOpenAI([
      { text: "ANSWER-TO-FIRST" },
      // The user's own turn, slow enough for a message to arrive while it runs.
      { text: "ANSWER-TO-USER", delayMs: 1500 },
      { text: "ANSWER-TO-QUEUED" },
    ]);
    const t = new Term();
    term = t;
    t.start(
      replCommand(dirs, [
        "--name",
        "bob",
        "--model",
        "openai:fake-model",
        "--base-url",
        server.url,
      ]),
      dirs.cwd,
    );
    await t.see("agent name: bob");
    await send("bob", "FIRST-MESSAGE from the shell");
    await t.see("ANSWER-TO-FIRST");
    expect(sent(0)).toContain("FIRST-MESSAGE from the shell");

    t.line("a question of the user's");
    await t.see("a question of the user's");
    await send("bob", "QUEUED-MESSAGE during a turn");
    await t.see("ANSWER-TO-USER");
    await t.see("ANSWER-TO-QUEUED");
    expect(sent(1)).toContain("a question of the user's");
    expect(sent(1)).not.toContain("QUEUED-MESSAGE");
    expect(sent(2)).toContain("QUEUED-MESSAGE during a turn");
    t.line("/exit");
    await t.see("acai exited 0");
  }, 90_000);
});
