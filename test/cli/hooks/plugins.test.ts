/**
 * Plugins in the toolkit (docs/hook-toolkit.md): `acai hooks list` shows a
 * plugin's hooks (a user plugin's always; an untrusted project plugin listed
 * but never imported) and a plugin that fails to load as broken with its
 * reason; `acai hooks test` runs a plugin's handler in its worker — a block,
 * a rewrite, a handler stuck in `while (true)` stopped at its timeout — and
 * `acai hooks replay` runs plugin hooks too.
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { modelArgs, STACK_TRACE, transcripts } from "../../e2e/helpers.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../../support/fake-openai-server.js";
import { type AcaiDirs, acai, tempProject } from "../commands/helpers.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

async function writePlugin(dir: string, name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await mkdir(dir, { recursive: true });
  await writeFile(file, text);
  return file;
}

const userPlugins = (d: AcaiDirs) => path.join(d.acaiHome, "plugins");
const projectPlugins = (d: AcaiDirs) => path.join(d.cwd, ".acai", "plugins");

/** Two hooks in one user plugin: one blocks `rm`, one rewrites `ls` into `ls -la`. */
const GUARD = `
export function register(api) {
  api.on("before_tool", (event) => {
    if (/\\brm\\b/.test(event.tool_input.command)) return { action: "block", reason: "PLUGIN-NO-RM: " + event.tool_input.command };
  }, { name: "no-rm", matcher: { tool: "Bash" }, priority: 700 });
  api.on("PreToolUse", (event) => {
    if (event.tool_input.command === "ls") return { action: "modify", input: { command: "ls -la" } };
  }, { name: "long-ls", matcher: { tool: "Bash", command: "^ls$" } });
}
`;

interface Listed {
  name: string;
  status: string;
  scope: string;
  source: string;
  file: string;
  trust: string;
  events?: string[];
  matcher?: Record<string, string>;
  priority?: number;
  timeout_ms?: number;
  reason?: string;
  note?: string;
}

async function listJson(d: AcaiDirs): Promise<Listed[]> {
  const result = await acai(d, ["hooks", "list", "--json"]);
  expect(result.exitCode, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { hooks: Listed[] }).hooks;
}

describe("acai hooks list: plugins", () => {
  it("shows a user plugin's hooks, an untrusted project plugin not imported, a plugin that fails to load as broken", async () => {
    dirs = await tempProject();
    const guard = await writePlugin(userPlugins(dirs), "guard.mjs", GUARD);
    const thrower = await writePlugin(
      userPlugins(dirs),
      "thrower.mjs",
      `throw new Error("PLUGIN-LOAD-FAILED on purpose");\n`,
    );
    const marker = path.join(dirs.root, "imported");
    const evil = await writePlugin(
      projectPlugins(dirs),
      "evil.mjs",
      `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "x");\nexport function register(api) { api.on("before_tool", () => ({ action: "block" }), { name: "evil-hook" }); }\n`,
    );

    const hooks = await listJson(dirs);
    const byName = new Map(hooks.map((h) => [h.name, h]));
    expect(byName.get("no-rm")).toMatchObject({
      status: "ok",
      scope: "user",
      source: "plugin",
      file: guard,
      trust: "user",
      events: ["before_tool"],
      matcher: { tool: "Bash" },
      priority: 700,
    });
    expect(byName.get("long-ls")).toMatchObject({
      status: "ok",
      source: "plugin",
      events: ["before_tool"],
      matcher: { tool: "Bash", command: "^ls$" },
      priority: 100,
    });
    expect(byName.get("evil.mjs")).toMatchObject({
      status: "unknown",
      scope: "project",
      source: "plugin",
      file: evil,
      trust: "untrusted",
    });
    expect(byName.has("evil-hook")).toBe(false);
    expect(byName.get("thrower.mjs")).toMatchObject({
      status: "broken",
      scope: "user",
      source: "plugin",
      file: thrower,
    });
    expect(byName.get("thrower.mjs")?.reason).toContain(
      "failed to load: Error: PLUGIN-LOAD-FAILED on purpose",
    );

    const text = await acai(dirs, ["hooks", "list"]);
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stderr).not.toMatch(STACK_TRACE);
    expect(text.stdout).toMatch(/no-rm {2}\(user plugin\)\n\s+events: {2}before_tool\n/);
    expect(text.stdout).toContain("Plugins not loaded (1)");
    expect(text.stdout).toContain("? evil.mjs  (.acai/plugins/evil.mjs)");
    expect(text.stdout).toMatch(
      /✗ thrower\.mjs {2}\(user plugin, .*thrower\.mjs\)\n\s+failed to load/,
    );
    // Listing ran nothing of the untrusted project: the plugin was never imported.
    expect(existsSync(marker)).toBe(false);

    // Trusted, the project plugin loads and its hooks are listed.
    expect((await acai(dirs, ["hooks", "trust"])).exitCode).toBe(0);
    const trusted = await listJson(dirs);
    expect(trusted.find((h) => h.name === "evil-hook")).toMatchObject({
      status: "ok",
      scope: "project",
      source: "plugin",
      trust: "trusted",
    });
    expect(existsSync(marker)).toBe(true);
  });
});

describe("acai hooks test: plugins", () => {
  it("runs a plugin's hook that blocks rm and one that rewrites the input, with their decisions", async () => {
    dirs = await tempProject();
    await writePlugin(userPlugins(dirs), "guard.mjs", GUARD);

    const blocked = await acai(dirs, [
      "hooks",
      "test",
      "no-rm",
      "--input",
      '{"tool_input":{"command":"rm -rf build"}}',
    ]);
    expect(blocked.stderr).toBe("");
    expect(blocked.exitCode).toBe(2);
    expect(blocked.stdout).toContain("Testing no-rm (user plugin, ");
    expect(blocked.stdout).toMatch(
      /payload sent \(to handler #0 of .*guard\.mjs, in the plugin's worker thread\):/,
    );
    expect(blocked.stdout).toContain('"tool_input":{"command":"rm -rf build"}');
    expect(blocked.stdout).toMatch(/handler: answered · \d+ ms/);
    expect(blocked.stdout).toContain("decision: block\n  reason:  PLUGIN-NO-RM: rm -rf build");
    expect(blocked.stdout).toContain("acai would: not run the tool;");

    const rewritten = await acai(dirs, [
      "hooks",
      "test",
      "long-ls",
      "--input",
      '{"tool_input":{"command":"ls"}}',
      "--json",
    ]);
    expect(rewritten.exitCode, rewritten.stderr).toBe(0);
    const report = JSON.parse(rewritten.stdout) as {
      hook: { name: string; source: string };
      decision: { action: string; input?: unknown };
      new_input?: unknown;
      would: string;
    };
    expect(report.hook).toMatchObject({ name: "long-ls", source: "plugin" });
    expect(report.decision).toMatchObject({ action: "modify", input: { command: "ls -la" } });
    expect(report.new_input).toEqual({ command: "ls -la" });
    expect(report.would).toBe("go on with the modification");

    // By the plugin's file: it registers two hooks on the same event, so one must be named.
    const byFile = await acai(dirs, ["hooks", "test", path.join(userPlugins(dirs), "guard.mjs")]);
    expect(byFile.exitCode).toBe(2);
    expect(byFile.stderr).toContain(
      "registers 2 hooks:\n  no-rm (before_tool)\n  long-ls (before_tool)",
    );
  });

  it("a plugin that fails to load is reported broken, with its reason", async () => {
    dirs = await tempProject();
    await writePlugin(userPlugins(dirs), "thrower.mjs", `throw new Error("LOAD-BOOM");\n`);
    const result = await acai(dirs, ["hooks", "test", "thrower.mjs", "--event", "before_tool"]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(
      /^acai: error: plugin thrower\.mjs \(.*thrower\.mjs\) is broken and would not run: failed to load: Error: LOAD-BOOM\n$/,
    );
  });

  it("a handler stuck in while (true) is stopped at its timeout; the failure is reported and acai exits", async () => {
    dirs = await tempProject();
    await writePlugin(
      userPlugins(dirs),
      "spin.mjs",
      `export function register(api) {\n  api.on("user_prompt", () => { while (true) {} }, { name: "spinner", timeoutMs: 300 });\n}\n`,
    );
    const result = await acai(dirs, ["hooks", "test", "spinner"], { timeoutMs: 15_000 });
    expect(result.timedOut).toBe(false);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(
      /handler: no answer · \d+ ms · TIMED OUT after 300 ms \(handler abandoned, its worker stopped\)/,
    );
    expect(result.stdout).toContain(
      "decision: failed\n  error:   timed out after 300 ms (its handler was abandoned)",
    );
    expect(result.stdout).toContain('failure policy "open": acai would warn and go on.');
    // Promptly: the worker is terminated, not waited for (acai's own start-up is most of it).
    expect(result.durationMs).toBeLessThan(8000);
  });

  it("does not import an untrusted project plugin, even when named", async () => {
    dirs = await tempProject();
    const marker = path.join(dirs.root, "imported");
    await writePlugin(
      projectPlugins(dirs),
      "evil.mjs",
      `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "x");\nexport function register() {}\n`,
    );
    for (const target of ["evil", path.join(".acai", "plugins", "evil.mjs")]) {
      const result = await acai(dirs, ["hooks", "test", target, "--event", "before_tool"]);
      expect(result.exitCode).toBe(4);
      expect(result.stderr).toContain("is a project plugin, and this project is not trusted");
      expect(result.stderr).toContain("acai hooks trust");
    }
    expect(existsSync(marker)).toBe(false);
  });
});

describe("acai hooks replay: plugins", () => {
  it("runs plugin hooks over a recorded session", async () => {
    dirs = await tempProject();
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Bash", input: { command: "rm -rf build" } }] },
      { text: "done" },
    ]);
    const run = await acai(dirs, ["-p", "clean up", "--yes", ...modelArgs("chat", server)], {
      baseUrl: server.url,
    });
    expect(run.exitCode, run.stderr).toBe(0);

    // The session ran without hooks; a plugin that blocks rm now decides differently.
    await writePlugin(userPlugins(dirs), "guard.mjs", GUARD);
    const [transcript] = await transcripts(dirs.acaiHome);
    const replayed = await acai(dirs, ["hooks", "replay", transcript as string]);
    expect(replayed.stderr).toBe("");
    expect(replayed.exitCode).toBe(0);
    expect(replayed.stdout).toContain("against the current hooks (2: no-rm, long-ls)");
    expect(replayed.stdout).toMatch(
      /no-rm \(user plugin\): block — PLUGIN-NO-RM: rm -rf build \[\d+ ms\]/,
    );
    expect(replayed.stdout).toContain("then: continue");
    expect(replayed.stdout).toContain('now:  block "PLUGIN-NO-RM: rm -rf build"   ← differs');
  });
});

describe("acai hooks list: hooks a plugin registers late", () => {
  it("says that hooks registered after register() returned join a running session, and lists none a handler would add", async () => {
    dirs = await tempProject();
    // OpenClaw's dynamic addition: a hook registered from a handler, only once a session runs.
    await writePlugin(
      userPlugins(dirs),
      "dynamic.mjs",
      `export function register(api) {
  api.registerHook({
    event: "before-agent-start",
    handler: async () => {
      api.registerHook({ event: "before-tool-call", handler: async () => ({ block: true }) });
    },
  });
}
`,
    );
    const text = await acai(dirs, ["hooks", "list"]);
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stderr).not.toMatch(STACK_TRACE);
    expect(text.stdout).toMatch(/dynamic\.mjs#0 {2}\(user plugin\)\n\s+events: {2}user_prompt\n/);
    expect(text.stdout).toContain(
      "note: a plugin may register more hooks after its register() returned (on a timer, in a handler): they join a running session",
    );
    expect(text.stdout).not.toContain("before_tool");
    const json = JSON.parse((await acai(dirs, ["hooks", "list", "--json"])).stdout) as {
      hooks: Listed[];
      notes?: string[];
    };
    expect(json.hooks.map((h) => h.name)).toEqual(["dynamic.mjs#0"]);
    expect(json.notes?.[0]).toContain("join a running session");
  });
});
