/**
 * Claude Code hooks that rely on what Claude Code does around them, run
 * through `acai -p` against the scripted model server as real scripts:
 * - a session_start hook writing `export FOO=bar` to `CLAUDE_ENV_FILE` (the
 *   Bash tool then sees FOO, and the model gets its output); in the sandbox,
 *   the hook shares the one spawner of the other hooks, which cannot write
 *   the file (decision 0069);
 * - a formatter after Write (the model is told the file changed, with the new lines).
 */
import { chmod, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { containmentInForce, findBwrap } from "../../source/process/bwrap.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs, toolResultsSent } from "./helpers.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

async function script(file: string, text: string): Promise<string> {
  await writeFile(file, text);
  await chmod(file, 0o755);
  return file;
}

/** User settings (trusted, no review) with Claude Code's shape. */
async function userSettings(d: AcaiDirs, hooks: Record<string, unknown>): Promise<void> {
  await writeFile(path.join(d.acaiHome, "settings.json"), JSON.stringify({ hooks }));
}

/** As in Claude Code's plugin examples: `set -u`, so a missing CLAUDE_ENV_FILE is fatal. */
const ENV_HOOK = `#!/usr/bin/env bash
set -euo pipefail
cat > /dev/null
echo 'export FOO=bar' >> "$CLAUDE_ENV_FILE"
echo 'export GREETING="hello world"  # a comment' >> "$CLAUDE_ENV_FILE"
echo 'export PATH="$HOME/acai-test-bin:$PATH"' >> "$CLAUDE_ENV_FILE"
echo 'export NOPE=$(touch "$HOME/ran")' >> "$CLAUDE_ENV_FILE"
stat -c %a "$CLAUDE_ENV_FILE" > "$HOME/env-file-mode"
`;

/** A user_prompt hook trying every session env file acai keeps: none may be written from its sandbox. */
const WRITE_OTHERS = `#!/usr/bin/env bash
cat > /dev/null
for f in "$ACAI_HOME"/session-env/*/*; do
  if echo 'export EVIL=1' >> "$f" 2>/dev/null; then echo "wrote $f"; else echo "refused $f"; fi
done > "$HOME/prompt-hook"
`;

const bwrap = findBwrap();

describe("CLAUDE_ENV_FILE", () => {
  it("a session_start hook's exports reach the Bash tool, and its output reaches the model", async () => {
    const d = await makeAcaiDirs("acai-env-file-");
    dirs = d;
    const hook = await script(path.join(d.root, "env-hook.sh"), ENV_HOOK);
    // Another event's hook does not get the variable.
    const probe = await script(
      path.join(d.root, "probe.sh"),
      `#!/bin/sh\ncat > /dev/null\necho "\${CLAUDE_ENV_FILE-unset}" > "$HOME/probe"\n`,
    );
    await userSettings(d, {
      SessionStart: [{ hooks: [{ type: "command", command: hook }] }],
      UserPromptSubmit: [{ hooks: [{ type: "command", command: probe }] }],
    });
    const srv = await startFakeOpenAI([
      {
        toolCalls: [
          // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax
          { name: "Bash", input: { command: 'echo "FOO=$FOO; $GREETING; ${PATH%%:*}; [$NOPE]"' } },
        ],
      },
      { text: "done" },
    ]);
    server = srv;
    const result = await runAcai({
      args: ["-p", "go", "--yes", ...modelArgs("chat", srv)],
      dirs: d,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const sent = toolResultsSent(srv.requests[1]?.body);
    expect(sent.join("\n")).toContain(`FOO=bar; hello world; ${d.home}/acai-test-bin; []`);
    // The $(…) line was not run, and the user was told it was skipped.
    await expect(stat(path.join(d.home, "ran"))).rejects.toThrow();
    expect(result.stderr).toMatch(/CLAUDE_ENV_FILE .* line 4 skipped \(\$\(…\) runs a command/);
    expect((await readFile(path.join(d.home, "env-file-mode"), "utf8")).trim()).toBe("600");
    expect((await readFile(path.join(d.home, "probe"), "utf8")).trim()).toBe("unset");
  });

  it.skipIf(containmentInForce().kind !== "namespace" || bwrap === undefined)(
    "in the sandbox: kept in the hooks' one spawner (0069), and no other hook can write it",
    async () => {
      const d = await makeAcaiDirs("acai-kept-env-");
      dirs = d;
      // A bwrap that logs the last argument of what it runs (`true`: the probe), first on PATH.
      const bin = path.join(d.root, "bin");
      await mkdir(bin);
      const log = path.join(d.root, "bwrap.log");
      const logLast = `for a; do last=$a; done\necho "$last" >> '${log}'`;
      await script(path.join(bin, "bwrap"), `#!/bin/sh\n${logLast}\nexec '${bwrap}' "$@"\n`);
      const hook = await script(path.join(d.root, "env-hook.sh"), ENV_HOOK);
      const prompt = await script(path.join(d.root, "prompt-hook.sh"), WRITE_OTHERS);
      await userSettings(d, {
        SessionStart: [{ hooks: [{ type: "command", command: hook }] }],
        UserPromptSubmit: [{ hooks: [{ type: "command", command: prompt }] }],
      });
      const srv = await startFakeOpenAI([
        { toolCalls: [{ name: "Bash", input: { command: 'echo "FOO=$FOO EVIL=$EVIL."' } }] },
        { text: "done" },
      ]);
      server = srv;
      const result = await runAcai({
        args: ["-p", "go", "--yes", ...modelArgs("chat", srv)],
        dirs: d,
        env: { PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}` },
      });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(toolResultsSent(srv.requests[1]?.body).join("\n")).toContain("FOO=bar EVIL=.");
      const tried = (await readFile(path.join(d.home, "prompt-hook"), "utf8")).trim();
      expect(tried).toMatch(/^refused .*env-hook-0\.sh$/);
      // The probe, then one spawner for both hooks and the Bash tool.
      const started = (await readFile(log, "utf8")).trim().split("\n");
      expect(started.filter((last) => last !== "true")).toHaveLength(1);
    },
  );
});

/** A formatter: rewrites the file the Write just wrote (as prettier --write would). */
const FORMATTER = `#!/usr/bin/env bash
input=$(cat)
file=$(printf '%s' "$input" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.parse(s).tool_input.file_path))')
sed -i -e 's/  */ /g' -e 's/;$//' "$file"
`;

describe("a formatter after Write", () => {
  it("the model is told the file changed, with the new lines", async () => {
    const d = await makeAcaiDirs("acai-formatter-");
    dirs = d;
    const formatter = await script(path.join(d.root, "format.sh"), FORMATTER);
    await userSettings(d, {
      PostToolUse: [{ matcher: "Write|Edit", hooks: [{ type: "command", command: formatter }] }],
    });
    const srv = await startFakeOpenAI([
      {
        toolCalls: [
          {
            name: "Write",
            input: { file_path: "a.js", content: "let   x = 1;\nlet y  =  2;\n" },
          },
        ],
      },
      { toolCalls: [{ name: "Write", input: { file_path: "b.txt", content: "tidy\n" } }] },
      { text: "done" },
    ]);
    server = srv;
    const result = await runAcai({
      args: ["-p", "go", "--yes", ...modelArgs("chat", srv)],
      dirs: d,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await readFile(path.join(d.cwd, "a.js"), "utf8")).toBe("let x = 1\nlet y = 2\n");
    const first = toolResultsSent(srv.requests[1]?.body).join("\n");
    expect(first).toContain(`${path.join(d.cwd, "a.js")} was changed after your Write`);
    expect(first).toContain("     1\tlet x = 1\n     2\tlet y = 2");
    // A file the formatter left alone: no notice.
    const second = toolResultsSent(srv.requests[2]?.body).at(-1) ?? "";
    expect(second).toContain("b.txt");
    expect(second).not.toContain("was changed after");
  });
});

describe("a before_tool block's text for the model", () => {
  it("a settings hook's exit 2 reads as Claude Code's; a JSON deny and an acai executable keep acai's", async () => {
    const d = await makeAcaiDirs("acai-block-text-");
    dirs = d;
    const guard = await script(
      path.join(d.root, "guard.sh"),
      `#!/usr/bin/env bash
input=$(cat)
case "$input" in
  *exit-two*) echo "no rm here" >&2; exit 2 ;;
  *json-deny*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"denied by policy"}}' ;;
esac
`,
    );
    await userSettings(d, {
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `${guard} --strict` }] }],
    });
    const exe = path.join(d.acaiHome, "hooks", "exe-guard");
    await mkdir(path.dirname(exe), { recursive: true });
    await script(
      exe,
      `#!/usr/bin/env bash
if [ "$HOOK_ACTION" = describe ]; then echo '{"events":["before_tool"]}'; exit 0; fi
input=$(cat)
if [[ "$input" == *exe-block* ]]; then echo "exe says no" >&2; exit 2; fi
`,
    );
    const srv = await startFakeOpenAI([
      {
        toolCalls: [
          { name: "Bash", input: { command: "echo exit-two" } },
          { name: "Bash", input: { command: "echo json-deny" } },
          { name: "Bash", input: { command: "echo exe-block" } },
        ],
      },
      { text: "done" },
    ]);
    server = srv;
    const result = await runAcai({
      args: ["-p", "go", "--yes", ...modelArgs("chat", srv)],
      dirs: d,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    // An error result goes over the chat API as {"error": text}.
    const sent = toolResultsSent(srv.requests[1]?.body).map((s) => JSON.parse(s).error);
    expect(sent).toEqual([
      `PreToolUse:Bash hook error: [${guard} --strict]: no rm here`,
      "Blocked by a hook: denied by policy",
      "Blocked by a hook: exe says no",
    ]);
  });
});

describe("prompt_id", () => {
  it("every event of a turn carries the same prompt_id; session events carry none", async () => {
    const d = await makeAcaiDirs("acai-prompt-id-");
    dirs = d;
    const log = path.join(d.root, "payloads.jsonl");
    const logger = await script(
      path.join(d.root, "log.sh"),
      `#!/bin/sh\ncat >> '${log}'\necho >> '${log}'\n`,
    );
    const entry = [{ hooks: [{ type: "command", command: logger }] }];
    await userSettings(d, {
      SessionStart: entry,
      UserPromptSubmit: entry,
      PreToolUse: entry,
      PostToolUse: entry,
      Stop: entry,
      before_model: entry,
      after_agent: entry,
    });
    const srv = await startFakeOpenAI([
      { toolCalls: [{ name: "Bash", input: { command: "true" } }] },
      { text: "done" },
    ]);
    server = srv;
    const result = await runAcai({
      args: ["-p", "go", "--yes", ...modelArgs("chat", srv)],
      dirs: d,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const payloads = (await readFile(log, "utf8"))
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as { event: string; prompt_id?: string });
    const events = payloads.map((p) => p.event);
    expect(events).toEqual(
      expect.arrayContaining([
        "user_prompt",
        "before_model",
        "before_tool",
        "after_tool",
        "before_stop",
        "after_agent",
      ]),
    );
    const inTurn = payloads.filter((p) => p.event !== "session_start");
    const ids = new Set(inTurn.map((p) => p.prompt_id));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(payloads.find((p) => p.event === "session_start")?.prompt_id).toBeUndefined();
  });
});
