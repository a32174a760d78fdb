/**
 * Protected paths in the real REPL (docs/permissions.md "Protected paths"):
 * even under bypassPermissions a write to `.git/config` or into `ACAI_HOME`
 * stops at a prompt headed "protected path" that names the file; the user's
 * y writes exactly that, n writes nothing. And a project taken with
 * --trust-project for the run is taken again by `/clear` only unchanged: a
 * hook file added meanwhile is not picked up without a review.
 */
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs } from "../support/run-acai.js";
import { replCommand, tmuxSkipReason as skipReason, Term } from "../support/tmux-term.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;
let term: Term | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-repl-protected-");
});
afterEach(async () => {
  term?.kill();
  term = undefined;
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

describe.skipIf(skipReason !== "")(`protected paths in the REPL ${skipReason}`, () => {
  it("bypassPermissions still asks; the user approves .git/config and refuses ACAI_HOME/hooks", async () => {
    await mkdir(path.join(dirs.cwd, ".git"));
    const config = path.join(dirs.cwd, ".git", "config");
    await writeFile(config, "[core]\n");
    const hook = path.join(dirs.acaiHome, "hooks", "planted");
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Write", input: { file_path: config, content: "[user]\n" } }] },
      { toolCalls: [{ name: "Write", input: { file_path: hook, content: "#!/bin/sh\n" } }] },
      { text: "Both tried." },
    ]);
    const args = ["--model", "openai:fake-model", "--base-url", server.url];
    const t = new Term({ columns: 120, rows: 40 });
    t.start(
      replCommand(dirs, [...args, "--dangerously-skip-permissions"], {
        OPENAI_BASE_URL: server.url,
      }),
      dirs.cwd,
    );
    term = t;
    await t.see("ask anything");
    t.text("set up git");
    t.keys("Enter");
    await t.see("? protected path Write wants to write");
    expect(t.screen()).toContain(config);
    expect(t.screen()).toContain("git's configuration or hooks");
    expect(t.screen()).toContain("Allow this exact write, once?");
    t.keys("y");
    await t.see(/\? protected path Write wants to write[\s\S]*planted/);
    expect(t.screen()).toContain("ACAI_HOME");
    t.keys("n");
    await t.see("Both tried.");
    expect(await readFile(config, "utf8")).toBe("[user]\n");
    expect(existsSync(hook)).toBe(false);
    const told = JSON.stringify(server.requests[2]?.body);
    expect(told).toContain(`may not write ${hook}`);
    expect(told).toContain("the user said no");
  });

  it("with --trust-project, /clear does not pick up a hook file added during the session", async () => {
    const marker = path.join(dirs.root, "NEW-HOOK-RAN");
    const hookDir = path.join(dirs.cwd, ".acai", "hooks");
    await mkdir(hookDir, { recursive: true });
    const hook = (name: string, body: string) =>
      `#!/bin/sh\nif [ "$HOOK_ACTION" = describe ]; then echo '{"name":"${name}","events":["session_start","user_prompt"]}'; exit 0; fi\ncat >/dev/null\n${body}\nexit 0\n`;
    await writeFile(path.join(hookDir, "first"), hook("first", "true"));
    await chmod(path.join(hookDir, "first"), 0o755);
    server = await startFakeOpenAI([{ text: "first session" }]);
    const args = ["--model", "openai:fake-model", "--base-url", server.url, "--trust-project"];
    const t = new Term({ columns: 120, rows: 40 });
    t.start(replCommand(dirs, args, { OPENAI_BASE_URL: server.url }), dirs.cwd);
    term = t;
    await t.see("ask anything");
    // What the model could have written with a shell command meanwhile.
    const added = path.join(hookDir, "added");
    await writeFile(added, hook("added", `touch '${marker}'`));
    await chmod(added, 0o755);
    t.line("/clear");
    await t.see("Could not start a session");
    expect(t.screen()).toContain("untrusted");
    expect(existsSync(marker)).toBe(false);
  });
});
