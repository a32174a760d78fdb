/**
 * A subagent's tool calls are judged by the session's own policy, through
 * `acai -p` (issue 18, "Subagents run with no policy at all"): without `--yes`
 * its Bash call is denied; a `--disallowedTools` rule denies its command even
 * with `--yes`; under acceptEdits its write outside the project is not allowed.
 * Each case names a marker file the call would have created.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeOpenAIServer,
  type FakeTurn,
  scriptBySystemPrompt,
  startFakeOpenAI,
  systemPromptOf,
} from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs, STACK_TRACE, toolResultsSent } from "./helpers.js";

const SUBAGENT = "You are a subagent";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;
beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-subagent-permissions-");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

const task: FakeTurn = {
  toolCalls: [
    {
      name: "Task",
      input: { description: "d", prompt: "do it", subagent_type: "general-purpose" },
    },
  ],
};

/** The subagent makes one tool call, then answers; the parent delegates, then finishes. */
async function runWithSubagentCall(call: FakeTurn, flags: string[]) {
  server = await startFakeOpenAI(
    scriptBySystemPrompt(
      [{ system: SUBAGENT, turns: [call, { text: "sub done" }] }],
      [task, { text: "parent done" }],
    ),
  );
  const result = await runAcai({
    args: ["-p", "delegate", ...flags, ...modelArgs("chat", server)],
    dirs,
    baseUrl: server.url,
    timeoutMs: 60_000,
  });
  expect(result.stderr).not.toMatch(STACK_TRACE);
  const subRequests = server.requests.filter((r) => systemPromptOf(r).includes(SUBAGENT));
  // The subagent's second request carries the result of its tool call.
  const subResults = toolResultsSent(subRequests[1]?.body);
  return { result, subResults, subResult: subResults.at(-1) ?? "" };
}

describe("a subagent's tool calls follow the session's policy", () => {
  it("without --yes, the subagent's Bash call is denied and does not run", async () => {
    const marker = path.join(dirs.root, "bash-ran");
    const { subResult } = await runWithSubagentCall(
      { toolCalls: [{ name: "Bash", input: { command: `touch ${marker}` } }] },
      [],
    );
    expect(subResult).toContain("Permission denied");
    expect(existsSync(marker)).toBe(false);
  });

  it("a --disallowedTools rule denies the subagent's command, even with --yes", async () => {
    const marker = path.join(dirs.root, "touched");
    const { subResult } = await runWithSubagentCall(
      { toolCalls: [{ name: "Bash", input: { command: `touch ${marker}` } }] },
      ["--yes", "--disallowedTools", "Bash(touch:*)"],
    );
    expect(subResult).toContain("Permission denied");
    expect(subResult).toContain("Bash(touch:*)");
    expect(existsSync(marker)).toBe(false);
  });

  it("under acceptEdits, the subagent's write outside the project is not allowed", async () => {
    const outside = path.join(dirs.root, "outside.txt");
    const inside = path.join(dirs.cwd, "inside.txt");
    const { subResults } = await runWithSubagentCall(
      {
        toolCalls: [
          { name: "Write", input: { file_path: outside, content: "x" } },
          { name: "Write", input: { file_path: inside, content: "y" } },
        ],
      },
      ["--permission-mode", "acceptEdits"],
    );
    expect(subResults).toHaveLength(2);
    expect(subResults[0]).toContain("Permission denied");
    expect(subResults[1]).toContain("Created");
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(inside)).toBe(true);
  });
});
