/**
 * REPL screens in a real terminal (tmux), compared line by line: `/help` in
 * two columns that never wrap into each other (60 columns), `/` and `@`
 * completion, the working line while the model thinks, no relay jargon at
 * start, and a CJK table whose column rules line up.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { textWidth } from "../../source/repl/text-width.js";
import {
  type FakeOpenAIServer,
  type FakeTurn,
  startFakeOpenAI,
} from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs } from "../support/run-acai.js";
import { replCommand, tmuxSkipReason as skipReason, Term } from "../support/tmux-term.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;
let term: Term | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-repl-screens-");
});
afterEach(async () => {
  term?.kill();
  term = undefined;
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

async function startAcai(script: FakeTurn[], columns = 100): Promise<Term> {
  server = await startFakeOpenAI(script);
  const args = ["--model", "openai:fake-model", "--base-url", server.url];
  const t = new Term({ columns, rows: 40 });
  t.start(replCommand(dirs, args, { OPENAI_BASE_URL: server.url }), dirs.cwd);
  term = t;
  await t.see("ask anything");
  return t;
}

const rows = (screen: string) => screen.split("\n").map((row) => row.trimEnd());

describe.skipIf(skipReason !== "")(`REPL screens ${skipReason}`, { timeout: 60_000 }, () => {
  it("/help at 60 columns: every description stays in its own column", async () => {
    const t = await startAcai([], 60);
    expect(t.screen()).not.toContain("agent name:");
    t.line("/help");
    const screen = await t.see("exit on an empty line");
    const lines = rows(screen);
    const from = lines.indexOf("Commands");
    const help = lines.slice(from + 1, lines.findIndex((l) => l.startsWith("Ctrl-D")) + 1);
    expect(help.slice(0, 8)).toEqual([
      "/hooks            loaded hooks: source, events, matcher,",
      "                  trust, broken ones, last decision",
      "/model [spec]     show the model, or start a new session",
      "                  with another (counts start at 0)",
      "/clear            start a new session (clears the screen)",
      "/compact [instructions]",
      "    summarise the conversation so far to free context",
      "/resume [N | id]  list this project's sessions, or continue",
    ]);
    // Every continuation row starts in the description column or below a key of its own.
    for (const line of help) {
      expect(/^(\S| {18}\S| {4}\S)/.test(line), line).toBe(true);
      expect(textWidth(line)).toBeLessThanOrEqual(60);
    }
  });

  it("'/' offers the commands and Tab takes one; '@' offers files and folders", async () => {
    await mkdir(path.join(dirs.cwd, "src"));
    await writeFile(path.join(dirs.cwd, "src", "main.ts"), "");
    await writeFile(path.join(dirs.cwd, "README.md"), "");
    const t = await startAcai([]);
    t.text("/co");
    await t.see("Tab completes");
    expect(rows(t.screen())).toContain("  /compact");
    t.keys("Tab");
    await t.see(/^› \/compact\s*$/m);
    t.keys("C-u");
    // The cleared line first: typed in the same read as C-u, the text would come as one chunk.
    await t.see(/^›\s+ask anything/m);
    t.text("look at @s");
    await t.see("  src/");
    t.keys("Tab");
    await t.see("› look at @src/");
    await t.see("  src/main.ts");
    t.keys("Tab");
    await t.see(/^› look at @src\/main\.ts\s*$/m);
    expect(t.screen()).not.toContain("Tab completes");
  });

  it("while the model thinks a spinner line shows the time and tokens", async () => {
    const t = await startAcai([{ text: "late answer", delayMs: 4000 }]);
    t.line("think");
    const screen = await t.see(/working… \(\d+(\.\d)?(ms|s) · ↓ 0 tokens · Esc to interrupt\)/);
    expect(screen).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] working…/m);
    // The answer may be drawn a frame before the turn ends: wait for the spinner to go.
    const done = await t.see(/^(?![\s\S]*working…)[\s\S]*late answer/);
    expect(done).not.toContain("working…");
  });

  it("a table with CJK and emoji keeps its columns aligned on screen", async () => {
    const table = "| 名前 | note |\n|---|---|\n| 東京都 | 👍 ok |\n| ab | plain |\n";
    const t = await startAcai([{ text: table }]);
    t.line("table");
    await t.see("plain");
    const lines = rows(t.screen()).filter((l) => l.includes("│"));
    expect(lines.length).toBe(3);
    const ruleAt = lines.map((l) => textWidth(l.slice(0, l.indexOf("│"))));
    expect(new Set(ruleAt).size).toBe(1);
  });
});
