/**
 * Hooks written to the Agent Hooks spec and the other designs behave as their
 * authors expect (issue 14): `event_type` in the trigger's spelling, the
 * spec's `pattern` example, unknown matcher keys reported, equal priorities in
 * configured order (agent-relay answers: relay-answers.test.ts). User-level
 * hooks (trusted) and the replay model; `acai -p` as a user runs it.
 */
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { STACK_TRACE } from "./helpers.js";

let dirs: AcaiDirs;
beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-e2e-agenthooks-");
});
afterEach(async () => {
  await dirs.cleanup();
});

type ToolCall = { name: string; input: Record<string, unknown> };

/** A replay model making the given tool calls (one turn each), then finishing. */
async function replay(calls: ToolCall[]): Promise<string> {
  const file = path.join(dirs.root, "replay.json");
  const turns = [...calls.map((call) => ({ text: "", tool_calls: [call] })), { text: "done" }];
  await writeFile(file, JSON.stringify({ turns }));
  return `replay:${file}`;
}

/** A user-level HOOK.md folder (`~/.config/agents/hooks/<name>`) running `script` with sh. */
async function hookMd(name: string, frontmatter: string[], script: string): Promise<void> {
  const dir = path.join(dirs.home, ".config", "agents", "hooks", name);
  await mkdir(path.join(dir, "scripts"), { recursive: true });
  await writeFile(path.join(dir, "HOOK.md"), `---\n${frontmatter.join("\n")}\n---\n# ${name}\n`);
  const run = path.join(dir, "scripts", "run.sh");
  await writeFile(run, `#!/bin/sh\n${script}\n`);
  await chmod(run, 0o755);
}

async function userSettings(hooks: Record<string, unknown>): Promise<void> {
  await writeFile(path.join(dirs.acaiHome, "settings.json"), JSON.stringify({ hooks }));
}

const run = (model: string) => runAcai({ args: ["-p", "go", "--yes", "--model", model], dirs });

describe("Agent Hooks and the other designs, end to end", () => {
  it("sends event_type in the spelling of each HOOK.md hook's trigger", async () => {
    const dump = (name: string) => `cat > "${path.join(dirs.root, `${name}.json`)}"`;
    await hookMd("old-spelling", ["trigger: before_tool"], dump("old"));
    await hookMd("new-spelling", ["trigger: pre-tool-call"], dump("new"));
    const result = await run(await replay([{ name: "Bash", input: { command: "echo hi" } }]));
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.exitCode).toBe(0);
    const old = JSON.parse(await readFile(path.join(dirs.root, "old.json"), "utf8"));
    const current = JSON.parse(await readFile(path.join(dirs.root, "new.json"), "utf8"));
    expect(old).toMatchObject({ event_type: "before_tool", tool_name: "Bash" });
    expect(current).toMatchObject({ event_type: "pre-tool-call", tool_name: "Bash" });
  });

  it('fires the spec\'s own example pattern "\\.(py|js|ts)$" for a file_path ending in .py only', async () => {
    await hookMd(
      "no-code-writes",
      ["trigger: before_tool", "matcher:", '  tool: "WriteFile"', "  pattern: '\\.(py|js|ts)$'"],
      'echo "no code files, please" >&2; exit 2',
    );
    const result = await run(
      await replay([
        { name: "Write", input: { file_path: "app.py", content: "print(1)\n" } },
        { name: "Write", input: { file_path: "notes.md", content: "# notes\n" } },
      ]),
    );
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain("hook no-code-writes blocked before_tool: no code files");
    expect(existsSync(path.join(dirs.cwd, "app.py"))).toBe(false);
    expect(existsSync(path.join(dirs.cwd, "notes.md"))).toBe(true);
  });

  it("reports a HOOK.md matcher key acai does not know, and does not run that hook", async () => {
    const ran = path.join(dirs.root, "ran");
    await hookMd(
      "rm-guard",
      ["trigger: before_tool", "matcher:", "  tool: Bash", "  command_pattern: 'rm -rf'"],
      `touch "${ran}"; echo blocked >&2; exit 2`,
    );
    const result = await run(await replay([{ name: "Bash", input: { command: "echo safe" } }]));
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(
      /hook rm-guard \(.*HOOK\.md\) is not loaded: invalid frontmatter: matcher: unknown matcher key "command_pattern": use "command"/,
    );
    expect(existsSync(ran)).toBe(false);
  });

  it("runs settings hooks of equal priority in file order: z before a", async () => {
    const log = path.join(dirs.root, "order.log");
    const entry = (name: string) => ({
      type: "command",
      name,
      command: `echo ${name} >> "${log}"`,
    });
    await userSettings({
      PreToolUse: [{ matcher: "Bash", hooks: [entry("z")] }, { hooks: [entry("a")] }],
    });
    const result = await run(await replay([{ name: "Bash", input: { command: "echo hi" } }]));
    expect(result.exitCode).toBe(0);
    expect(await readFile(log, "utf8")).toBe("z\na\n");
  });
});
