import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { modelArgs, toolResultsSent } from "../../e2e/helpers.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../../support/fake-openai-server.js";
import { type AcaiDirs, acai, tempProject, writeExecutable } from "../commands/helpers.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

/** A Claude Code project: hooks on five events with several matchers, scripts under .claude/hooks. */
async function claudeProject(d: AcaiDirs): Promise<void> {
  const hooks = path.join(d.cwd, ".claude", "hooks");
  await writeExecutable(
    path.join(hooks, "no-rm.sh"),
    `#!/bin/bash\ninput=$(cat)\nif [[ "$input" == *'rm -rf'* ]]; then echo "Blocked by policy: no rm -rf" >&2; exit 2; fi\n`,
  );
  await writeExecutable(
    path.join(hooks, "protect-secrets.py"),
    `#!/usr/bin/env python3
import json, sys
event = json.load(sys.stdin)
if event["tool_input"].get("file_path", "").startswith("secrets/"):
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "secrets/ is off limits"}}))
`,
  );
  await writeExecutable(
    path.join(hooks, "log-write.sh"),
    `#!/bin/bash\ninput=$(cat)\necho "$CLAUDE_PROJECT_DIR wrote" >> "$CLAUDE_PROJECT_DIR/writes.log"\n`,
  );
  await writeExecutable(
    path.join(hooks, "lint-gate.sh"),
    `#!/bin/bash\ninput=$(cat)\nif [[ "$input" == *'"stop_hook_active":true'* ]]; then exit 0; fi\necho '{"decision":"block","reason":"Run the linter before you finish."}'\n`,
  );
  const settings = {
    permissions: {
      allow: ["Bash(npm test)", "Edit(notes.txt)"],
      deny: ["Bash(curl:*)"],
      additionalDirectories: ["../shared"],
    },
    hooks: {
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [
            {
              type: "command",
              command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/no-rm.sh',
              timeout: 5,
            },
          ],
        },
        {
          matcher: "Write|Edit|MultiEdit",
          hooks: [
            { type: "command", command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/protect-secrets.py' },
          ],
        },
      ],
      PostToolUse: [
        {
          matcher: "Write",
          hooks: [{ type: "command", command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/log-write.sh' }],
        },
      ],
      UserPromptSubmit: [
        { hooks: [{ type: "command", command: "echo 'Project rule: indent with tabs.'" }] },
      ],
      Stop: [
        {
          hooks: [
            {
              type: "command",
              command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/lint-gate.sh',
              timeout: 30,
            },
          ],
        },
      ],
      PreCompact: [{ matcher: "auto", hooks: [{ type: "command", command: "echo compacting" }] }],
    },
  };
  await mkdir(path.join(d.cwd, ".claude"), { recursive: true });
  await writeFile(path.join(d.cwd, ".claude", "settings.json"), JSON.stringify(settings, null, 2));
}

describe("acai hooks import --from claude", () => {
  it("converts a Claude Code settings file, and the hooks then behave the same in acai -p", async () => {
    dirs = await tempProject();
    await claudeProject(dirs);
    // Existing acai settings are kept.
    await mkdir(path.join(dirs.cwd, ".acai"), { recursive: true });
    await writeFile(
      path.join(dirs.cwd, ".acai", "settings.json"),
      JSON.stringify({ maxSteps: 12 }),
    );

    const imported = await acai(dirs, ["hooks", "import", "--from", "claude"]);
    expect(imported.exitCode, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(
      "Importing Claude Code hooks from .claude/settings.json into .acai/settings.json",
    );
    expect(imported.stdout).toContain("PreToolUse → before_tool");
    expect(imported.stdout).toContain("UserPromptSubmit → user_prompt");
    expect(imported.stdout).toMatch(/no timeout → 60 \(Claude Code's default, in seconds/);
    expect(imported.stdout).toContain(
      'matcher "Write|Edit|MultiEdit" names MultiEdit, which does not exist in acai; kept as written: the rest of the matcher (Write|Edit) still applies',
    );
    expect(imported.stdout).not.toContain("never fire");
    // PreCompact is acai's pre_compact, its matcher (auto | manual) the trigger.
    expect(imported.stdout).toContain("+ pre_compact [auto]: echo compacting");
    expect(imported.stdout).toContain(
      "Wrote .acai/settings.json: 6 hook(s), 3 permission setting(s) added.",
    );
    expect(imported.stdout).toContain("+ permissions.allow: Edit(notes.txt)");
    expect(imported.stdout).toContain("+ permissions.deny: Bash(curl:*)");
    expect(imported.stdout).toContain(
      "- permissions.additionalDirectories (acai has no such setting)",
    );
    const written = JSON.parse(
      await readFile(path.join(dirs.cwd, ".acai", "settings.json"), "utf8"),
    );
    expect(written.maxSteps).toBe(12);
    expect(written.permissions).toEqual({
      allow: ["Bash(npm test)", "Edit(notes.txt)"],
      deny: ["Bash(curl:*)"],
    });
    expect(written.hooks.before_tool).toEqual([
      {
        matcher: "Bash",
        hooks: [
          { type: "command", command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/no-rm.sh', timeout: 5 },
        ],
      },
      {
        matcher: "Write|Edit|MultiEdit",
        hooks: [
          {
            type: "command",
            command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/protect-secrets.py',
            timeout: 60,
          },
        ],
      },
    ]);
    expect(written.hooks.before_stop[0].hooks[0].timeout).toBe(30); // seconds stay seconds
    expect(written.hooks.PreCompact).toBeUndefined();
    expect(written.hooks.pre_compact).toEqual([
      { matcher: "auto", hooks: [{ type: "command", command: "echo compacting", timeout: 60 }] },
    ]);

    // Importing again adds nothing.
    const again = await acai(dirs, ["hooks", "import", "--from", "claude"]);
    expect(again.stdout).toContain(
      ".acai/settings.json unchanged: 0 hook(s) added, 9 already there.",
    );

    const list = JSON.parse((await acai(dirs, ["hooks", "list", "--json"])).stdout) as {
      hooks: {
        events: string[];
        matcher: Record<string, string>;
        timeout_ms: number;
        status: string;
      }[];
    };
    expect(list.hooks.filter((h) => h.status === "ok")).toHaveLength(6);
    expect(list.hooks.find((h) => h.matcher.tool?.includes("Write"))?.timeout_ms).toBe(60_000);

    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Bash", input: { command: "rm -rf build" } }] },
      { toolCalls: [{ name: "Write", input: { file_path: "secrets/key.txt", content: "k" } }] },
      // Allowed by the imported Edit(notes.txt): acai -p asks nobody.
      { toolCalls: [{ name: "Write", input: { file_path: "notes.txt", content: "hi\n" } }] },
      { toolCalls: [{ name: "Bash", input: { command: "curl https://example.com" } }] },
      { text: "All done." },
      { text: "Linted, done." },
    ]);
    const run = await acai(
      dirs,
      ["-p", "tidy up", "--trust-project-hooks", ...modelArgs("chat", server)],
      { baseUrl: server.url },
    );
    expect(run.stderr).not.toMatch(/failed|warning/i);
    expect(run.exitCode).toBe(0);
    const bodies = server.requests.map((r) => JSON.stringify(r.body));
    expect(bodies[0]).toContain("Project rule: indent with tabs.");
    expect(toolResultsSent(server.requests[1]?.body).join("\n")).toContain(
      "Blocked by policy: no rm -rf",
    );
    expect(toolResultsSent(server.requests[2]?.body).join("\n")).toContain(
      "secrets/ is off limits",
    );
    expect(existsSync(path.join(dirs.cwd, "secrets", "key.txt"))).toBe(false);
    expect(await readFile(path.join(dirs.cwd, "notes.txt"), "utf8")).toBe("hi\n");
    expect(await readFile(path.join(dirs.cwd, "writes.log"), "utf8")).toBe(`${dirs.cwd} wrote\n`);
    // The imported deny rule: the model is told which rule, and where it is written.
    const denied = toolResultsSent(server.requests[4]?.body).join("\n");
    expect(denied).toContain("Permission denied: the deny rule Bash(curl:*)");
    expect(denied).toMatch(/permissions\.deny.{0,4} of .*\.acai\/settings\.json/); // The Stop gate blocked once; its reason reached the model as a user message; then it let go.
    expect(server.requests).toHaveLength(6);
    expect(bodies[5]).toContain("Run the linter before you finish.");
    expect(run.stdout).toContain("Linted, done.");
  });

  it("clamps timeouts to acai's 0.1–600 s the way loading settings does, and says so", async () => {
    dirs = await tempProject();
    const entry = (command: string, timeout: number) => ({
      hooks: [{ type: "command", command, timeout }],
    });
    const hooks = { Stop: [entry("long", 900), entry("quick", 0.05), entry("ok", 600)] };
    await mkdir(path.join(dirs.cwd, ".claude"), { recursive: true });
    await writeFile(path.join(dirs.cwd, ".claude", "settings.json"), JSON.stringify({ hooks }));
    const imported = await acai(dirs, ["hooks", "import", "--from", "claude"]);
    expect(imported.exitCode, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(
      "~ hooks.Stop[0].hooks[0]: timeout 900 s is above acai's 600 s limit; using 600 s",
    );
    expect(imported.stdout).toContain(
      "~ hooks.Stop[1].hooks[0]: timeout 0.05 s is below acai's 0.1 s minimum; using 0.1 s",
    );
    expect(imported.stdout).not.toContain("hooks.Stop[2]");
    const written = JSON.parse(
      await readFile(path.join(dirs.cwd, ".acai", "settings.json"), "utf8"),
    );
    const timeouts = written.hooks.before_stop.map(
      (group: { hooks: { timeout: number }[] }) => group.hooks[0]?.timeout,
    );
    expect(timeouts).toEqual([600, 0.1, 600]);
  });

  it("reports a missing or unreadable source", async () => {
    dirs = await tempProject();
    const none = await acai(dirs, ["hooks", "import", "--from", "claude"]);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain("no Claude Code settings found");
    await writeFile(path.join(dirs.root, "bad.json"), "{ not json");
    const bad = await acai(dirs, [
      "hooks",
      "import",
      "--from",
      "claude",
      path.join(dirs.root, "bad.json"),
    ]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/bad\.json is not valid JSON/);
    const other = await acai(dirs, ["hooks", "import", "--from", "gemini"]);
    expect(other.exitCode).toBe(2);
  });
});
