/**
 * Tool permissions through `acai -p` (docs/permissions.md): rules in the
 * settings allow `npm test` and deny `curl` with no one to ask, and a
 * `permission_request` hook answers for the user.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs, STACK_TRACE, toolResultsSent } from "./helpers.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-permissions-e2e-");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

const userSettings = (settings: unknown) =>
  writeFile(path.join(dirs.acaiHome, "settings.json"), JSON.stringify(settings));

describe("permissions in acai -p", () => {
  it("a rule allows npm test and another denies curl; the model is told which rule", async () => {
    await writeFile(
      path.join(dirs.cwd, "package.json"),
      JSON.stringify({ name: "p", private: true, scripts: { test: "echo TESTS-PASSED" } }),
    );
    await userSettings({ permissions: { allow: ["Bash(npm test:*)"], deny: ["Bash(curl:*)"] } });
    const fetched = path.join(dirs.cwd, "fetched.txt");
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Bash", input: { command: "npm test" } }] },
      {
        toolCalls: [
          { name: "Bash", input: { command: `curl -s -o ${fetched} http://127.0.0.1:9/` } },
        ],
      },
      // Not covered by any rule: denied too, as -p cannot ask.
      { toolCalls: [{ name: "Bash", input: { command: "echo unlisted > unlisted.txt" } }] },
      { text: "finished" },
    ]);
    const result = await runAcai({
      args: ["-p", "test it", ...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
      timeoutMs: 60_000,
    });
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.exitCode, result.stderr).toBe(0);
    const npm = toolResultsSent(server.requests[1]?.body).at(-1) ?? "";
    expect(npm).toContain("TESTS-PASSED");
    const curl = toolResultsSent(server.requests[2]?.body).at(-1) ?? "";
    expect(curl).toContain("Permission denied");
    expect(curl).toContain("Bash(curl:*)");
    expect(existsSync(fetched)).toBe(false);
    const unlisted = toolResultsSent(server.requests[3]?.body).at(-1) ?? "";
    expect(unlisted).toContain("Permission denied");
    expect(existsSync(path.join(dirs.cwd, "unlisted.txt"))).toBe(false);
    // The user sees the denials on stderr too.
    expect(result.stderr).toContain("permission denied");
  });

  it("a permission_request hook answers for the user: it allows a Write and denies a Bash call", async () => {
    const seen = path.join(dirs.root, "requests.jsonl");
    const answer = (behavior: "allow" | "deny", message?: string) =>
      JSON.stringify({
        hookSpecificOutput: {
          hookEventName: "PermissionRequest",
          decision: { behavior, ...(message ? { message } : {}) },
        },
      });
    await userSettings({
      hooks: {
        PermissionRequest: [
          {
            matcher: "Write",
            hooks: [
              {
                type: "command",
                command: `cat >> '${seen}'; echo >> '${seen}'; echo '${answer("allow")}'`,
              },
            ],
          },
          {
            matcher: "Bash",
            hooks: [
              {
                type: "command",
                command: `cat >/dev/null; echo '${answer("deny", "NO-SHELL-HERE")}'`,
              },
            ],
          },
        ],
      },
    });
    const file = path.join(dirs.cwd, "note.txt");
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Write", input: { file_path: file, content: "hello" } }] },
      { toolCalls: [{ name: "Bash", input: { command: "echo ran > ran.txt" } }] },
      { text: "finished" },
    ]);
    // No --yes and no rule: without the hook both calls would be denied.
    const result = await runAcai({
      args: ["-p", "write it", ...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
    });
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await readFile(file, "utf8")).toBe("hello");
    const bash = toolResultsSent(server.requests[2]?.body).at(-1) ?? "";
    expect(bash).toContain("NO-SHELL-HERE");
    expect(existsSync(path.join(dirs.cwd, "ran.txt"))).toBe(false);
    // The hook saw Claude Code's PermissionRequest payload, with the mode.
    const [request] = (await readFile(seen, "utf8"))
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(request).toMatchObject({
      hook_event_name: "PermissionRequest",
      tool_name: "Write",
      permission_mode: "default",
    });
  });
});
