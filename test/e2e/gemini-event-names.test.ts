/**
 * Gemini CLI's event names in a settings file (issue 22): `"hooks":
 * {"BeforeTool": [...]}` with Gemini's matcher (its tool name) and its answer
 * shape `{"decision": "deny", "reason": …}` blocks the call under `acai -p`
 * as a `before_tool` hook; a name neither Gemini CLI nor acai has still
 * refuses the file, naming it and the nearest name.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";

let dirs: AcaiDirs | undefined;
afterEach(async () => {
  await dirs?.cleanup();
  dirs = undefined;
});

const DENY = `cat > /dev/null; echo '{"decision":"deny","reason":"gemini policy: no shell"}'`;

async function setUp(d: AcaiDirs, hooks: Record<string, unknown>): Promise<string> {
  const file = path.join(d.acaiHome, "settings.json");
  await writeFile(file, JSON.stringify({ model: "replay:replay.json", hooks }));
  const turns = [
    { tool_calls: [{ name: "Bash", input: { command: "echo ran > ran.txt" } }] },
    { text: "done" },
  ];
  await writeFile(path.join(d.cwd, "replay.json"), JSON.stringify({ turns }));
  return file;
}

const go = (d: AcaiDirs) =>
  runAcai({ args: ["-p", "go", "--model", "replay:replay.json", "--yes"], dirs: d });
const ran = (d: AcaiDirs) =>
  readFile(path.join(d.cwd, "ran.txt"), "utf8").then(
    () => true,
    () => false,
  );

describe("Gemini CLI's event names in settings", () => {
  it("a BeforeTool hook answering Gemini's deny blocks the call", async () => {
    const d = await makeAcaiDirs("acai-gemini-names-");
    dirs = d;
    await setUp(d, {
      BeforeTool: [{ matcher: "run_shell_command", hooks: [{ type: "command", command: DENY }] }],
    });
    const run = await go(d);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await ran(d)).toBe(false);
    expect(run.stderr).toContain("gemini policy: no shell");

    const list = await runAcai({ args: ["hooks", "list", "--json"], dirs: d });
    expect(list.exitCode, list.stderr).toBe(0);
    expect(list.stdout).toContain('"before_tool"');
  });

  it("the same hook under AfterTool runs after the call, so the call ran (the block above is BeforeTool's)", async () => {
    const d = await makeAcaiDirs("acai-gemini-names-");
    dirs = d;
    await setUp(d, {
      AfterTool: [{ matcher: "run_shell_command", hooks: [{ type: "command", command: DENY }] }],
    });
    const run = await go(d);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await ran(d)).toBe(true);
  });

  it("a name neither has is refused, naming the file and the nearest name", async () => {
    const d = await makeAcaiDirs("acai-gemini-names-");
    dirs = d;
    const file = await setUp(d, {
      BeforeTools: [{ hooks: [{ type: "command", command: DENY }] }],
    });
    const run = await go(d);
    expect(run.exitCode).not.toBe(0);
    expect(run.stderr).toContain(file);
    expect(run.stderr).toContain('"hooks.BeforeTools" is not an event acai knows');
    expect(run.stderr).toContain('Did you mean "BeforeTool"?');
    expect(await ran(d)).toBe(false);
  });
});
