/**
 * agent-relay in the real REPL (tmux): an `onIdle` inject starts a turn in a
 * waiting REPL, once — the same reminder does not come back while the agent
 * stays idle, only after another turn; and the `\@` escape is shown without
 * its backslash (streamed Markdown, as the user reads it).
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs } from "../support/run-acai.js";
import { replCommand, Term, tmuxSkipReason } from "../support/tmux-term.js";
import { lastUser, until } from "./messaging-support.js";

const IDLE_EXAMPLE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "seeds",
  "agent-relay",
  "examples",
  "idle-threshold",
  "relay.config.ts",
);
const STATUS = "[STATUS CHECK] Are you making progress?";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;
let term: Term | undefined;
beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-repl-relay-");
});
afterEach(async () => {
  term?.kill();
  term = undefined;
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

function repl(s: FakeOpenAIServer, extra: string[] = []): Term {
  const t = new Term();
  term = t;
  const args = ["--name", "dev", "--model", "openai:fake-model", "--base-url", s.url, ...extra];
  t.start(replCommand(dirs, args), dirs.cwd);
  return t;
}

describe.skipIf(tmuxSkipReason !== "")(`agent-relay in the REPL ${tmuxSkipReason}`, () => {
  it("an onIdle inject starts a turn in the waiting REPL, once while it stays idle, again after another turn", async () => {
    const text = await readFile(IDLE_EXAMPLE, "utf8");
    // The seed's 60 s, made 300 ms so the test does not wait a minute.
    await writeFile(
      path.join(dirs.cwd, "relay.config.ts"),
      text.replace("idleThreshold: 60000", "idleThreshold: 300"),
    );
    // Counts idle periods (answers nothing), so the test waits for events, not for time.
    const idles = path.join(dirs.root, "idles.log");
    const hooks = { idle: [{ hooks: [{ type: "command", command: `echo x >> '${idles}'` }] }] };
    await writeFile(path.join(dirs.acaiHome, "settings.json"), JSON.stringify({ hooks }));
    const idleCount = async () =>
      (await readFile(idles, "utf8").catch(() => "")).split("\n").filter(Boolean).length;
    server = await startFakeOpenAI((request) =>
      lastUser(request) === STATUS ? { text: "IDLE-ANSWER still on it" } : { text: "USER-ANSWER" },
    );
    const requests = server.requests;
    const statusTurns = () => requests.filter((r) => lastUser(r) === STATUS).length;
    const t = repl(server, ["--trust-project"]);
    await t.see("agent name: dev", 60_000);
    await t.see("idle hook: [STATUS CHECK]", 60_000);
    await t.see("IDLE-ANSWER still on it", 60_000);
    const after = await idleCount();
    await until("four more idle periods", async () => (await idleCount()) >= after + 4);
    expect(statusTurns()).toBe(1);
    // The user's own turn: the next idle period may remind again.
    t.line("a question of the user's");
    await t.see("USER-ANSWER", 60_000);
    await until("the reminder after the user's turn", () => statusTurns() >= 2);
    // A reminder is a turn's prompt, never also context of the user's request (also when one
    // more idle period ended as the user typed: it repeats the idle turn before, dropped).
    const asked = requests.filter((r) => lastUser(r).includes("a question of the user"));
    expect(asked, requests.map((r) => lastUser(r)).join("\n---\n")).toHaveLength(1);
    // (The history holds the reminder's own turn once; nothing was added to the user's.)
    const body = JSON.stringify(asked[0]?.body);
    expect(body.split("STATUS CHECK").length - 1).toBe(1);
    expect(lastUser(asked[0]!)).toBe("a question of the user's");
    t.line("/exit");
    await t.see("acai exited 0", 30_000);
  }, 120_000);

  it("the \\@ escape is shown without its backslash; \\\\@ keeps one; code stays as written", async () => {
    server = await startFakeOpenAI([
      {
        text: [
          "To write to Alice:",
          "",
          "\\@relay:Alice ESCAPED-LINE check the tests",
          "",
          "\\\\@relay:Alice DOUBLE-LINE keeps one",
          "",
          "```",
          "\\@relay:Alice CODE-LINE as written",
          "```",
        ].join("\n"),
        chunkSize: 3,
      },
    ]);
    const t = repl(server);
    await t.see("agent name: dev", 60_000);
    t.line("how do I write to Alice?");
    const screen = await t.see("CODE-LINE", 60_000);
    const row = (marker: string) => screen.split("\n").find((l) => l.includes(marker)) ?? "";
    expect(row("ESCAPED-LINE")).toContain("@relay:Alice ESCAPED-LINE");
    expect(row("ESCAPED-LINE")).not.toContain("\\@relay");
    expect(row("DOUBLE-LINE")).toContain("\\@relay:Alice DOUBLE-LINE");
    expect(row("DOUBLE-LINE")).not.toContain("\\\\@");
    expect(row("CODE-LINE")).toContain("\\@relay:Alice CODE-LINE");
    // Never routed: no message to Alice was tried (she never ran: it would be a warning).
    expect(screen).not.toContain("not sent");
    t.line("/exit");
    await t.see("acai exited 0", 30_000);
  }, 90_000);
});
