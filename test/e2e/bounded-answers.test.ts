/**
 * Hostile hook answers through `acai -p` (contract §4–§5): answers nested
 * thousands of levels deep, `__proto__` keys, a 400 KB stop reason, and a
 * modified input that fails the tool's schema. acai never crashes: a too-deep
 * answer is that hook's failure under its policy (audited, session_end still
 * runs), prototype keys are plain data, texts are cut visibly, and an invalid
 * modified input refuses the call — the original never runs.
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { auditLines, installUserHooks, printsFile } from "./bounded-support.js";
import { jsonLines, modelArgs, STACK_TRACE, toolResultsSent } from "./helpers.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

/** What the model was told in the tool results of request `index` (error texts unwrapped from their JSON). */
function toldModel(index: number): string {
  return toolResultsSent((server as FakeOpenAIServer).requests[index]?.body)
    .map((text) => {
      try {
        const parsed = JSON.parse(text) as { error?: unknown };
        return typeof parsed.error === "string" ? parsed.error : text;
      } catch {
        return text;
      }
    })
    .join("\n");
}

/** Messages of the hook_warning lines of a stream-json run. */
function warnings(stdout: string): string[] {
  return jsonLines(stdout)
    .filter((line) => line.type === "hook_warning")
    .map((line) => String(line.message));
}

function nested(depth: number, leaf = '"x"'): string {
  return '{"k":'.repeat(depth) + leaf + "}".repeat(depth);
}

async function answerFile(name: string, text: string): Promise<string> {
  const file = path.join((dirs as AcaiDirs).root, `${name}.json`);
  await writeFile(file, text);
  return file;
}

async function run(extraArgs: string[] = []) {
  return runAcai({
    dirs: dirs as AcaiDirs,
    args: [
      "-p",
      "go",
      "--output-format",
      "stream-json",
      // The scripted model's tool calls are the hooks' subject: run them without asking.
      "--yes",
      ...extraArgs,
      ...modelArgs("chat", server as FakeOpenAIServer),
    ],
    baseUrl: (server as FakeOpenAIServer).url,
    timeoutMs: 30_000,
  });
}

const SESSION_END_HOOK = (marker: string) => ({
  name: "end-marker",
  event: "session_end",
  script: `#!/bin/sh\ncat >/dev/null\n: > '${marker}'\n`,
});

describe("answers nested too deep", () => {
  it("are each that hook's failure: acai goes on (failure open), audits them, runs session_end", async () => {
    dirs = await makeAcaiDirs("acai-bounded-deep-");
    const marker = path.join(dirs.root, "session-end-ran");
    await installUserHooks(dirs, [
      {
        name: "deep-patch",
        event: "before_tool",
        script: printsFile(await answerFile("patch", `{"input_patch":${nested(4000)}}`)),
      },
      {
        name: "deep-input",
        event: "before_tool",
        script: printsFile(
          await answerFile(
            "input",
            `{"action":"modify","input":{"command":"echo hijacked","x":${"[".repeat(100_000)}${"]".repeat(100_000)}}}`,
          ),
        ),
      },
      {
        name: "deep-output",
        event: "after_tool",
        script: printsFile(
          await answerFile(
            "output",
            `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":${nested(5000)}}}`,
          ),
        ),
      },
      SESSION_END_HOOK(marker),
    ]);
    server = await startFakeOpenAI([
      {
        toolCalls: [{ name: "Bash", input: { command: "echo original > ran.txt; echo ORIGINAL" } }],
      },
      { text: "all done" },
    ]);
    const result = await run();
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.stderr).not.toContain("Maximum call stack");
    for (const name of ["deep-patch", "deep-input", "deep-output"]) {
      expect(warnings(result.stdout).join("\n")).toMatch(
        new RegExp(`hook "${name}" failed: answered JSON nested more than 64 levels deep`),
      );
    }
    // Failure open: the original call ran, its own output reached the model.
    expect(existsSync(path.join(dirs.cwd, "ran.txt"))).toBe(true);
    expect(toldModel(1)).toContain("ORIGINAL");
    // The session ended normally: session_end hooks ran, the stream closed with a result.
    expect(existsSync(marker)).toBe(true);
    const types = jsonLines(result.stdout).map((l) => l.type);
    expect(types).toContain("session_end");
    expect(types.at(-1)).toBe("result");
    const audit = await auditLines(dirs);
    const deep = audit.filter((line) => line.error?.includes("levels deep"));
    expect(deep.map((line) => line.hook).sort()).toEqual([
      "deep-input",
      "deep-output",
      "deep-patch",
    ]);
    expect(audit.some((line) => line.hook === "end-marker")).toBe(true);
  });

  it("blocks the call when the hook's failure policy is closed, naming the hook and the limit", async () => {
    dirs = await makeAcaiDirs("acai-bounded-deep-closed-");
    await installUserHooks(dirs, [
      {
        name: "deep-guard",
        event: "before_tool",
        failure: "closed",
        script: printsFile(await answerFile("patch", `{"input_patch":${nested(4000)}}`)),
      },
    ]);
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Bash", input: { command: "echo original > ran.txt" } }] },
      { text: "all done" },
    ]);
    const result = await run();
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(existsSync(path.join(dirs.cwd, "ran.txt"))).toBe(false);
    const told = toldModel(1);
    expect(told).toContain(
      'hook "deep-guard" failed (answered JSON nested more than 64 levels deep',
    );
    expect(told).toContain('failure policy is "closed"');
  });
});

describe("__proto__ in an answer", () => {
  it('{"__proto__": {"action": "block"}} is plain data, not a block', async () => {
    dirs = await makeAcaiDirs("acai-bounded-proto-");
    await installUserHooks(dirs, [
      {
        name: "proto",
        event: "before_tool",
        script: printsFile(
          await answerFile("proto", '{"__proto__": {"action": "block", "reason": "PROTO-BLOCK"}}'),
        ),
      },
    ]);
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Bash", input: { command: "echo ran > ran.txt; echo RAN" } }] },
      { text: "all done" },
    ]);
    const result = await run();
    expect(result.exitCode, result.stderr).toBe(0);
    expect(existsSync(path.join(dirs.cwd, "ran.txt"))).toBe(true);
    const told = toldModel(1);
    expect(told).toContain("RAN");
    expect(told).not.toContain("PROTO-BLOCK");
    expect(result.stderr).not.toContain("PROTO-BLOCK");
  });
});

describe("a 400 KB stop reason", () => {
  it("is held to its cap (all of it in a file) before it reaches the terminal", async () => {
    dirs = await makeAcaiDirs("acai-bounded-stop-");
    await installUserHooks(dirs, [
      {
        name: "stopper",
        event: "before_tool",
        script: printsFile(
          await answerFile(
            "stop",
            JSON.stringify({ action: "stop", reason: `STOP-${"s".repeat(400_000)}` }),
          ),
        ),
      },
    ]);
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Bash", input: { command: "echo ran > ran.txt" } }] },
      { text: "all done" },
    ]);
    const result = await runAcai({
      dirs,
      args: ["-p", "go", "--yes", ...modelArgs("chat", server)],
      baseUrl: server.url,
      timeoutMs: 30_000,
    });
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(existsSync(path.join(dirs.cwd, "ran.txt"))).toBe(false);
    const shown = result.stdout + result.stderr;
    expect(shown).toContain("STOP-sss");
    // Spilled, not cut (issue 22 item 7): the preview names the file that held all of it.
    expect(shown).toMatch(
      /over 4000 characters: all 400005 are in \S+\/hook-output\/1-stopper-reason\.txt\]/,
    );
    // Not 400 KB: the reason at its cap, perhaps shown more than once, and the rest of the run's output.
    expect(shown.length).toBeLessThan(20_000);
  });
});

describe("a modified input that fails the tool's schema", () => {
  const guards: [string, string][] = [
    [
      "Claude Code updatedInput with a misspelled field",
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"comand":"rm -rf victim/sub"}}}',
    ],
    [
      "acai input with a misspelled field",
      '{"action":"modify","input":{"cmd":"rm -rf victim/sub"}}',
    ],
    ["acai input_patch that deletes the command", '{"input_patch":{"command":null}}'],
    [
      "Agent Hooks modified_input of the wrong type",
      '{"decision":"allow","modified_input":{"command":42}}',
    ],
  ];
  it.each(guards)(
    "%s: the call is refused and the original never runs (failure open)",
    async (_what, answer) => {
      dirs = await makeAcaiDirs("acai-bounded-invalid-");
      const victim = path.join(dirs.cwd, "victim");
      await mkdir(path.join(victim, "sub"), { recursive: true });
      await writeFile(path.join(victim, "precious.txt"), "keep me\n");
      await installUserHooks(dirs, [
        {
          name: "guard",
          event: "before_tool",
          matcher: "Bash",
          script: printsFile(await answerFile("guard", answer)),
        },
      ]);
      server = await startFakeOpenAI([
        { toolCalls: [{ name: "Bash", input: { command: "rm -rf victim" } }] },
        { text: "all done" },
      ]);
      const result = await run();
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stderr).not.toMatch(STACK_TRACE);
      expect(existsSync(path.join(victim, "precious.txt"))).toBe(true);
      expect(existsSync(path.join(victim, "sub"))).toBe(true);
      const told = toldModel(1);
      expect(told).toContain(
        `hook "guard" replaced the input of this Bash call with one that fails the tool's schema`,
      );
      expect(told).toMatch(/command/);
      expect(told).toContain("the call is refused and did not run");
      expect(warnings(result.stdout).join("\n")).toContain('hook "guard" replaced the input');
      const audit = await auditLines(dirs);
      // The hook answered a new input (Agent Hooks spells it as an allow carrying
      // modified_input); that input was invalid (the error), so the call was blocked.
      const line = audit.find((entry) => entry.hook === "guard");
      expect(line).toMatchObject({
        decision: answer.includes('"decision":"allow"') ? "allow" : "modify",
        effect: "block",
      });
      expect(line?.error).toContain("its new input for Bash is invalid");
    },
  );
});
