/**
 * `/compact` and `/resume` in the real REPL (dist/bundle/main.js in tmux, keys
 * sent with send-keys, the screen read with capture-pane), against the
 * scripted OpenAI server.
 */
import { chmod, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeOpenAIServer,
  type FakeScript,
  startFakeOpenAI,
} from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { replCommand, tmuxSkipReason as skipReason, Term } from "../support/tmux-term.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;
let term: Term | undefined;
beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-repl-sessions-");
});
afterEach(async () => {
  term?.kill();
  term = undefined;
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

async function startRepl(s: FakeOpenAIServer): Promise<Term> {
  const t = new Term();
  t.start(replCommand(dirs, ["--model", "openai:fake-model", "--base-url", s.url]), dirs.cwd);
  term = t;
  return t;
}

const sent = (i: number) => JSON.stringify(server?.requests[i]?.body?.messages ?? []);

describe.skipIf(skipReason !== "")(`sessions in the REPL ${skipReason}`, () => {
  it("/compact summarises the conversation: pre_compact gets the instructions, the next request carries the summary", async () => {
    const log = path.join(dirs.root, "pre.jsonl");
    const hook = path.join(dirs.root, "pre.sh");
    await writeFile(hook, `#!/bin/sh\ncat >> '${log}'\n`);
    await chmod(hook, 0o755);
    await writeFile(
      path.join(dirs.acaiHome, "settings.json"),
      JSON.stringify({
        hooks: { PreCompact: [{ hooks: [{ type: "command", command: `'${hook}'` }] }] },
      }),
    );
    const script: FakeScript = [
      { text: "first answer" },
      { text: "SUMMARY-TEXT of the first exchange" },
      { text: "second answer" },
    ];
    server = await startFakeOpenAI(script);
    const t = await startRepl(server);
    await t.see("fake-model");
    t.line("first question");
    await t.see("first answer");
    t.line("/compact keep the names");
    await t.see(/Compacted the conversation \(manual\): ~\d+ → ~\d+ tokens/);
    t.line("second question");
    await t.see("second answer");
    expect(sent(1)).toContain("keep the names");
    expect(sent(2)).toContain("SUMMARY-TEXT of the first exchange");
    expect(sent(2)).not.toContain("first question");
    const payload = JSON.parse(await readFile(log, "utf8")) as Record<string, unknown>;
    expect(payload).toMatchObject({
      event: "pre_compact",
      trigger: "manual",
      custom_instructions: "keep the names",
    });
    t.line("/exit");
    await t.see("acai exited 0");
  }, 60_000);

  it("/resume lists this project's sessions and continues the one picked", async () => {
    server = await startFakeOpenAI([{ text: "earlier answer" }, { text: "resumed answer" }]);
    const earlier = await runAcai({
      args: [
        "-p",
        "the earlier session prompt",
        "--model",
        "openai:fake-model",
        "--base-url",
        server.url,
      ],
      dirs,
    });
    expect(earlier.exitCode).toBe(0);
    const t = await startRepl(server);
    await t.see("fake-model");
    t.line("/resume");
    await t.see("the earlier session prompt");
    await t.see("1 turn");
    t.line("/resume 1");
    await t.see("Resuming session");
    t.line("follow-up question");
    await t.see("resumed answer");
    expect(sent(1)).toContain("the earlier session prompt");
    expect(sent(1)).toContain("earlier answer");
    expect(sent(1)).toContain("follow-up question");
    t.line("/exit");
    await t.see("acai exited 0");
  }, 60_000);
});
