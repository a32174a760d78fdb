/**
 * Every row of the contract's event table (§2) and every action of §4, end to
 * end through `acai -p` against the scripted model server, for each of the
 * three hook sources (executables, HOOK.md folders, settings).
 * `notification` fires here for the hook's `ask` (the idle prompt is the
 * REPL's alone).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs, STACK_TRACE, toolResultsSent } from "./helpers.js";
import { installHooks, SOURCE_KINDS, type SourceKind } from "./hooks-support.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

const ALL_EVENTS = [
  "session_start",
  "user_prompt",
  "before_model",
  "after_model",
  "before_tool",
  "after_tool",
  "after_tool_failure",
  "before_stop",
  "after_agent",
  "notification",
  "session_end",
];

/** One script that records every payload and answers by event and content. */
const MAIN = String.raw`#!/usr/bin/env bash
input=$(cat)
printf '%s\n' "$input" >> "$HOOK_E2E_DIR/payloads.jsonl"
# HOOK.md hooks get Python's json.dumps text ("key": value); the matches below are written compact.
input=$(printf '%s' "$input" | sed -e 's/": /":/g')
re='"event":"([a-z_]+)"'
[[ "$input" =~ $re ]] && ev="${"$"}{BASH_REMATCH[1]}"
case "$ev" in
  session_start) echo "SESSION-CONTEXT from a plain line" ;;
  user_prompt)
    if [[ "$input" == *STOP-NOW* ]]; then echo '{"action":"stop","reason":"STOP-REASON"}'; exit 0; fi
    if [[ "$input" == *BLOCK-PROMPT* ]]; then echo "PROMPT-BLOCKED" >&2; exit 2; fi
    echo '{"action":"modify","prompt":"PROMPT-NEW","context":"CTX-PROMPT","message":"MSG-PROMPT","log":"LOG-PROMPT"}' ;;
  before_model)
    if [ ! -e "$HOOK_E2E_DIR/retried" ]; then : > "$HOOK_E2E_DIR/retried"; echo '{"action":"retry","retry_after_ms":50}'; fi ;;
  before_tool)
    case "$input" in
      *patch-me*) echo '{"action":"modify","input_patch":{"command":"echo patched"}}' ;;
      *replace-me*) echo '{"decision":"allow","modified_input":{"command":"echo replaced"}}' ;;
      *block-me*) echo "BLOCKED-REASON" >&2; exit 2 ;;
      *deny-me*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"CLAUDE-DENY"}}' ;;
      *ask-me*) echo '{"action":"ask","reason":"ASK-REASON"}' ;;
      *skip-me*) echo '{"action":"block","reason":"SHOULD-NOT-SEE"}' ;;
    esac ;;
  after_tool)
    if [[ "$input" == *patched* ]]; then echo '{"action":"modify","output":"OUTPUT-REPLACED"}'; fi
    if [[ "$input" == *replaced* ]]; then echo '{"action":"block","reason":"AFTER-BLOCK"}'; fi ;;
  after_tool_failure) echo '{"context":"FAILURE-SEEN"}' ;;
  before_stop)
    if [[ "$input" == *'"stop_hook_active":false'* ]]; then echo '{"action":"block","reason":"STOP-GATE"}'; fi ;;
esac
exit 0
`;

const SKIPPER = `#!/usr/bin/env bash
input=$(cat)
if [[ "$input" == *skip-me* ]]; then echo '{"action":"skip"}'; fi
`;

/** Blocks the event named in $HOOK_E2E_DIR/mode (session_start, before_model, after_model). */
const GATES = `#!/usr/bin/env bash
input=$(cat)
# HOOK.md hooks get Python's json.dumps text ("key": value); the matches below are written compact.
input=$(printf '%s' "$input" | sed -e 's/": /":/g')
mode=$(cat "$HOOK_E2E_DIR/mode" 2>/dev/null)
if [ -n "$mode" ] && [[ "$input" == *'"event":"'"$mode"'"'* ]]; then echo "GATE-$mode" >&2; exit 2; fi
exit 0
`;

async function setup(kind: SourceKind): Promise<AcaiDirs> {
  const d = await makeAcaiDirs("acai-hooks-e2e-");
  await installHooks(d, kind, [
    { name: "main", events: ALL_EVENTS, script: MAIN },
    {
      name: "gates",
      events: ["session_start", "before_model", "after_model"],
      script: GATES,
      priority: 600,
    },
    {
      name: "skipper",
      events: ["before_tool"],
      script: SKIPPER,
      priority: 500,
      matcher: { tool: "Bash" },
    },
  ]);
  return d;
}

function run(d: AcaiDirs, prompt: string, s: FakeOpenAIServer, extra: string[] = []) {
  return runAcai({
    dirs: d,
    args: ["-p", prompt, "--trust-project-hooks", ...extra, ...modelArgs("chat", s)],
    baseUrl: s.url,
    env: { HOOK_E2E_DIR: d.root },
    timeoutMs: 30_000,
  });
}

async function payloads(d: AcaiDirs): Promise<Record<string, unknown>[]> {
  const text = await readFile(path.join(d.root, "payloads.jsonl"), "utf8");
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const bash = (command: string) => ({ toolCalls: [{ name: "Bash", input: { command } }] });

describe.each(SOURCE_KINDS)("hooks from %s sources, through acai -p", (kind) => {
  it("fire on every event with its payload, and every action of the answer takes effect", async () => {
    dirs = await setup(kind);
    server = await startFakeOpenAI([
      bash("echo patch-me"),
      bash("echo replace-me"),
      bash("echo block-me"),
      bash("echo deny-me"),
      bash("echo ask-me"),
      bash("echo skip-me"),
      { text: "final one" },
      { text: "final two" },
    ]);
    // echo runs without asking; the hook's ask still asks (and acai -p denies it).
    const result = await run(dirs, "PROMPT-ORIG", server, ["--allowedTools", "Bash(echo:*)"]);
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain("final two");

    const sent = server.requests.map((r) => JSON.stringify(r.body));
    expect(sent).toHaveLength(8); // the retry happened before the first request was sent
    // session_start plain stdout and user_prompt context reach the model; the prompt was replaced.
    expect(sent[0]).toContain("SESSION-CONTEXT from a plain line");
    expect(sent[0]).toContain("CTX-PROMPT");
    expect(sent[0]).toContain("PROMPT-NEW");
    expect(sent[0]).not.toContain("PROMPT-ORIG");
    const results = (i: number) => toolResultsSent(server?.requests[i]?.body).at(-1) ?? "";
    expect(results(1)).toContain("OUTPUT-REPLACED"); // input_patch ran `echo patched`, after_tool replaced the output
    expect(results(2)).toContain("replaced"); // Agent Hooks modified_input replaced the whole input
    expect(results(2)).toContain("AFTER-BLOCK"); // after_tool block: reason beside the result
    expect(results(3)).toContain("BLOCKED-REASON"); // exit 2 + stderr
    expect(results(4)).toContain("CLAUDE-DENY"); // Claude Code permissionDecision deny
    expect(results(5)).toMatch(/Permission denied:.*ASK-REASON/); // ask, headless: denied
    expect(results(6)).toContain("skip-me"); // skip: the blocker after the skipper never ran
    expect(sent[6]).not.toContain("SHOULD-NOT-SEE");
    expect(sent[4]).toContain("FAILURE-SEEN"); // after_tool_failure context (the block of request 3)
    expect(sent[7]).toContain("STOP-GATE"); // before_stop block became a user message

    const seen = await payloads(dirs);
    const byEvent = (event: string) => seen.filter((p) => p.event === event);
    for (const event of ALL_EVENTS) {
      expect(byEvent(event).length, `${event} reached the hook`).toBeGreaterThan(0);
    }
    expect(byEvent("notification")[0]).toMatchObject({
      notification_type: "permission_prompt",
      message: expect.stringContaining("ASK-REASON"),
    });
    const dialectName = kind === "hook_md" ? "event_type" : "hook_event_name";
    expect(byEvent("before_tool")[0]).toMatchObject({
      // HOOK.md: the spelling of its trigger (hooks-support writes `trigger: before_tool`).
      [dialectName]: kind === "hook_md" ? "before_tool" : "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "echo patch-me" },
    });
    expect(byEvent("session_start")[0]).toMatchObject({ source: "startup" });
    expect(byEvent("user_prompt")[0]).toMatchObject({ prompt: "PROMPT-ORIG" });
    expect(byEvent("before_model")[0]).toMatchObject({
      step: expect.any(Number),
      model: expect.any(String),
    });
    expect(byEvent("after_model")[0]).toMatchObject({
      finish_reason: expect.any(String),
      usage: expect.any(Object),
      tool_calls: [expect.objectContaining({ tool_name: "Bash" })],
    });
    expect(byEvent("after_tool")[0]).toMatchObject({
      tool_input: { command: "echo patched" },
      tool_response: { stdout: "patched\n", exit_code: 0, interrupted: false },
    });
    expect(byEvent("after_tool_failure")[0]).toMatchObject({
      is_interrupt: false,
      error: expect.stringContaining("BLOCKED-REASON"),
    });
    expect(byEvent("before_stop").map((p) => p.stop_hook_active)).toEqual([false, true]);
    expect(byEvent("after_agent")[0]).toMatchObject({ stop_reason: "end_turn" });
    if (kind === "hook_md") {
      // The Agent Hooks extras of before_stop and after_agent: one model request per step.
      const steps = server.requests.length;
      expect(byEvent("before_stop").at(-1)).toMatchObject({ step_count: steps });
      expect(byEvent("after_agent")[0]).toMatchObject({
        stop_reason: "end_turn",
        step_count: steps,
        final_message: { role: "assistant", content: expect.any(String) },
      });
    }
    expect(byEvent("session_end")[0]).toMatchObject(
      kind === "hook_md" ? { exit_reason: "completed" } : { reason: "completed" },
    );
    if (kind !== "hook_md") {
      for (const p of seen)
        expect(p).toMatchObject({
          session_id: expect.any(String),
          transcript_path: expect.any(String),
          cwd: dirs.cwd,
          timestamp: expect.any(String),
        });
    } else {
      for (const p of seen)
        expect(p).toMatchObject({ session_id: expect.any(String), work_dir: dirs.cwd });
    }

    // The audit log recorded the retry and the log note.
    const audit = await readFile(path.join(dirs.acaiHome, "logs", "hooks-audit.jsonl"), "utf8");
    expect(audit).toContain('"decision":"retry"');
    expect(audit).toContain("LOG-PROMPT");
  });

  it("block on user_prompt and stop end the run with exit 3 and the reason, before any model request", async () => {
    dirs = await setup(kind);
    server = await startFakeOpenAI([{ text: "never" }]);
    const stopped = await run(dirs, "please STOP-NOW", server);
    expect(stopped.exitCode).toBe(3);
    expect(stopped.stdout + stopped.stderr).toContain("STOP-REASON");
    const blocked = await run(dirs, "BLOCK-PROMPT please", server);
    expect(blocked.exitCode).toBe(3);
    expect(blocked.stdout + blocked.stderr).toContain("PROMPT-BLOCKED");
    expect(server.requests).toHaveLength(0);
  });

  it("block on session_start refuses to start; on before_model and after_model it ends the turn", async () => {
    dirs = await setup(kind);
    const { writeFile } = await import("node:fs/promises");
    const expected = { session_start: 0, before_model: 0, after_model: 1 } as const;
    for (const [mode, requests] of Object.entries(expected)) {
      await writeFile(path.join(dirs.root, "mode"), mode);
      server = await startFakeOpenAI([bash("echo never-run"), { text: "never" }]);
      const result = await run(dirs, "hello", server, ["--yes"]);
      expect(result.exitCode, `${mode}: ${result.stderr}`).toBe(3);
      expect(result.stdout + result.stderr).toContain(`GATE-${mode}`);
      expect(server.requests, mode).toHaveLength(requests);
      await server.close();
      server = undefined;
    }
  });
});
