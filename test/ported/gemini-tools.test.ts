/**
 * Gemini CLI's own BeforeTool / AfterTool scenarios
 * (integration-tests/hooks-system.test.ts), ported to `acai -p`: the hooks
 * are written as Gemini's users write them — a settings.json with Gemini's
 * event names, `sequential` groups, Gemini's tool names as matchers and
 * `node "script.cjs"` commands printing Gemini's answers. SCENARIOS.md maps
 * each Gemini test to the test here.
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { toolResultsSent } from "../e2e/helpers.js";
import { geminiGroup, type Ported, ported } from "./ported-support.js";

let p: Ported | undefined;
afterEach(async () => {
  await p?.cleanup();
  p = undefined;
});

const read = (file: string) => readFile(file, "utf8").catch(() => undefined);
const WRITE = { name: "Write", input: { file_path: "test.txt", content: "Hello World" } };

async function writeTurn(prefix: string) {
  p = await ported(prefix, [{ toolCalls: [{ ...WRITE, id: "call_w" }] }, { text: "all done" }]);
  return p;
}

describe("Gemini CLI: BeforeTool blocking", () => {
  it("a {decision: 'block'} answer keeps write_file from running and the model gets the reason", async () => {
    const t = await writeTurn("gemini-block-");
    const hook = await t.node(
      "block",
      "console.log(JSON.stringify({decision: 'block', reason: 'File writing blocked by security policy'}));",
    );
    await t.settings({ hooks: { BeforeTool: [geminiGroup([hook], "write_file")] } });
    const run = await t.run('Create a file called test.txt with content "Hello World"');
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await read(path.join(t.dirs.cwd, "test.txt"))).toBeUndefined();
    expect(run.stderr).toContain("File writing blocked by security policy");
    expect(toolResultsSent(t.server.requests[1]?.body).join("\n")).toContain(
      "File writing blocked by security policy",
    );
    expect(await t.payloads("block")).toHaveLength(1);
  });

  it("exit code 2 blocks with stderr as the reason", async () => {
    const t = await writeTurn("gemini-exit2-");
    const hook = await t.node(
      "stderr",
      "process.stderr.write('File writing blocked by security policy'); process.exit(2);",
    );
    await t.settings({ hooks: { BeforeTool: [geminiGroup([hook], "write_file")] } });
    const run = await t.run("Create test.txt");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await read(path.join(t.dirs.cwd, "test.txt"))).toBeUndefined();
    expect(toolResultsSent(t.server.requests[1]?.body).join("\n")).toContain(
      "File writing blocked by security policy",
    );
  });

  it("{decision: 'allow'} lets write_file run", async () => {
    p = await ported("gemini-allow-", [
      {
        toolCalls: [
          { name: "Write", input: { file_path: "approved.txt", content: "Approved content" } },
        ],
      },
      { text: "written" },
    ]);
    const hook = await p.node(
      "allow",
      "console.log(JSON.stringify({decision: 'allow', reason: 'File writing approved'}));",
    );
    await p.settings({ hooks: { BeforeTool: [geminiGroup([hook], "write_file")] } });
    const run = await p.run("Create approved.txt");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await read(path.join(p.dirs.cwd, "approved.txt"))).toBe("Approved content");
    const [payload] = await p.payloads("allow");
    expect(payload).toMatchObject({
      hook_event_name: "BeforeTool",
      tool_name: "write_file",
      tool_input: { file_path: "approved.txt" },
    });
  });

  it("the payload has session_id, cwd, hook_event_name, timestamp, tool_name and tool_input (the hook allows only then)", async () => {
    const t = await writeTurn("gemini-input-");
    const hook = await t.node(
      "validate",
      `const ok = payload.session_id && payload.cwd && payload.hook_event_name && payload.timestamp && payload.tool_name && payload.tool_input;
console.log(JSON.stringify(ok ? {decision: "allow", reason: "Input format is correct"} : {decision: "block", reason: "Input format is invalid"}));`,
    );
    await t.settings({ hooks: { BeforeTool: [geminiGroup([hook], "write_file")] } });
    const run = await t.run("Create test.txt");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).not.toContain("Input format is invalid");
    expect(await read(path.join(t.dirs.cwd, "test.txt"))).toBe("Hello World");
  });

  it("a hook printing text before its JSON does not block: the call runs and the text is kept, not obeyed", async () => {
    const t = await writeTurn("gemini-mixed-");
    const hook = await t.node(
      "mixed",
      "console.log('Pollution'); console.log(JSON.stringify({decision: 'deny', reason: 'Should be ignored'}));",
    );
    await t.settings({ hooks: { BeforeTool: [geminiGroup([hook], "write_file")] } });
    const run = await t.run("Create test.txt");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await read(path.join(t.dirs.cwd, "test.txt"))).toBe("Hello World");
    const audit = await read(path.join(t.dirs.acaiHome, "logs", "hooks-audit.jsonl"));
    expect(audit).toContain("Pollution");
  });

  it("a failing hook (exit 1) beside a working one: the call still runs (fail open, with a warning)", async () => {
    const t = await writeTurn("gemini-failing-");
    const failing = await t.node("failing", "process.exit(1);");
    const working = await t.node(
      "working",
      "console.log(JSON.stringify({decision: 'allow', reason: 'Working hook succeeded'}));",
    );
    await t.settings({ hooks: { BeforeTool: [geminiGroup([failing, working], "write_file")] } });
    const run = await t.run("Create test.txt");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await read(path.join(t.dirs.cwd, "test.txt"))).toBe("Hello World");
    expect(run.stderr).toMatch(/failing/);
    expect(await t.payloads("working")).toHaveLength(1);
  });
});

describe("Gemini CLI: BeforeTool changes and stops", () => {
  it("hookSpecificOutput.tool_input overrides the tool's parameters", async () => {
    p = await ported("gemini-override-", [
      {
        toolCalls: [
          { name: "Write", input: { file_path: "original.txt", content: "original content" } },
        ],
      },
      { text: "done" },
    ]);
    const answer = {
      decision: "allow",
      hookSpecificOutput: {
        hookEventName: "BeforeTool",
        tool_input: { file_path: "modified.txt", content: "modified content" },
      },
    };
    const hook = await p.node(
      "override",
      `process.stdout.write(JSON.stringify(${JSON.stringify(answer)}));`,
    );
    await p.settings({ hooks: { BeforeTool: [geminiGroup([hook], "write_file")] } });
    const run = await p.run('Create original.txt with "original content"');
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await read(path.join(p.dirs.cwd, "modified.txt"))).toBe("modified content");
    expect(await read(path.join(p.dirs.cwd, "original.txt"))).toBeUndefined();
  });

  it("{continue: false} stops the agent: the call does not run and the reason is shown", async () => {
    const t = await writeTurn("gemini-stop-");
    const answer = {
      continue: false,
      reason: "Emergency Stop triggered by hook",
      hookSpecificOutput: { hookEventName: "BeforeTool" },
    };
    const hook = await t.node("stop", `console.log(JSON.stringify(${JSON.stringify(answer)}));`);
    await t.settings({ hooks: { BeforeTool: [geminiGroup([hook], "write_file")] } });
    const run = await t.run("Use write_file to create test.txt");
    expect(run.exitCode).toBe(3);
    expect(`${run.stdout}${run.stderr}`).toContain("Emergency Stop triggered by hook");
    expect(await read(path.join(t.dirs.cwd, "test.txt"))).toBeUndefined();
    expect(t.server.requests).toHaveLength(1);
  });

  it("{decision: 'ask'} forces the question even in YOLO mode (bypassPermissions); headless, nobody answers, so it is denied", {
    timeout: 60_000,
  }, async () => {
    const turns = [{ toolCalls: [WRITE] }, { text: "done" }];
    const t = await ported("gemini-ask-", [...turns, ...turns]);
    p = t;
    const yolo = { yes: false, extra: ["--permission-mode", "bypassPermissions"] };
    // Control: YOLO alone writes the file without asking.
    const control = await t.run("Create test.txt", yolo);
    expect(control.exitCode, control.stderr).toBe(0);
    expect(await read(path.join(t.dirs.cwd, "test.txt"))).toBe("Hello World");
    await rm(path.join(t.dirs.cwd, "test.txt"));

    const answer = {
      decision: "ask",
      systemMessage: "Confirmation forced by security hook",
      hookSpecificOutput: { hookEventName: "BeforeTool" },
    };
    const hook = await t.node("ask", `console.log(JSON.stringify(${JSON.stringify(answer)}));`);
    await t.settings({ hooks: { BeforeTool: [geminiGroup([hook], "write_file")] } });
    const run = await t.run("Create test.txt", yolo);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain("Confirmation forced by security hook");
    expect(run.stderr).not.toContain("failed");
    expect(await read(path.join(t.dirs.cwd, "test.txt"))).toBeUndefined();
  });
});

describe("Gemini CLI: AfterTool", () => {
  it("additionalContext from an AfterTool hook on read_file reaches the model", async () => {
    p = await ported("gemini-after-ctx-", [
      { toolCalls: [{ name: "Read", input: { file_path: "test-file.txt" } }] },
      { text: "it says hello" },
    ]);
    await writeFile(path.join(p.dirs.cwd, "test-file.txt"), "This is test content");
    const answer = {
      hookSpecificOutput: {
        hookEventName: "AfterTool",
        additionalContext: "Security scan: File content appears safe",
      },
    };
    const hook = await p.node("ctx", `console.log(JSON.stringify(${JSON.stringify(answer)}));`);
    await p.settings({ hooks: { AfterTool: [geminiGroup([hook], "read_file")] } });
    const run = await p.run("Read test-file.txt");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(p.sent(1)).toContain("Security scan: File content appears safe");
    expect(p.sent(1)).toContain("This is test content");
    const [payload] = await p.payloads("ctx");
    expect(payload).toMatchObject({ hook_event_name: "AfterTool", tool_name: "read_file" });
  });

  it("a tailToolCallRequest runs write_file after read_file, and its result replaces the read's", async () => {
    p = await ported("gemini-tail-", [
      { toolCalls: [{ name: "Read", input: { file_path: "original.txt" } }] },
      { text: "Tail call completed successfully." },
    ]);
    await writeFile(path.join(p.dirs.cwd, "original.txt"), "Original content");
    const answer = {
      decision: "allow",
      hookSpecificOutput: {
        hookEventName: "AfterTool",
        tailToolCallRequest: {
          name: "write_file",
          args: { file_path: "tail-called-file.txt", content: "Content from tail call" },
        },
      },
    };
    const hook = await p.node(
      "tail",
      `console.log(JSON.stringify(${JSON.stringify(answer)})); process.exit(0);`,
    );
    await p.settings({ hooks: { AfterTool: [geminiGroup([hook], "read_file")] } });
    const run = await p.run("Read original.txt");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toContain("Tail call completed successfully.");
    expect(await read(path.join(p.dirs.cwd, "tail-called-file.txt"))).toBe(
      "Content from tail call",
    );
    const results = toolResultsSent(p.server.requests[1]?.body).join("\n");
    expect(results).not.toContain("Original content");
  });
});
