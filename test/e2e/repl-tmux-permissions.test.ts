/**
 * The REPL's permission prompt in a real terminal (tmux, 100x30), screens
 * compared: its answers (yes; yes and don't ask again for this exact call,
 * this session, this project; no and tell the model why), the diff of an
 * Edit before it is approved, a protected path offering no "always", and
 * Shift-Tab cycling the mode shown in the status line.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeOpenAIServer,
  type FakeTurn,
  startFakeOpenAI,
} from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs } from "../support/run-acai.js";
import {
  replCommand,
  shellQuote,
  tmuxSkipReason as skipReason,
  Term,
} from "../support/tmux-term.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;
let term: Term | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-repl-perms-");
});
afterEach(async () => {
  term?.kill();
  term = undefined;
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

async function startAcai(script: FakeTurn[], extraArgs: string[] = []): Promise<Term> {
  server = await startFakeOpenAI(script);
  const args = ["--model", "openai:fake-model", "--base-url", server.url, ...extraArgs];
  const t = new Term({ columns: 100, rows: 30 });
  t.start(replCommand(dirs, args, { OPENAI_BASE_URL: server.url }), dirs.cwd);
  term = t;
  await t.see("ask anything");
  return t;
}

/** The rows of the prompt box on screen (its border rows included), right-trimmed. */
function askBox(screen: string): string[] {
  const rows = screen.split("\n").map((row) => row.trimEnd());
  const start = rows.findLastIndex((row) => row.startsWith("╭"));
  const end = rows.findIndex((row, i) => i > start && row.startsWith("╰"));
  return start === -1 || end === -1 ? [] : rows.slice(start, end + 1);
}

/**
 * The permission box from one capture on which it is drawn whole: `text` in it and the box's
 * bottom border below. (A second capture after `see` could catch the terminal mid-redraw.)
 */
async function askBoxShowing(t: Term, text: string): Promise<string[]> {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return askBox(await t.see(new RegExp(`${escaped}[\\s\\S]*\\n╰`)));
}

const told = (i: number) => JSON.stringify(server?.requests[i]?.body);
const bash = (command: string): FakeTurn => ({ toolCalls: [{ name: "Bash", input: { command } }] });

describe.skipIf(skipReason !== "")(
  `the REPL's permission prompt ${skipReason}`,
  { timeout: 60_000 },
  () => {
    it("offers every answer; 's' keeps the rule for the session, so the next such call runs unasked", async () => {
      const t = await startAcai([bash("echo 1"), bash("echo 2"), { text: "Both echoed." }]);
      t.line("echo twice");
      expect(await askBoxShowing(t, "? permission to run Bash echo 1")).toEqual([
        "╭──────────────────────────────────────────────────────────────────────────────────────────────────╮",
        "│ ? permission to run Bash echo 1                                                                  │",
        "│   no rule allows Bash in default mode                                                            │",
        "│ Allow?                                                                                           │",
        "│   [y] yes                                                                                        │",
        "│   [c] yes, and don't ask again for this exact call this session                                  │",
        "│   [s] yes, and don't ask again this session for Bash(echo:*)                                     │",
        "│   [p] yes, and don't ask again in this project for Bash(echo:*)                                  │",
        "│   [n] no                                                                                         │",
        "│   [t] no, and tell the model why                                                                 │",
        "│   Esc = no                                                                                       │",
        "╰──────────────────────────────────────────────────────────────────────────────────────────────────╯",
      ]);
      t.keys("s");
      await t.see("Both echoed.");
      const screen = t.screen();
      expect(screen).toContain("✓ you allowed Bash echo 1 · kept for this session: Bash(echo:*)");
      expect(screen).toMatch(/✓ Bash echo 2 done/);
      expect(screen).not.toContain("? permission to run Bash echo 2");
      expect(existsSync(path.join(dirs.cwd, ".acai"))).toBe(false);
    });

    it("'c' allows this exact call again, not another one", async () => {
      const t = await startAcai([
        bash("echo same"),
        bash("echo same"),
        bash("echo other"),
        { text: "Done." },
      ]);
      t.line("go");
      await t.see("? permission to run Bash echo same");
      t.keys("c");
      await t.see("? permission to run Bash echo other");
      expect(t.screen()).toContain(
        "✓ you allowed Bash echo same · not asked again for this exact call this session",
      );
      t.keys("y");
      await t.see("Done.");
    });

    it("'p' writes the rule to .acai/settings.local.json, keeps the project trusted, and the next session does not ask", async () => {
      const t = await startAcai([
        bash("echo 1"),
        { text: "first" },
        bash("echo 2"),
        { text: "second" },
      ]);
      t.line("go");
      await t.see("? permission to run Bash echo 1");
      t.keys("p");
      await t.see("first");
      const file = path.join(dirs.cwd, ".acai", "settings.local.json");
      await t.see(`Bash(echo:*) written to ${file}`);
      expect(JSON.parse(await readFile(file, "utf8"))).toEqual({
        permissions: { allow: ["Bash(echo:*)"] },
      });
      t.line("/clear");
      await t.see("ask anything");
      t.line("again");
      await t.see("second");
      const screen = t.screen();
      expect(screen).toMatch(/✓ Bash echo 2 done/);
      expect(screen).not.toContain("? permission to run Bash echo 2");
      expect(screen).not.toContain("untrusted");
    });

    it("'t' with a reason: the call does not run and the model gets the user's words", async () => {
      const marker = path.join(dirs.root, "ran");
      const t = await startAcai([bash(`touch ${shellQuote(marker)}`), { text: "I will not." }]);
      t.line("touch it");
      await t.see("? permission to run Bash touch");
      t.keys("t");
      await t.see("Tell the model why (Enter sends · Esc: just no):");
      t.text("use the build script instead");
      t.keys("Enter");
      await t.see("I will not.");
      expect(t.screen()).toContain("✗ you denied Bash touch");
      expect(t.screen()).toContain("· told the model: use the build script");
      expect(existsSync(marker)).toBe(false);
      expect(told(1)).toContain("says: use the build script instead");
    });

    it("an Edit shows its diff before it is approved", async () => {
      const file = path.join(dirs.cwd, "greet.txt");
      await writeFile(file, "one\ntwo\nhello world\nthree\n");
      const t = await startAcai([
        {
          toolCalls: [
            {
              name: "Edit",
              input: { file_path: file, old_string: "hello world", new_string: "hello there" },
            },
          ],
        },
        { text: "Edited." },
      ]);
      t.line("edit it");
      const box = (await askBoxShowing(t, "- hello world")).map((row) =>
        row.replace(/^│ ?|\s*│$/g, ""),
      );
      expect(box).toContain(file);
      const diff = box.slice(box.indexOf(file) + 1, box.indexOf("Allow?"));
      expect(diff).toEqual(["  one", "  two", "- hello world", "+ hello there", "  three"]);
      t.keys("y");
      await t.see("Edited.");
      expect(await readFile(file, "utf8")).toBe("one\ntwo\nhello there\nthree\n");
    });

    it("a protected path offers only this exact write: c, s and p do nothing, no rule is kept", async () => {
      await mkdir(path.join(dirs.cwd, ".git"));
      const config = path.join(dirs.cwd, ".git", "config");
      await writeFile(config, "[core]\n");
      const t = await startAcai([
        { toolCalls: [{ name: "Write", input: { file_path: config, content: "[user]\n" } }] },
        { toolCalls: [{ name: "Write", input: { file_path: config, content: "[again]\n" } }] },
        { text: "Tried twice." },
      ]);
      t.line("set up git");
      const box = (await askBoxShowing(t, "Allow this exact write, once?")).join("\n");
      expect(box).toContain("[y] yes, this exact write, once");
      expect(box).toContain("[n] no");
      expect(box).toContain("[t] no, and tell the model why");
      expect(box).not.toMatch(/\[[csp]\]/);
      t.keys("c");
      t.keys("s");
      t.keys("p");
      t.keys("y");
      // The same write again is asked again: nothing was kept.
      await t.see(
        /Allow this exact write, once\?[\s\S]*\[again\]|\[again\][\s\S]*Allow this exact write, once\?/,
      );
      t.keys("Escape");
      await t.see("Tried twice.");
      expect(await readFile(config, "utf8")).toBe("[user]\n");
      expect(existsSync(path.join(dirs.cwd, ".acai"))).toBe(false);
    });

    it("Shift-Tab cycles the mode in the status line; in acceptEdits a Write in the project runs unasked, and hooks see the mode", async () => {
      const file = path.join(dirs.cwd, "new.txt");
      const seen = path.join(dirs.root, "prompt-payload.json");
      await writeFile(
        path.join(dirs.acaiHome, "settings.json"),
        JSON.stringify({
          hooks: {
            UserPromptSubmit: [
              { hooks: [{ type: "command", command: `cat > ${shellQuote(seen)}` }] },
            ],
          },
        }),
      );
      const t = await startAcai([
        { toolCalls: [{ name: "Write", input: { file_path: file, content: "made\n" } }] },
        { text: "Written." },
      ]);
      await t.see("default mode (Shift-Tab) · fake-model");
      t.keys("BTab");
      await t.see("acceptEdits mode (Shift-Tab) · fake-model");
      t.line("write it");
      await t.see("Written.");
      expect(t.screen()).not.toContain("? permission");
      expect(await readFile(file, "utf8")).toBe("made\n");
      expect(JSON.parse(await readFile(seen, "utf8")).permission_mode).toBe("acceptEdits");
      t.keys("BTab");
      await t.see("plan mode (Shift-Tab)");
      t.keys("BTab");
      await t.see("default mode (Shift-Tab)");
    });
  },
);
