/**
 * Answers that observe-only events cannot take, through `acai -p`: `stop` on
 * `after_agent` ends the session (exit 3, session_end "hook_stop"); `stop` or
 * `block` on the other observe-only events is ignored with a warning and never
 * reported as if it had acted (exit 0).
 */
import { chmod, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { jsonLines, modelArgs } from "./helpers.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

/** Records each payload; answers with the JSON in $DIR/answer-<event>, if that file exists. */
const HOOK = String.raw`#!/usr/bin/env bash
input=$(cat)
printf '%s\n' "$input" >> "$HOOK_E2E_DIR/payloads.jsonl"
answer="$HOOK_E2E_DIR/answer-$ACAI_HOOK_EVENT"
[ -e "$answer" ] && cat "$answer"
exit 0
`;

/** User-level settings hooks (trusted) on every observe-only event. */
async function setup(answers: Record<string, unknown>): Promise<AcaiDirs> {
  const d = await makeAcaiDirs("acai-observe-only-");
  const script = path.join(d.root, "hook.sh");
  await writeFile(script, HOOK);
  await chmod(script, 0o755);
  const entry = [{ hooks: [{ type: "command", command: `'${script}'`, name: "observer" }] }];
  const hooks = Object.fromEntries(
    ["after_tool_failure", "after_agent", "notification", "session_end"].map((e) => [e, entry]),
  );
  await writeFile(path.join(d.acaiHome, "settings.json"), JSON.stringify({ hooks }));
  for (const [event, answer] of Object.entries(answers))
    await writeFile(path.join(d.root, `answer-${event}`), JSON.stringify(answer));
  return d;
}

function run(d: AcaiDirs, s: FakeOpenAIServer, extra: string[] = []) {
  return runAcai({
    dirs: d,
    args: ["-p", "hello", ...extra, ...modelArgs("chat", s)],
    baseUrl: s.url,
    env: { HOOK_E2E_DIR: d.root },
    timeoutMs: 30_000,
  });
}

async function sessionEndReasons(d: AcaiDirs): Promise<unknown[]> {
  const text = await readFile(path.join(d.root, "payloads.jsonl"), "utf8");
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((p) => p.event === "session_end")
    .map((p) => p.reason);
}

describe("stop and block on observe-only events, through acai -p", () => {
  it("stop on after_agent ends the session: exit 3 with the reason, session_end says hook_stop", async () => {
    dirs = await setup({ after_agent: { action: "stop", reason: "BUDGET-SPENT" } });
    server = await startFakeOpenAI([{ text: "done" }, { text: "done" }]);
    const text = await run(dirs, server);
    expect(text.exitCode, text.stderr).toBe(3);
    expect(text.stdout).toBe("done\n");
    expect(text.stderr).toContain("hook observer stopped after_agent: BUDGET-SPENT");
    expect(text.stderr).not.toContain("warning");
    expect(await sessionEndReasons(dirs)).toEqual(["hook_stop"]);

    const stream = await run(dirs, server, ["--output-format", "stream-json"]);
    expect(stream.exitCode).toBe(3);
    const lines = jsonLines(stream.stdout);
    expect(lines.find((l) => l.type === "session_end")).toMatchObject({ reason: "hook_stop" });
    expect(lines.at(-1)).toMatchObject({
      type: "result",
      is_error: true,
      exit_code: 3,
      stop_reason: "end_turn",
      error: "hook observer stopped the session after the turn: BUDGET-SPENT",
    });
  });

  it("stop on session_end and block on after_tool_failure are ignored with a warning, never shown as acting", async () => {
    dirs = await setup({
      session_end: { action: "stop", reason: "END-STOP" },
      after_tool_failure: { action: "block", reason: "FAIL-BLOCK" },
    });
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Read", input: { file_path: "/nonexistent/acai-observe-only" } }] },
      { text: "done" },
    ]);
    const result = await run(dirs, server);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe("done\n");
    expect(result.stderr).not.toMatch(/stopped|blocked/);
    expect(result.stderr).toContain(
      'hook "observer" answered stop (END-STOP): stop is ignored on session_end; session_end is an observe-only event',
    );
    expect(result.stderr).toContain(
      'hook "observer" answered block (FAIL-BLOCK): block is ignored on after_tool_failure; after_tool_failure is an observe-only event',
    );
    expect(await sessionEndReasons(dirs)).toEqual(["completed"]);
  });
});
