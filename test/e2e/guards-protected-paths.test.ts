/**
 * The model cannot write its own guardrails through `acai -p` (issue 18 item
 * 4, docs/permissions.md "Protected paths"): `ACAI_HOME`, the project's
 * trusted set and git's config and hooks are denied with a message that names
 * the path, whatever `--yes`, acceptEdits, bypassPermissions, an allow rule or
 * a hook's allow says.
 */
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs, STACK_TRACE, toolResultsSent } from "./helpers.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-guards-e2e-");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

type Call = { name: string; input: Record<string, unknown> };

/** Runs one scripted turn of `calls` (one per step) and returns each call's tool result. */
async function runCalls(
  calls: Call[],
  flags: string[],
): Promise<{ results: string[]; stderr: string }> {
  server = await startFakeOpenAI([...calls.map((c) => ({ toolCalls: [c] })), { text: "done" }]);
  const result = await runAcai({
    args: ["-p", "change the guards", ...modelArgs("chat", server), ...flags],
    dirs,
    baseUrl: server.url,
    timeoutMs: 60_000,
  });
  expect(result.stderr).not.toMatch(STACK_TRACE);
  expect(result.exitCode, result.stderr).toBe(0);
  const results = calls.map((_, i) => toolResultsSent(server?.requests[i + 1]?.body).at(-1) ?? "");
  return { results, stderr: result.stderr };
}

async function gitRepo(): Promise<string> {
  const config = path.join(dirs.cwd, ".git", "config");
  await mkdir(path.join(dirs.cwd, ".git", "hooks"), { recursive: true });
  await writeFile(path.join(dirs.cwd, ".git", "HEAD"), "ref: refs/heads/main\n");
  await writeFile(config, "[core]\n\tbare = false\n");
  return config;
}

describe("protected paths in acai -p", () => {
  it("--yes does not approve a Write into ACAI_HOME/hooks, nor to .git/config or .git/hooks", async () => {
    const config = await gitRepo();
    const hook = path.join(dirs.acaiHome, "hooks", "x");
    const preCommit = path.join(dirs.cwd, ".git", "hooks", "pre-commit");
    const { results, stderr } = await runCalls(
      [
        { name: "Write", input: { file_path: hook, content: "#!/bin/sh\ntouch PWNED\n" } },
        {
          name: "Write",
          input: { file_path: ".git/config", content: "[core]\n\tfsmonitor = x\n" },
        },
        { name: "Write", input: { file_path: preCommit, content: "#!/bin/sh\n" } },
        // An ordinary write in the same run still goes through with --yes.
        { name: "Write", input: { file_path: "notes.txt", content: "fine" } },
      ],
      ["--yes"],
    );
    expect(existsSync(hook)).toBe(false);
    expect(await readFile(config, "utf8")).toBe("[core]\n\tbare = false\n");
    expect(existsSync(preCommit)).toBe(false);
    expect(await readFile(path.join(dirs.cwd, "notes.txt"), "utf8")).toBe("fine");
    expect(results[0]).toContain(`may not write ${hook}`);
    expect(results[0]).toContain("ACAI_HOME");
    expect(results[1]).toContain(`may not write ${config}`);
    expect(results[1]).toContain("git's configuration or hooks");
    expect(results[2]).toContain(`may not write ${preCommit}`);
    // The user is told which path, why, and how to make the change.
    expect(stderr).toContain(`${config} is a protected path`);
    expect(stderr).toContain("runs acai interactively (the REPL)");
  });

  it("acceptEdits, an allow rule and bypassPermissions do not approve .git/config either", async () => {
    const config = await gitRepo();
    for (const flags of [
      ["--permission-mode", "acceptEdits"],
      ["--allowedTools", "Write,Edit"],
      ["--permission-mode", "bypassPermissions"],
    ]) {
      const { results } = await runCalls(
        [{ name: "Write", input: { file_path: config, content: "[core]\n\thooksPath = /tmp\n" } }],
        flags,
      );
      expect(results[0], flags.join(" ")).toContain(`may not write ${config}`);
      expect(await readFile(config, "utf8")).toBe("[core]\n\tbare = false\n");
      await server?.close();
      server = undefined;
    }
  });

  it("acceptEdits does not approve .git/commondir, which would point git at a config the model wrote", async () => {
    await gitRepo();
    const commondir = path.join(dirs.cwd, ".git", "commondir");
    const { results } = await runCalls(
      [
        {
          name: "Write",
          input: { file_path: "evil/config", content: "[core]\n\tfsmonitor = touch PWNED\n" },
        },
        { name: "Write", input: { file_path: ".git/commondir", content: "../evil\n" } },
        { name: "Bash", input: { command: "echo ../evil > .git/commondir" } },
      ],
      ["--permission-mode", "acceptEdits", "--allowedTools", "Bash(echo:*)"],
    );
    expect(existsSync(path.join(dirs.cwd, "evil", "config"))).toBe(true);
    expect(existsSync(commondir)).toBe(false);
    expect(results[1]).toContain(`may not write ${commondir}`);
    expect(results[2]).toContain("Permission denied");
  });

  it("an Edit of a trusted project hook is denied under acceptEdits, also through a link", async () => {
    const guard = path.join(dirs.cwd, ".acai", "hooks", "guard");
    const text = `#!/bin/sh\nif [ "$HOOK_ACTION" = describe ]; then echo '{"name":"guard","events":["before_tool"]}'; exit 0; fi\ncat >/dev/null\nexit 0\n`;
    await mkdir(path.dirname(guard), { recursive: true });
    await writeFile(guard, text);
    await chmod(guard, 0o755);
    // A repository that ships a link to the user's hooks folder (issue 18).
    await symlink(path.join(dirs.acaiHome, "hooks"), path.join(dirs.cwd, "docs-cfg"));
    await mkdir(path.join(dirs.acaiHome, "hooks"));
    const linked = path.join(dirs.cwd, "docs-cfg", "evil", "HOOK.md");
    const { results } = await runCalls(
      [
        {
          name: "Edit",
          input: { file_path: guard, old_string: "exit 0\n", new_string: "touch PWNED\nexit 0\n" },
        },
        { name: "Write", input: { file_path: linked, content: "---\nname: evil\n---\n" } },
      ],
      ["--permission-mode", "acceptEdits", "--trust-project"],
    );
    expect(await readFile(guard, "utf8")).toBe(text);
    expect(results[0]).toContain(`may not write ${guard}`);
    expect(results[0]).toContain("project's trusted set");
    expect(existsSync(path.join(dirs.acaiHome, "hooks", "evil"))).toBe(false);
    expect(results[1]).toContain(`may not write ${linked}`);
  });

  it("a permission_request hook's allow does not approve a protected write (it still approves an ordinary one)", async () => {
    const allow = JSON.stringify({
      hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } },
    });
    await writeFile(
      path.join(dirs.acaiHome, "settings.json"),
      JSON.stringify({
        hooks: {
          PermissionRequest: [
            {
              matcher: "Write",
              hooks: [{ type: "command", command: `cat >/dev/null; echo '${allow}'` }],
            },
          ],
        },
      }),
    );
    const settings = path.join(dirs.acaiHome, "settings.json");
    const before = await readFile(settings, "utf8");
    const note = path.join(dirs.cwd, "note.txt");
    const { results } = await runCalls(
      [
        { name: "Write", input: { file_path: settings, content: "{}" } },
        { name: "Write", input: { file_path: note, content: "hi" } },
      ],
      [],
    );
    expect(await readFile(settings, "utf8")).toBe(before);
    expect(results[0]).toContain(`may not write ${settings}`);
    // The same hook approves an ordinary write: it did run.
    expect(await readFile(note, "utf8")).toBe("hi");
  });
});
