/**
 * `type: "mcp_tool"` settings hooks through `acai -p`: the hook calls a tool
 * of a configured MCP server (test/support/mcp-test-server.mjs) with its
 * `input`, `${tool_input.command}` filled from the payload; the tool's text
 * is read as a command hook's stdout (a block stops the call). A server that
 * is not configured is the hook's failure, named.
 */
import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AcaiDirs, makeAcaiDirs, REPO_ROOT, runAcai } from "../support/run-acai.js";

const SERVER = path.join(REPO_ROOT, "test", "support", "mcp-test-server.mjs");

let dirs: AcaiDirs | undefined;
afterEach(async () => {
  await dirs?.cleanup();
  dirs = undefined;
});

async function setUp(command: string, hook: object): Promise<{ d: AcaiDirs; log: string }> {
  const d = await makeAcaiDirs("acai-hook-mcp-");
  dirs = d;
  const log = path.join(d.root, "calls.jsonl");
  const settings = {
    mcpServers: { test: { command: process.execPath, args: [SERVER], env: { MCP_TEST_LOG: log } } },
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [hook] }] },
  };
  await writeFile(path.join(d.acaiHome, "settings.json"), JSON.stringify(settings));
  await writeFile(
    path.join(d.cwd, "replay.json"),
    JSON.stringify({
      turns: [{ tool_calls: [{ name: "Bash", input: { command } }] }, { text: "done" }],
    }),
  );
  return { d, log };
}

const run = (d: AcaiDirs) =>
  runAcai({ args: ["-p", "go", "--model", "replay:replay.json", "--yes"], dirs: d });

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

const VERDICT_HOOK = {
  type: "mcp_tool",
  server: "test",
  tool: "verdict",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code's placeholder syntax
  input: { command: "${tool_input.command}" },
};

describe("an mcp_tool hook", () => {
  it("calls the server's tool with the filled input; its block stops the call", async () => {
    const { d, log } = await setUp("rm -f keep.txt; echo ran > ran.txt", VERDICT_HOOK);
    const result = await run(d);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await exists(path.join(d.cwd, "ran.txt"))).toBe(false);
    const calls = (await readFile(log, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(calls).toEqual([
      { name: "verdict", args: { command: "rm -f keep.txt; echo ran > ran.txt" } },
    ]);
    const audit = await readFile(path.join(d.acaiHome, "logs", "hooks-audit.jsonl"), "utf8");
    expect(audit).toContain('"type":"mcp_tool"');
    expect(audit).toContain("verdict: no rm in");
  });

  it("lets the call run when the tool answers {}", async () => {
    const { d, log } = await setUp("echo ran > ran.txt", VERDICT_HOOK);
    const result = await run(d);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await exists(path.join(d.cwd, "ran.txt"))).toBe(true);
    expect(await exists(log)).toBe(true);
  });

  it("naming a server that is not configured is the hook's failure, said with the way to check", async () => {
    const { d } = await setUp("echo ran > ran.txt", { ...VERDICT_HOOK, server: "nope" });
    const result = await run(d);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain("no connected MCP server offers mcp__nope__verdict");
    expect(await exists(path.join(d.cwd, "ran.txt"))).toBe(true);
  });
});
