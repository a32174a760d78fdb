/**
 * A3S's answers (hooks.md §4), end to end through `acai -p`: `Block` blocks
 * (it used to be read as a failed hook that fails open), `Continue` with
 * `modified` replaces the tool input, `Retry` is honoured up to the hook's own
 * `max_retries`, and a `session_id` matcher naming another session keeps its
 * hook from running.
 */
import { existsSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs, STACK_TRACE, toolResultsSent } from "./helpers.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

async function executableHook(d: AcaiDirs, name: string, metadata: object, body: string) {
  const file = path.join(d.cwd, ".acai", "hooks", name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(
    file,
    `#!/usr/bin/env bash\nif [ "$HOOK_ACTION" = describe ]; then echo '${JSON.stringify({ name, ...metadata })}'; exit 0; fi\ninput=$(cat)\n${body}\n`,
  );
  await chmod(file, 0o755);
}

const bash = (command: string) => ({ toolCalls: [{ name: "Bash", input: { command } }] });

describe("A3S answers through acai -p", () => {
  it("Block blocks, Continue+modified rewrites, Retry stops at max_retries, session_id filters", async () => {
    dirs = await makeAcaiDirs("acai-a3s-answers-");
    await executableHook(
      dirs,
      "a3s-guard",
      { events: ["before_tool"], matcher: { tool: "Bash" } },
      [
        `case "$input" in`,
        `  *a3s-block*) echo '{"action": "Block", "reason": "A3S-BLOCKED"}' ;;`,
        `  *a3s-modify*) echo '{"action": "Continue", "modified": {"command": "echo a3s-rewritten"}}' ;;`,
        `  *) echo '{"action": "Continue"}' ;;`,
        `esac`,
      ].join("\n"),
    );
    await executableHook(
      dirs,
      "a3s-retry",
      { events: ["before_model"], max_retries: 1 },
      `echo x >> "$HOOK_E2E_DIR/retries"; echo '{"action": "Retry", "retry_delay_ms": 10}'`,
    );
    await executableHook(
      dirs,
      "other-session",
      { events: ["before_tool", "session_start"], matcher: { session_id: "not-this-session" } },
      `: > "$HOOK_E2E_DIR/other-session-ran"; echo '{"action": "Block", "reason": "WRONG-SESSION"}'`,
    );
    server = await startFakeOpenAI([
      bash("echo a3s-block"),
      bash("echo a3s-modify"),
      { text: "all done" },
    ]);
    const result = await runAcai({
      dirs,
      args: ["-p", "go", "--trust-project-hooks", "--yes", ...modelArgs("chat", server)],
      baseUrl: server.url,
      env: { HOOK_E2E_DIR: dirs.root },
      timeoutMs: 30_000,
    });
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain("all done");
    const results = (i: number) => toolResultsSent(server?.requests[i]?.body).at(-1) ?? "";
    expect(results(1)).toContain("A3S-BLOCKED");
    expect(results(2)).toContain("a3s-rewritten");
    expect(results(2)).not.toContain("a3s-modify");
    // Three model requests, each retried once (max_retries 1), then let through with a warning.
    expect(server.requests).toHaveLength(3);
    expect(result.stderr).toContain("more than 1 times in a row");
    expect(result.stderr).not.toMatch(/a3s-guard.*failed/);
    expect(existsSync(path.join(dirs.root, "other-session-ran"))).toBe(false);
  });
});
