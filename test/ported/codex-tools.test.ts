/**
 * Codex's own PreToolUse / PostToolUse / PermissionRequest scenarios
 * (codex-rs/core/tests/suite/hooks.rs), ported to `acai -p`. The hooks are
 * Codex's: python3 scripts, and the hooks.json text Codex reads from
 * `$CODEX_HOME/hooks.json` put unchanged into acai's settings.json (acai
 * does not read `~/.codex/hooks.json` or `config.toml`'s `[hooks]`:
 * SCENARIOS.md). SCENARIOS.md maps each Codex test to the test here.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { toolResultsSent } from "../e2e/helpers.js";
import { codexGroup, type Ported, ported } from "./ported-support.js";

let p: Ported | undefined;
afterEach(async () => {
  await p?.cleanup();
  p = undefined;
});

/** Codex's hook modes (write_pre_tool_use_hook / write_post_tool_use_hook), one script. */
const MODES = `
mode = sys.argv[1]
reason = sys.argv[2]
event = sys.argv[3]
if mode == "json_deny":
    print(json.dumps({"hookSpecificOutput": {"hookEventName": event, "permissionDecision": "deny", "permissionDecisionReason": reason}}))
elif mode == "context":
    print(json.dumps({"hookSpecificOutput": {"hookEventName": event, "additionalContext": reason}}))
elif mode == "json_deny_with_context":
    print(json.dumps({"hookSpecificOutput": {"hookEventName": event, "permissionDecision": "deny", "permissionDecisionReason": reason, "additionalContext": reason}}))
elif mode == "decision_block":
    print(json.dumps({"decision": "block", "reason": reason}))
elif mode == "continue_false":
    print(json.dumps({"continue": False, "stopReason": reason}))
elif mode == "allow":
    print(json.dumps({"hookSpecificOutput": {"hookEventName": event, "decision": {"behavior": "allow"}}}))
elif mode == "exit_2":
    sys.stderr.write(reason + "\\n")
    raise SystemExit(2)
`;

const CALL = "call_codex_1";

async function codex(
  prefix: string,
  call: { name: string; input: Record<string, unknown> },
  hook: { event: string; matcher?: string; mode: string; reason: string },
): Promise<Ported> {
  const t = await ported(prefix, [
    { toolCalls: [{ ...call, id: CALL }] },
    { text: "hook observed" },
  ]);
  p = t;
  const script = await t.python(hook.event, MODES);
  const command = `${script} ${hook.mode} '${hook.reason}' ${hook.event}`;
  await t.settings({ hooks: { [hook.event]: [codexGroup(command, hook.matcher)] } });
  return t;
}

const resultOf = (t: Ported) => toolResultsSent(t.server.requests[1]?.body).join("\n");

describe("Codex: PreToolUse", () => {
  it("a JSON deny blocks the shell command before it runs; the payload is Codex's", async () => {
    const t = await codex(
      "codex-pre-deny-",
      { name: "Bash", input: { command: "printf blocked > marker" } },
      { event: "PreToolUse", matcher: "^Bash$", mode: "json_deny", reason: "blocked by pre hook" },
    );
    const run = await t.run("run the blocked shell command");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(t.server.requests).toHaveLength(2);
    expect(resultOf(t)).toContain("blocked by pre hook");
    expect(existsSync(path.join(t.dirs.cwd, "marker"))).toBe(false);
    const inputs = await t.payloads("PreToolUse");
    expect(inputs).toHaveLength(1);
    expect(inputs[0]).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_use_id: CALL,
      tool_input: { command: "printf blocked > marker" },
    });
    expect(existsSync(String(inputs[0]?.transcript_path))).toBe(true);
  });

  it("exit 2 blocks with stderr as the reason", async () => {
    const t = await codex(
      "codex-pre-exit2-",
      { name: "Bash", input: { command: "printf blocked > marker" } },
      { event: "PreToolUse", matcher: "^Bash$", mode: "exit_2", reason: "blocked exec command" },
    );
    const run = await t.run("run the blocked exec command");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(resultOf(t)).toContain("blocked exec command");
    expect(existsSync(path.join(t.dirs.cwd, "marker"))).toBe(false);
  });

  it("additionalContext reaches the next request and the command's output still does", async () => {
    const t = await codex(
      "codex-pre-context-",
      { name: "Bash", input: { command: "printf pre-tool-output" } },
      {
        event: "PreToolUse",
        matcher: "^Bash$",
        mode: "context",
        reason: "Remember the bash pre-tool note.",
      },
    );
    const run = await t.run("run the shell command with pre hook");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(t.sent(1)).toContain("Remember the bash pre-tool note.");
    expect(resultOf(t)).toContain("pre-tool-output");
  });

  it("a deny with additionalContext: the call is blocked and the context still reaches the model", async () => {
    const t = await codex(
      "codex-pre-deny-context-",
      { name: "Bash", input: { command: "printf blocked > marker" } },
      {
        event: "PreToolUse",
        matcher: "^Bash$",
        mode: "json_deny_with_context",
        reason: "blocked by pre hook with context",
      },
    );
    const run = await t.run("run the blocked shell command with pre hook context");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(resultOf(t)).toContain("blocked by pre hook with context");
    const sent = t.sent(1);
    expect(sent.split("blocked by pre hook with context").length).toBeGreaterThan(2);
    expect(existsSync(path.join(t.dirs.cwd, "marker"))).toBe(false);
  });

  it("Codex's tool name as a matcher (^apply_patch$) catches acai's Edit", async () => {
    const t = await codex(
      "codex-pre-apply-patch-",
      { name: "Edit", input: { file_path: "notes.txt", old_string: "old", new_string: "new" } },
      {
        event: "PreToolUse",
        matcher: "^apply_patch$",
        mode: "json_deny",
        reason: "blocked apply_patch",
      },
    );
    await writeFile(path.join(t.dirs.cwd, "notes.txt"), "old");
    const run = await t.run("apply the blocked patch");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(resultOf(t)).toContain("blocked apply_patch");
    expect(await readFile(path.join(t.dirs.cwd, "notes.txt"), "utf8")).toBe("old");
    const [input] = await t.payloads("PreToolUse");
    expect(input).toMatchObject({ tool_name: "Edit", tool_use_id: CALL });
  });
});

describe("Codex: PostToolUse", () => {
  it("additionalContext reaches the next request; the payload carries the command's output", async () => {
    const t = await codex(
      "codex-post-context-",
      { name: "Bash", input: { command: "printf post-tool-output" } },
      {
        event: "PostToolUse",
        matcher: "^Bash$",
        mode: "context",
        reason: "Remember the bash post-tool note.",
      },
    );
    const run = await t.run("run the shell command with post hook");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(t.sent(1)).toContain("Remember the bash post-tool note.");
    expect(resultOf(t)).toContain("post-tool-output");
    const [input] = await t.payloads("PostToolUse");
    expect(input).toMatchObject({
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_use_id: CALL,
      tool_input: { command: "printf post-tool-output" },
    });
    expect(JSON.stringify(input?.tool_response)).toContain("post-tool-output");
    expect(existsSync(String(input?.transcript_path))).toBe(true);
  });

  for (const mode of ["decision_block", "exit_2"]) {
    it(`${mode}: the reason goes to the model beside the output (acai keeps the output; Codex replaces it)`, async () => {
      const t = await codex(
        `codex-post-${mode}-`,
        { name: "Bash", input: { command: "printf blocked-output" } },
        { event: "PostToolUse", matcher: "^Bash$", mode, reason: "bash output looked sketchy" },
      );
      const run = await t.run("run the shell command with blocking post hook");
      expect(run.exitCode, run.stderr).toBe(0);
      const sent = t.sent(1);
      expect(sent).toContain("bash output looked sketchy");
      expect(sent).toContain("blocked-output");
    });
  }

  it("continue: false ends the run with the stop reason (Codex goes on with the reason as the output)", async () => {
    const t = await codex(
      "codex-post-stop-",
      { name: "Bash", input: { command: "printf stop-output" } },
      {
        event: "PostToolUse",
        matcher: "^Bash$",
        mode: "continue_false",
        reason: "Execution halted by post-tool hook",
      },
    );
    const run = await t.run("run the shell command with stop-style post hook");
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toContain("Execution halted by post-tool hook");
    expect(t.server.requests).toHaveLength(1);
  });

  it("exit 2 feedback over the cap is spilled to a file: the model gets a preview and the path", async () => {
    const feedback = "blocked by post hook ".repeat(800);
    const t = await codex(
      "codex-post-spill-",
      { name: "Bash", input: { command: "printf post-hook-output" } },
      { event: "PostToolUse", matcher: "^Bash$", mode: "exit_2", reason: feedback },
    );
    const run = await t.run("run the exec command with long post-hook feedback");
    expect(run.exitCode, run.stderr).toBe(0);
    const sent = t.sent(1);
    const file = /(\/\S+?hook-output\/\S+?\.txt)/.exec(sent)?.[1];
    expect(file, sent).toBeDefined();
    expect((await readFile(file ?? "", "utf8")).trim()).toBe(feedback.trim());
  });

  it("Codex's Edit matcher (^Edit$) adds context after an Edit", async () => {
    const t = await codex(
      "codex-post-edit-",
      { name: "Edit", input: { file_path: "notes.txt", old_string: "old", new_string: "patched" } },
      {
        event: "PostToolUse",
        matcher: "^Edit$",
        mode: "context",
        reason: "Remember the edit alias post-tool note.",
      },
    );
    await writeFile(path.join(t.dirs.cwd, "notes.txt"), "old");
    const run = await t.run("apply the patch with edit alias post hook");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(t.sent(1)).toContain("Remember the edit alias post-tool note.");
    expect(await readFile(path.join(t.dirs.cwd, "notes.txt"), "utf8")).toBe("patched");
  });
});

describe("Codex: PermissionRequest", () => {
  it("an allow answers the permission question: the command runs without --yes", async () => {
    const t = await codex(
      "codex-permission-allow-",
      { name: "Bash", input: { command: "rm -f marker" } },
      {
        event: "PermissionRequest",
        matcher: "^Bash$",
        mode: "allow",
        reason: "should not be used for allow",
      },
    );
    await writeFile(path.join(t.dirs.cwd, "marker"), "seed");
    const run = await t.run("run the shell command after hook approval", { yes: false });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(existsSync(path.join(t.dirs.cwd, "marker"))).toBe(false);
    const inputs = await t.payloads("PermissionRequest");
    expect(inputs).toHaveLength(1);
    expect(inputs[0]).toMatchObject({
      hook_event_name: "PermissionRequest",
      tool_name: "Bash",
      tool_input: { command: "rm -f marker" },
    });
  });
});
