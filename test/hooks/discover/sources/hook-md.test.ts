import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BrokenHook, HookDefinition } from "../../../../source/hooks/contract/definition.js";
import { loadHookRegistry, scanHookSources } from "../../../../source/hooks/discover/registry.js";
import { readFrontmatter } from "../../../../source/hooks/discover/sources/hook-md.js";
import { runHookOnce } from "../../../../source/hooks/run/run.js";
import { runProcess } from "../../../../source/process/runner.js";
import { brokenHookWarning } from "../../../../source/session/warnings.js";
import { baseEnv, countingRunner, makeSandbox, type Sandbox, writeFileIn } from "./helpers.js";

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
});
afterEach(async () => {
  await box.cleanup();
});

async function hookMd(
  dir: string,
  frontmatter: string,
  script?: { name: string; mode: number; body?: string },
) {
  await writeFileIn(path.join(dir, "HOOK.md"), `---\n${frontmatter}\n---\n\n# Docs\n`);
  if (script) {
    await writeFileIn(
      path.join(dir, "scripts", script.name),
      script.body ?? "#!/bin/sh\nexit 0\n",
      script.mode,
    );
  }
  return path.join(dir, "HOOK.md");
}

async function load() {
  const scan = await scanHookSources({
    projectDir: box.projectDir,
    acaiHome: box.acaiHome,
    homeDir: box.homeDir,
    settingsFiles: [],
  });
  const { runner, calls } = countingRunner();
  const registry = await loadHookRegistry(scan, {
    includeProject: true,
    runner,
    env: baseEnv,
    acaiHome: box.acaiHome,
    projectDir: box.projectDir,
  });
  expect(calls).toHaveLength(0); // HOOK.md hooks need no describe step
  return registry;
}

describe("HOOK.md hooks", () => {
  it("loads from .acai/hooks, .agents/hooks and ~/.config/agents/hooks with every trigger spelling", async () => {
    const security = path.join(box.projectDir, ".agents", "hooks", "security");
    const file = await hookMd(
      security,
      [
        "name: block-dangerous",
        "description: Blocks rm -rf",
        "trigger: pre-tool-call",
        "matcher:",
        "  tool: Shell",
        '  pattern: "rm -rf /"',
        "timeout: 5000",
        "priority: 999",
      ].join("\n"),
      { name: "run.sh", mode: 0o755 },
    );
    await hookMd(path.join(box.projectDir, ".acai", "hooks", "gate"), "trigger: Stop", {
      name: "run",
      mode: 0o755,
    });
    await hookMd(
      path.join(box.homeDir, ".config", "agents", "hooks", "audit"),
      "trigger: session_end\nasync: true",
      {
        name: "run.py",
        mode: 0o755,
      },
    );
    const registry = await load();
    expect(registry.broken).toEqual([]);
    const byName = new Map(registry.hooks.map((h) => [h.name, h]));
    expect(byName.get("block-dangerous")).toMatchObject({
      id: `project:hook_md:${file}`,
      description: "Blocks rm -rf",
      events: ["before_tool"],
      matcher: { tool: "Shell", pattern: "rm -rf /" },
      timeoutMs: 5000,
      priority: 999,
      dialect: "agenthooks",
      sourceKind: "hook_md",
      scope: "project",
      file,
      launch: { command: path.join(security, "scripts", "run.sh"), args: [], viaShell: false },
    });
    expect(byName.get("block-dangerous")?.trigger).toBe("pre-tool-call");
    expect(byName.get("gate")).toMatchObject({
      trigger: "Stop",
      events: ["before_stop"],
      timeoutMs: 30_000,
      priority: 100,
    });
    expect(byName.get("audit")).toMatchObject({
      events: ["session_end"],
      async: true,
      scope: "user",
    });
  });

  it("runs a non-executable script through its #! line or its extension", async () => {
    const dir = path.join(box.projectDir, ".agents", "hooks");
    await hookMd(path.join(dir, "shebang"), "trigger: before_tool", {
      name: "run",
      mode: 0o644,
      body: "#!/usr/bin/env python3\nprint('x')\n",
    });
    await hookMd(path.join(dir, "ext"), "trigger: before_tool", {
      name: "run.sh",
      mode: 0o644,
      body: "exit 0\n",
    });
    const bare = await hookMd(path.join(dir, "bare"), "trigger: before_tool", {
      name: "run",
      mode: 0o644,
      body: "exit 0\n",
    });
    const registry = await load();
    const byName = new Map(registry.hooks.map((h) => [h.name, h]));
    expect(byName.get("shebang")?.launch).toEqual({
      command: "/usr/bin/env",
      args: ["python3", path.join(dir, "shebang", "scripts", "run")],
      viaShell: false,
    });
    expect(byName.get("ext")?.launch).toEqual({
      command: "bash",
      args: [path.join(dir, "ext", "scripts", "run.sh")],
      viaShell: false,
    });
    expect(registry.broken).toEqual([
      expect.objectContaining({
        file: bare,
        reason: expect.stringContaining("has no #! line and an unknown extension"),
      }),
    ]);
  });

  it("runs an executable script without #! through the interpreter of its extension, not /bin/sh", async () => {
    const dir = path.join(box.projectDir, ".agents", "hooks");
    // Python that sh would misread: sh fails on it and its exit 2 would count as a block.
    const python = [
      "import json, sys",
      "event = json.load(sys.stdin)",
      "if event['tool_input']['command'] == 'rm -rf /':",
      "    print(json.dumps({'decision': 'deny', 'reason': 'python says no'}))",
      "sys.exit(0)",
      "",
    ].join("\n");
    await hookMd(path.join(dir, "py"), "trigger: before_tool", {
      name: "run.py",
      mode: 0o755,
      body: python,
    });
    await hookMd(path.join(dir, "js"), "trigger: before_tool", {
      name: "run.mjs",
      mode: 0o755,
      body: "process.stdout.write(JSON.stringify({ action: 'block', reason: 'node says no' }));\n",
    });
    const unknown = await hookMd(path.join(dir, "unknown"), "trigger: before_tool", {
      name: "run.txt",
      mode: 0o755,
      body: "echo hi\n",
    });
    const registry = await load();
    expect(registry.broken).toEqual([
      expect.objectContaining({
        file: unknown,
        reason: expect.stringMatching(/run\.txt has no #! line and an unknown extension/),
      }),
    ]);
    const byName = new Map(registry.hooks.map((h) => [h.name, h]));
    const py = byName.get("py");
    expect(py?.launch).toEqual({
      command: "python3",
      args: [path.join(dir, "py", "scripts", "run.py")],
      viaShell: false,
    });
    const run = (hook: HookDefinition, command: string) =>
      runHookOnce(
        hook,
        "before_tool",
        { event: "before_tool", tool_name: "Bash", tool_input: { command } },
        { runner: runProcess, env: baseEnv, projectDir: box.projectDir, sessionId: "s" },
      );
    const denied = await run(py as HookDefinition, "rm -rf /");
    expect(denied.stderr).toBe("");
    expect(denied.exitCode).toBe(0);
    expect(denied.decision).toMatchObject({ action: "block", reason: "python says no" });
    expect((await run(py as HookDefinition, "ls")).decision).toMatchObject({
      action: "continue",
    });
    const js = await run(byName.get("js") as HookDefinition, "ls");
    expect(js.decision).toMatchObject({ action: "block", reason: "node says no" });
  });

  it("runs an executable compiled program (no #!, no extension) directly", async () => {
    const dir = path.join(box.projectDir, ".agents", "hooks", "bin");
    await hookMd(dir, "trigger: before_tool");
    // The head of an ELF file: a NUL byte marks a compiled program (it is not run here).
    const elf = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const target = path.join(dir, "scripts", "run");
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, elf);
    await chmod(target, 0o755);
    const registry = await load();
    expect(registry.broken).toEqual([]);
    expect(registry.hooks[0]?.launch).toEqual({ command: target, args: [], viaShell: false });
  });

  it("reports a missing script, bad YAML, unknown trigger, unsupported event and bad regex; others load", async () => {
    const dir = path.join(box.projectDir, ".acai", "hooks");
    await hookMd(path.join(dir, "ok"), "trigger: PostToolUse", { name: "run.sh", mode: 0o755 });
    const noScript = await hookMd(path.join(dir, "no-script"), "trigger: before_tool");
    const badYaml = await hookMd(path.join(dir, "bad-yaml"), "trigger: [unclosed", {
      name: "run",
      mode: 0o755,
    });
    const unknown = await hookMd(path.join(dir, "unknown"), "trigger: on-everything", {
      name: "run",
      mode: 0o755,
    });
    const later = await hookMd(path.join(dir, "later"), "trigger: pre-context-compact", {
      name: "run",
      mode: 0o755,
    });
    const badRe = await hookMd(
      path.join(dir, "bad-re"),
      "trigger: before_tool\nmatcher:\n  pattern: '[a-'",
      {
        name: "run",
        mode: 0o755,
      },
    );
    const noFront = path.join(dir, "no-front", "HOOK.md");
    await writeFileIn(noFront, "# just docs\n");
    await writeFileIn(path.join(dir, "no-front", "scripts", "run"), "#!/bin/sh\n", 0o755);
    const registry = await load();
    expect(registry.hooks.map((h) => h.name)).toEqual(["ok"]);
    const reasons = Object.fromEntries(registry.broken.map((b) => [b.file, b.reason]));
    expect(Object.keys(reasons).sort()).toEqual(
      [badRe, badYaml, later, noFront, noScript, unknown].sort(),
    );
    expect(reasons[noScript]).toMatch(/no script/);
    expect(reasons[badYaml]).toMatch(/invalid YAML frontmatter/);
    expect(reasons[unknown]).toMatch(/unknown event "on-everything"/);
    expect(reasons[later]).toMatch(/unknown event "pre-context-compact"/);
    expect(reasons[badRe]).toMatch(/matcher\.pattern/);
    expect(reasons[noFront]).toMatch(/no YAML frontmatter/);
  });

  it("ask_ahead in the frontmatter: set on a persistent hook, warned about on a spawned one, refused if not a boolean", async () => {
    const dir = path.join(box.projectDir, ".acai", "hooks");
    const script = { name: "run.sh", mode: 0o755 };
    await hookMd(
      path.join(dir, "pure"),
      "trigger: before_tool\nmode: persistent\nask_ahead: true",
      script,
    );
    const spawned = await hookMd(
      path.join(dir, "spawned"),
      "trigger: before_tool\nask_ahead: true",
      script,
    );
    const bad = await hookMd(
      path.join(dir, "bad"),
      "trigger: before_tool\nask_ahead: yes please",
      script,
    );
    const registry = await load();
    const byName = Object.fromEntries(registry.hooks.map((h) => [h.name, h]));
    expect(Object.keys(byName).sort()).toEqual(["pure", "spawned"]);
    expect(byName.pure).toMatchObject({ askAhead: true, launch: { mode: "persistent" } });
    expect(byName.spawned).toMatchObject({ askAhead: true });
    expect(registry.warnings).toEqual([
      expect.stringContaining(`hook "spawned" (${spawned}) sets ask_ahead`),
    ]);
    expect(registry.broken).toEqual([
      expect.objectContaining({
        file: bad,
        reason: expect.stringMatching(/^invalid frontmatter: ask_ahead: /),
      }),
    ]);
  });

  it("reports unknown matcher keys, naming the key, instead of running on every tool call", async () => {
    const dir = path.join(box.projectDir, ".agents", "hooks");
    const script = { name: "run.sh", mode: 0o755 };
    const commandPattern = await hookMd(
      path.join(dir, "cmd"),
      "trigger: before_tool\nmatcher:\n  tool: Bash\n  command_pattern: 'rm -rf'",
      script,
    );
    const session = await hookMd(
      path.join(dir, "session"),
      "trigger: before_tool\nmatcher:\n  session_id: abc",
      script,
    );
    const typo = await hookMd(
      path.join(dir, "typo"),
      "trigger: before_tool\nmatcher:\n  tools: Bash",
      script,
    );
    const registry = await load();
    // A3S's session_id is a matcher of acai's too (one session); the others are refused.
    expect(registry.hooks.map((h) => [h.file, h.matcher])).toEqual([
      [session, { session_id: "abc" }],
    ]);
    const reasons = Object.fromEntries(registry.broken.map((b) => [b.file, b.reason]));
    expect(reasons[commandPattern]).toMatch(/unknown matcher key "command_pattern": use "command"/);
    expect(reasons[typo]).toMatch(
      /unknown matcher key "tools": acai's matcher keys are tool, pattern, command, path, source, session_id/,
    );
  });

  it("numbers hooks in configuration order: .acai/hooks then .agents/hooks, folders by name", async () => {
    const script = { name: "run.sh", mode: 0o755 };
    await hookMd(
      path.join(box.projectDir, ".agents", "hooks", "a-agents"),
      "trigger: before_tool",
      script,
    );
    await hookMd(
      path.join(box.projectDir, ".acai", "hooks", "z-acai"),
      "trigger: before_tool",
      script,
    );
    await hookMd(
      path.join(box.projectDir, ".acai", "hooks", "b-acai"),
      "trigger: before_tool",
      script,
    );
    await hookMd(
      path.join(box.homeDir, ".config", "agents", "hooks", "y-user"),
      "trigger: before_tool",
      script,
    );
    const registry = await load();
    expect(registry.hooks.map((h) => h.name)).toEqual(["y-user", "b-acai", "z-acai", "a-agents"]);
  });

  it("explains the spec's double-quoted pattern example, which YAML refuses, and how to write it", async () => {
    const spec = await readFrontmatter(
      '---\ntrigger: before_tool\nmatcher:\n  pattern: "\\.(py|js|ts)$"\n---\n',
    );
    expect(spec).toMatchObject({ ok: false });
    if (spec.ok) return;
    expect(spec.reason).toMatch(/Invalid escape sequence/);
    expect(spec.reason).toContain("write a regular expression in single quotes ('\\.(py|js|ts)$')");
    expect(await readFrontmatter("---\nmatcher:\n  pattern: '\\.(py|js|ts)$'\n---\n")).toEqual({
      ok: true,
      data: { matcher: { pattern: "\\.(py|js|ts)$" } },
    });
  });

  it("parses frontmatter with CRLF line endings and nothing after the closing fence", async () => {
    expect(await readFrontmatter("---\r\ntrigger: Stop\r\n---")).toEqual({
      ok: true,
      data: { trigger: "Stop" },
    });
    expect(await readFrontmatter("trigger: Stop\n")).toMatchObject({ ok: false });
    expect(await readFrontmatter("---\ntrigger: [Stop\n---\n")).toMatchObject({
      ok: false,
      reason: expect.stringContaining("invalid YAML frontmatter"),
    });
  });

  it("says what is wrong with the YAML, where in HOOK.md, and shows the line (not a dangling 'column 1:')", async () => {
    expect(await readFrontmatter("---\nname: x\nmatcher:\n\ttool: Bash\n---\n")).toEqual({
      ok: false,
      reason:
        'invalid YAML frontmatter: Tabs are not allowed as indentation (HOOK.md line 4, column 1: "\\ttool: Bash")',
    });
    expect(await readFrontmatter('---\ntrigger: before_tool\nname: "open\n---\n')).toEqual({
      ok: false,
      reason: expect.stringMatching(
        /^invalid YAML frontmatter: Missing closing "quote \(HOOK\.md line 3, column \d+: "name: \\"open"\)$/,
      ),
    });
    const long = `trigger: [${"x, ".repeat(60)}`;
    const cut = await readFrontmatter(`---\n${long}\n---\n`);
    expect(cut.ok).toBe(false);
    if (!cut.ok) {
      expect(cut.reason).toContain(`(HOOK.md line 2, column`);
      expect(cut.reason).toContain(`${long.slice(0, 80)}…`);
      expect(cut.reason).not.toMatch(/:\s*$/);
    }
  });

  it("names the HOOK.md and the YAML problem in the broken-hook warning", async () => {
    const dir = path.join(box.projectDir, ".acai", "hooks", "tabs");
    const file = await hookMd(dir, "trigger: before_tool\nmatcher:\n\ttool: Bash", {
      name: "run.sh",
      mode: 0o755,
    });
    const registry = await load();
    expect(registry.broken).toHaveLength(1);
    expect(brokenHookWarning(registry.broken[0] as BrokenHook)).toBe(
      `hook tabs (${file}) is not loaded: invalid YAML frontmatter: Tabs are not allowed as indentation (HOOK.md line 4, column 1: "\\ttool: Bash")`,
    );
  });
});
