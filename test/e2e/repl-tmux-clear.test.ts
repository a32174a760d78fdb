/**
 * `/clear` in the real REPL, as in Claude Code: the session ends with reason
 * `clear` and the next starts with source `clear`; SessionEnd and
 * SessionStart matchers are honoured, so a hook meant for /clear does not
 * run when the user leaves.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs } from "../support/run-acai.js";
import { replCommand, tmuxSkipReason as skipReason, Term } from "../support/tmux-term.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;
let term: Term | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-repl-clear-");
});
afterEach(async () => {
  term?.kill();
  term = undefined;
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

/** A hook that writes `label` and the payload's reason or source to the log. */
function noting(log: string, label: string, field: "reason" | "source"): object {
  const value = `tr -d ' \\n' | grep -o '"${field}":"[a-z_]*"' | cut -d'"' -f4`;
  return { type: "command", command: `echo "${label} $(${value})" >> '${log}'` };
}

async function lines(log: string): Promise<string[]> {
  const text = await readFile(log, "utf8").catch(() => "");
  return text.split("\n").filter(Boolean);
}

async function until(log: string, count: number): Promise<string[]> {
  for (let i = 0; i < 300; i++) {
    const seen = await lines(log);
    if (seen.length >= count) return seen;
    await new Promise((r) => setTimeout(r, 50));
  }
  return lines(log);
}

describe.skipIf(skipReason !== "")(`/clear in the REPL ${skipReason}`, () => {
  it("ends with reason clear, starts with source clear; a clear-only SessionEnd hook skips the final exit", async () => {
    const log = path.join(dirs.root, "hooks.log");
    const settings = {
      hooks: {
        SessionEnd: [
          { matcher: "clear", hooks: [noting(log, "clear-only-end", "reason")] },
          { hooks: [noting(log, "every-end", "reason")] },
        ],
        SessionStart: [{ matcher: "clear", hooks: [noting(log, "after-clear-start", "source")] }],
      },
    };
    await writeFile(path.join(dirs.acaiHome, "settings.json"), JSON.stringify(settings));
    server = await startFakeOpenAI([{ text: "unused" }]);
    const args = ["--model", "openai:fake-model", "--base-url", server.url];
    const t = new Term({ columns: 120, rows: 40 });
    t.start(replCommand(dirs, args, { OPENAI_BASE_URL: server.url }), dirs.cwd);
    term = t;
    await t.see("ask anything");
    t.line("/clear");
    const afterClear = await until(log, 3);
    expect([...afterClear].sort()).toEqual([
      "after-clear-start clear",
      "clear-only-end clear",
      "every-end clear",
    ]);
    await t.see("ask anything");
    t.line("/exit");
    await t.see("acai exited 0");
    const all = await lines(log);
    expect(all.slice(3)).toEqual(["every-end user_exit"]);
  });
});
