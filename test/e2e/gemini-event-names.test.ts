/**
 * Gemini CLI's event names in a settings file (issue 22): `"hooks":
 * {"BeforeTool": [...]}` with Gemini's matcher (its tool name) and its answer
 * shape `{"decision": "deny", "reason": …}` blocks the call under `acai -p`
 * as a `before_tool` hook; a name neither Gemini CLI nor acai has still
 * refuses the file, naming it and the nearest name. A hook under a Gemini
 * name receives Gemini CLI's payload: `hook_event_name` as Gemini writes it,
 * Gemini's tool names, AfterTool's `tool_response` {llmContent,
 * returnDisplay}, AfterAgent's `prompt_response`, `model` messages in
 * `llm_request` — while the same hook under Claude Code's name gets Claude
 * Code's. A BeforeToolSelection hook that denies blocks (acai keeps its
 * stronger before_model gate; Gemini CLI ignores the decision there).
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

  it("hooks under Gemini's names receive Gemini CLI's payload; under Claude Code's, Claude Code's", async () => {
    const d = await makeAcaiDirs("acai-gemini-payload-");
    dirs = d;
    const names = [
      "BeforeAgent",
      "BeforeModel",
      "BeforeToolSelection",
      "AfterModel",
      "BeforeTool",
      "AfterTool",
      "AfterAgent",
      "PreToolUse",
    ];
    const record = (name: string) => [
      {
        sequential: true, // Gemini CLI's group key, accepted
        hooks: [
          {
            type: "command",
            command: `cat >> '${path.join(d.root, name)}.jsonl'; echo >> '${path.join(d.root, name)}.jsonl'`,
          },
        ],
      },
    ];
    await setUp(d, Object.fromEntries(names.map((n) => [n, record(n)])));
    const turns = [
      {
        text: "Running it.",
        tool_calls: [{ name: "Bash", input: { command: "echo ran-output" } }],
      },
      { text: "done" },
    ];
    await writeFile(path.join(d.cwd, "replay.json"), JSON.stringify({ turns }));
    const run = await go(d);
    expect(run.exitCode, run.stderr).toBe(0);
    const seen = async (name: string) =>
      (await readFile(path.join(d.root, `${name}.jsonl`), "utf8"))
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const name of names) {
      const payloads = await seen(name);
      expect(payloads.length, name).toBeGreaterThan(0);
      for (const p of payloads) expect(p.hook_event_name, name).toBe(name);
    }
    const [beforeTool] = await seen("BeforeTool");
    expect(beforeTool).toMatchObject({
      tool_name: "run_shell_command",
      acai_tool_name: "Bash",
      tool_input: { command: "echo ran-output" },
    });
    const [preToolUse] = await seen("PreToolUse");
    expect(preToolUse).toMatchObject({
      tool_name: "Bash",
      tool_input: { command: "echo ran-output" },
    });
    expect(preToolUse?.acai_tool_name).toBeUndefined();
    const [afterTool] = await seen("AfterTool");
    const response = afterTool?.tool_response as { llmContent: string; returnDisplay: string };
    expect(response.llmContent).toContain("ran-output");
    expect(response.returnDisplay).toBe(response.llmContent);
    const [afterAgent] = await seen("AfterAgent");
    expect(afterAgent?.prompt_response).toBe("done");
    const [beforeAgent] = await seen("BeforeAgent");
    expect(beforeAgent?.prompt).toBe("go");
    // The second model request carries the model's first text, as Gemini's role "model".
    for (const name of ["BeforeModel", "BeforeToolSelection"]) {
      const second = (await seen(name))[1]?.llm_request as {
        messages: { role: string; content: string }[];
      };
      expect(second.messages, name).toContainEqual({ role: "model", content: "Running it." });
      expect(
        second.messages.map((m) => m.role),
        name,
      ).not.toContain("assistant");
    }
    const [afterModel] = await seen("AfterModel");
    expect(afterModel?.llm_response).toMatchObject({
      candidates: [{ content: { role: "model", parts: ["Running it."] } }],
    });
  });

  it("a BeforeToolSelection hook that denies ends the turn (acai's before_model gate, stronger than Gemini's)", async () => {
    const d = await makeAcaiDirs("acai-gemini-names-");
    dirs = d;
    await setUp(d, { BeforeToolSelection: [{ hooks: [{ type: "command", command: DENY }] }] });
    const run = await go(d);
    expect(run.stderr).toContain("gemini policy: no shell");
    expect(await ran(d)).toBe(false);
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
