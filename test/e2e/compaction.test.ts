/**
 * Compaction (issue 10 item 1) through `acai -p` against the scripted server:
 * near the context window (the `contextWindow` setting, measured from the
 * usage the server reports) and after a `context_length_exceeded` error,
 * acai summarises the older conversation with the model, fires pre_compact,
 * post_compact and session_start (source compact), and the next request
 * carries the summary instead of the old turns. A pre_compact block means not
 * now. The transcript reloads the compacted conversation.
 */
import { chmod, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeOpenAIServer,
  type FakeTurn,
  startFakeOpenAI,
} from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs } from "./helpers.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;
let hookLog: string;
const OLD = `OLD-TURN ${"the earlier discussion ".repeat(200)}`;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-compaction-");
  hookLog = path.join(dirs.root, "hooks.jsonl");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

/** User settings: a context window, and hooks that record their stdin (pre_compact answers `answer`). */
async function settings(contextWindow: number | undefined, preCompactAnswer = "") {
  const record = path.join(dirs.root, "record.sh");
  await writeFile(record, `#!/bin/sh\ncat >> '${hookLog}'\necho >> '${hookLog}'\n`);
  const pre = path.join(dirs.root, "pre.sh");
  await writeFile(
    pre,
    `#!/bin/sh\ncat >> '${hookLog}'\necho >> '${hookLog}'\nprintf '%s' '${preCompactAnswer}'\n`,
  );
  await chmod(record, 0o755);
  await chmod(pre, 0o755);
  const hook = (file: string) => [{ hooks: [{ type: "command", command: `'${file}'` }] }];
  await writeFile(
    path.join(dirs.acaiHome, "settings.json"),
    JSON.stringify({
      ...(contextWindow ? { contextWindow } : {}),
      hooks: {
        PreCompact: [{ matcher: "auto", hooks: hook(pre)[0]?.hooks }],
        post_compact: hook(record),
        SessionStart: hook(record),
      },
    }),
  );
}

async function hookPayloads(): Promise<Record<string, unknown>[]> {
  const text = await readFile(hookLog, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

function acai(args: string[]) {
  if (!server) throw new Error("no server");
  return runAcai({
    args: [...args, ...modelArgs("chat", server)],
    dirs,
    baseUrl: server.url,
    timeoutMs: 30_000,
  });
}

const sent = (i: number) => JSON.stringify(server?.requests[i]?.body?.messages ?? []);
const isSummaryRequest = (i: number) => sent(i).includes("Summarise the conversation so far");

/** A first session with one long turn, so there is something old to summarise. */
async function oldSession(script: FakeTurn[]): Promise<void> {
  server = await startFakeOpenAI(script);
  const first = await acai(["-p", OLD]);
  expect(first.exitCode).toBe(0);
}

describe("compaction through acai -p", () => {
  it("near the context window: hooks fire, the next request carries the summary, -c reloads it", async () => {
    await settings(2_000, '{"context": "keep the file names"}');
    await oldSession([
      { text: "old answer" },
      // Second session: a tool call whose reported usage nears the 2,000-token window.
      {
        toolCalls: [{ name: "Read", input: { file_path: "a.txt" } }],
        usage: { inputTokens: 1_700, outputTokens: 10 },
      },
      { text: "SUMMARY-TEXT: the user discussed things." },
      { text: "final answer" },
      { text: "third session answer" },
    ]);
    await writeFile(path.join(dirs.cwd, "a.txt"), "A\n");
    const second = await acai(["-p", "now read a.txt", "-c"]);
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toContain("final answer");
    // Requests: old session, tool call, summary, the step after the compaction.
    expect(isSummaryRequest(2)).toBe(true);
    expect(sent(2)).toContain("OLD-TURN");
    expect(sent(2)).toContain("keep the file names");
    expect(sent(3)).toContain("SUMMARY-TEXT");
    expect(sent(3)).not.toContain("OLD-TURN");
    expect(sent(3)).toContain("now read a.txt");

    const payloads = await hookPayloads();
    const pre = payloads.find((p) => p.event === "pre_compact");
    expect(pre).toMatchObject({
      hook_event_name: "PreCompact",
      trigger: "auto",
      custom_instructions: "",
    });
    expect(pre?.tokens_before).toBe(1_710);
    const post = payloads.find((p) => p.event === "post_compact");
    expect(post).toMatchObject({
      trigger: "auto",
      summary: "SUMMARY-TEXT: the user discussed things.",
    });
    expect(post?.tokens_after as number).toBeLessThan(1_710);
    expect(payloads.filter((p) => p.event === "session_start").map((p) => p.source)).toEqual([
      "startup",
      "resume",
      "compact",
    ]);

    // The transcript reloads the compacted conversation: the summary, not the old turns.
    const third = await acai(["-p", "and then?", "-c"]);
    expect(third.exitCode).toBe(0);
    expect(sent(4)).toContain("SUMMARY-TEXT");
    expect(sent(4)).not.toContain("OLD-TURN");
    expect(sent(4)).toContain("final answer");
  }, 90_000);

  it("a context_length_exceeded error leads to one compaction and one retry", async () => {
    await settings(undefined);
    await oldSession([
      { text: "old answer" },
      {
        status: 400,
        errorCode: "context_length_exceeded",
        errorMessage: "This model's maximum context length is 8192 tokens.",
      },
      { text: "SUMMARY-TEXT" },
      { text: "answer after the retry" },
    ]);
    const second = await acai(["-p", "go on", "-c"]);
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toContain("answer after the retry");
    expect(isSummaryRequest(2)).toBe(true);
    expect(sent(3)).toContain("SUMMARY-TEXT");
    expect(sent(3)).not.toContain("OLD-TURN");
    expect(sent(3)).toContain("go on");
    expect((await hookPayloads()).filter((p) => p.event === "post_compact")).toHaveLength(1);
  }, 90_000);

  it("a second context-length error ends the turn with the error (no loop)", async () => {
    await settings(undefined);
    const full = {
      status: 400,
      errorCode: "context_length_exceeded",
      errorMessage: "maximum context length exceeded",
    };
    await oldSession([
      { text: "old answer" },
      full,
      { text: "SUMMARY-TEXT" },
      full,
      { text: "never" },
    ]);
    const second = await acai(["-p", "go on", "-c"]);
    expect(second.exitCode).toBe(1);
    expect(server?.requests).toHaveLength(4);
  }, 90_000);

  it("a pre_compact block means not now: a warning, and the request goes on unchanged", async () => {
    await settings(2_000, '{"action": "block", "reason": "backing up first"}');
    await oldSession([
      { text: "old answer" },
      {
        toolCalls: [{ name: "Read", input: { file_path: "a.txt" } }],
        usage: { inputTokens: 1_900, outputTokens: 10 },
      },
      { text: "done" },
    ]);
    await writeFile(path.join(dirs.cwd, "a.txt"), "A\n");
    const second = await acai(["-p", "read", "-c"]);
    expect(second.exitCode).toBe(0);
    expect(second.stderr).toContain("A pre_compact hook blocked the compaction: backing up first");
    expect(server?.requests).toHaveLength(3);
    expect(sent(2)).toContain("OLD-TURN");
    expect((await hookPayloads()).some((p) => p.event === "post_compact")).toBe(false);
  }, 90_000);
});
