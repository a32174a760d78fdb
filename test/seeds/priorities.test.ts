/**
 * Priorities exactly as each system orders them, through `acai -p` (issue 20,
 * item 3): one session with hooks of every convention on `before_tool` —
 * A3S (lower first, default 100) and OpenClaw (lower first, default 0)
 * registered by a plugin, Agent Hooks HOOK.md folders and a settings hook
 * (higher first, default 100) — each logging its name when it runs. The unit
 * table is test/hooks/contract/priority-conventions.test.ts.
 */
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { replayModel } from "./support.js";

let dirs: AcaiDirs;
beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-seeds-priorities-");
});
afterEach(async () => {
  await dirs.cleanup();
});

const LOG = `
import { appendFileSync } from "node:fs";
const ran = (name) => appendFileSync(process.env.SEEDS_LOG, name + "\\n");
`;

/** One plugin file per system, as their users would write them. */
const PLUGINS: Record<string, string> = {
  // A3S, as its seed registers them (HookConfig.priority: lower first, default 100).
  "a3s.mjs": `${LOG}
export function register(engine) {
  for (const [id, config] of [["a3s-200", { priority: 200 }], ["a3s-150", { priority: 150 }], ["a3s-default", {}]]) {
    engine.register({ id, event_type: "pre_tool_use", config });
    engine.register_handler(id, { handle: () => { ran(id); return { action: "Continue" }; } });
  }
}`,
  // OpenClaw's own example: "priority: 100, // Run after other hooks".
  "openclaw.mjs": `${LOG}
export function register(api) {
  api.registerHook({ event: "before-tool-call", handler: async () => { ran("claw-100"); }, priority: 100 });
  api.registerHook({ event: "before-tool-call", handler: async () => { ran("claw-unset"); } });
}`,
  "zz-acai.mjs": `${LOG}
export function register(api) {
  api.on("before_tool", () => { ran("acai-on"); });
}`,
};

async function hookMd(name: string, priority?: number): Promise<void> {
  const dir = path.join(dirs.home, ".config", "agents", "hooks", name);
  await mkdir(path.join(dir, "scripts"), { recursive: true });
  const front = ["---", `name: ${name}`, `description: logs ${name}`, "trigger: before_tool"];
  if (priority !== undefined) front.push(`priority: ${priority}`);
  await writeFile(path.join(dir, "HOOK.md"), `${front.join("\n")}\n---\n`);
  const script = path.join(dir, "scripts", "run.sh");
  await writeFile(script, `#!/bin/sh\ncat >/dev/null\necho ${name} >> "$SEEDS_LOG"\n`);
  await chmod(script, 0o755);
}

describe("priorities across the systems' conventions through acai -p", () => {
  it("runs every system's hooks in the order its own system gives them, defaults included", async () => {
    const log = path.join(dirs.root, "order.log");
    await mkdir(path.join(dirs.acaiHome, "plugins"), { recursive: true });
    for (const [name, text] of Object.entries(PLUGINS)) {
      await writeFile(path.join(dirs.acaiHome, "plugins", name), text);
    }
    await hookMd("a-security", 999);
    await hookMd("z-notify");
    const settingsHook = { type: "command", command: `echo settings >> "${log}"` };
    await writeFile(
      path.join(dirs.acaiHome, "settings.json"),
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [settingsHook] }] } }),
    );
    const model = await replayModel(dirs, [{ name: "Bash", input: { command: "echo hi" } }]);
    const result = await runAcai({
      args: ["-p", "go", "--model", model, "--allowedTools", "Bash"],
      dirs,
      env: { SEEDS_LOG: log },
      timeoutMs: 30_000,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect((await readFile(log, "utf8")).trim().split("\n")).toEqual([
      "claw-unset", // OpenClaw 0 → 1000
      "a-security", // Agent Hooks 999
      "a3s-default", // A3S 100 → 900; a tie: plugin files by name,
      "claw-100", // OpenClaw 100 → 900
      "a3s-150", // 850
      "a3s-200", // 800
      "z-notify", // Agent Hooks default 100: folders first,
      "acai-on", // then plugins,
      "settings", // then settings
    ]);
  });
});

describe("OpenClaw's own order through acai -p", () => {
  it("modifying hooks run lower first (unset = 0), each seeing the arguments as the ones before changed them; equal priorities in registration order", async () => {
    const log = path.join(dirs.root, "order.log");
    await mkdir(path.join(dirs.acaiHome, "plugins"), { recursive: true });
    const append = (label: string, priority?: number) => `
  api.registerHook({
    event: "before-tool-call",${priority === undefined ? "" : `\n    priority: ${priority},`}
    handler: async (ctx) => {
      ran("${label} " + ctx.args.command);
      return { params: { ...ctx.args, command: ctx.args.command + " ${label}" } };
    },
  });`;
    await writeFile(
      path.join(dirs.acaiHome, "plugins", "claw-order.mjs"),
      `${LOG}
export function register(api) {${append("p100", 100)}${append("p10", 10)}${append("unset")}${append("p50", 50)}${append("p10b", 10)}
}`,
    );
    const model = await replayModel(dirs, [{ name: "Bash", input: { command: "echo x" } }]);
    const result = await runAcai({
      args: ["-p", "go", "--model", model, "--allowedTools", "Bash"],
      dirs,
      env: { SEEDS_LOG: log },
      timeoutMs: 30_000,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect((await readFile(log, "utf8")).trim().split("\n")).toEqual([
      "unset echo x",
      "p10 echo x unset",
      "p10b echo x unset p10",
      "p50 echo x unset p10 p10b",
      "p100 echo x unset p10 p10b p50",
    ]);
  });

  it("void hooks start in the same order, and none waits for another", async () => {
    const log = path.join(dirs.root, "order.log");
    await mkdir(path.join(dirs.acaiHome, "plugins"), { recursive: true });
    // The first to start (priority 1) finishes only once the last (priority 100) has started.
    await writeFile(
      path.join(dirs.acaiHome, "plugins", "claw-void.mjs"),
      `${LOG}
import { existsSync } from "node:fs";
const flag = process.env.SEEDS_LOG + ".last";
export function register(api) {
  api.registerHook({ event: "after-tool-call", priority: 1, handler: async () => {
    ran("first started");
    for (let i = 0; i < 200 && !existsSync(flag); i++) await new Promise((r) => setTimeout(r, 50));
    ran("first done, last seen: " + existsSync(flag));
  } });
  api.registerHook({ event: "after-tool-call", priority: 100, handler: async () => {
    ran("last started");
    appendFileSync(flag, "");
  } });
}`,
    );
    const model = await replayModel(dirs, [{ name: "Bash", input: { command: "echo x" } }]);
    const result = await runAcai({
      args: ["-p", "go", "--model", model, "--allowedTools", "Bash"],
      dirs,
      env: { SEEDS_LOG: log },
      timeoutMs: 30_000,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect((await readFile(log, "utf8")).trim().split("\n")).toEqual([
      "first started",
      "last started",
      "first done, last seen: true",
    ]);
  });
});
