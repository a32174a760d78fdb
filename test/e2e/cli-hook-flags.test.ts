import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { jsonLines, modelArgs, toolResultsSent } from "./helpers.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

/** User-level (trusted) settings hooks, in Claude Code's shape. */
async function userHooks(hooks: Record<string, unknown>): Promise<void> {
  await writeFile(path.join(dirs.acaiHome, "settings.json"), JSON.stringify({ hooks }));
}

const command = (line: string) => [{ hooks: [{ type: "command", command: line }] }];

describe("hook-related CLI behaviour of acai -p", () => {
  it("a PreToolUse `ask` is denied headless, and approved with --yes", async () => {
    const askAnswer = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "ask",
        permissionDecisionReason: "confirm this write",
      },
    });
    await userHooks({ PreToolUse: command(`echo '${askAnswer}'`) });
    const file = path.join(dirs.cwd, "asked.txt");
    const script = () => [
      { toolCalls: [{ name: "Write", input: { file_path: file, content: "x" } }] },
      { text: "finished" },
    ];

    server = await startFakeOpenAI(script());
    const denied = await runAcai({
      args: ["-p", "write", ...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
    });
    expect(denied.exitCode).toBe(0);
    expect(existsSync(file)).toBe(false);
    expect(toolResultsSent(server.requests[1]?.body).join("\n")).toMatch(/confirm this write/);
    await server.close();

    server = await startFakeOpenAI(script());
    const approved = await runAcai({
      args: ["-p", "write", "--yes", ...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
    });
    expect(approved).toMatchObject({ exitCode: 0, stdout: "finished\n" });
    expect(existsSync(file)).toBe(true);
  });

  it("a user_prompt hook that blocks: exit 3, reason on stderr, no model request", async () => {
    await userHooks({ UserPromptSubmit: command("echo 'prompts are closed today' >&2; exit 2") });
    server = await startFakeOpenAI([{ text: "never" }]);
    const result = await runAcai({
      args: ["-p", "hi", ...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
    });
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("prompts are closed today");
    expect(server.requests).toHaveLength(0);
  });

  it("a session_start hook that refuses: exit 3; stream-json shows the hook activity", async () => {
    const refuse = JSON.stringify({ decision: "block", reason: "not on this branch" });
    await userHooks({ SessionStart: command(`echo '${refuse}'`) });
    server = await startFakeOpenAI([{ text: "never" }]);
    const result = await runAcai({
      args: ["-p", "hi", "--output-format", "stream-json", ...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
    });
    expect(result.exitCode).toBe(3);
    const lines = jsonLines(result.stdout);
    expect(lines.find((l) => l.type === "hook_end")).toMatchObject({
      event: "session_start",
      outcome: "block",
    });
    expect(lines.at(-1)).toMatchObject({ type: "result", exit_code: 3, is_error: true });
    expect(server.requests).toHaveLength(0);
  });
});
