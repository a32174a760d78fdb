/**
 * Plugins (hooks.md §6.3), end to end through `acai -p`: acai's `api.on`
 * blocks and rewrites a tool call (a .ts plugin too), OpenClaw's
 * `api.registerHook` and A3S's `register` + `register_handler` work as their
 * own docs describe (lower priority first), a handler stuck in `while (true)`
 * is stopped at its timeout and the session goes on, and a project plugin is
 * not imported before the project is trusted.
 */
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
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

async function plugin(d: AcaiDirs, name: string, text: string): Promise<string> {
  const file = path.join(d.cwd, ".acai", "plugins", name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

/** Command lines of running processes that contain `text`. */
async function processesRunning(text: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await readdir("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    if (cmdline.split("\0").join(" ").includes(text)) found.push(cmdline);
  }
  return found;
}

const bash = (command: string) => ({ toolCalls: [{ name: "Bash", input: { command } }] });

function run(d: AcaiDirs, s: FakeOpenAIServer, extra: string[] = ["--trust-project-hooks"]) {
  return runAcai({
    dirs: d,
    args: ["-p", "go", "--yes", ...extra, ...modelArgs("chat", s)],
    baseUrl: s.url,
    env: { HOOK_E2E_DIR: d.root },
    timeoutMs: 30_000,
  });
}

const ACAI_PLUGIN = `
import { appendFileSync } from "node:fs";
export function register(api) {
  api.on("before_tool", (event, signal) => {
    appendFileSync(process.env.HOOK_E2E_DIR + "/acai-seen", event.tool_input.command + (signal instanceof AbortSignal ? " signal" : "") + "\\n");
    if (/rm\\s+-rf/.test(event.tool_input.command)) return { action: "block", reason: "PLUGIN-BLOCKED" };
    if (event.tool_input.command === "echo old") return { action: "modify", input: { command: "echo PLUGIN-REWROTE" } };
  }, { matcher: { tool: "Bash" }, priority: 500, name: "guard" });
}
`;

const TS_PLUGIN = `
interface Payload { tool_input: { command: string } }
export function register(api: { on: (e: string, h: (p: Payload) => unknown) => void }): void {
  api.on("PreToolUse", (payload: Payload) =>
    payload.tool_input.command.includes("ts-block") ? { decision: "block", reason: "TS-PLUGIN-BLOCKED" } : undefined,
  );
}
`;

describe("plugins through acai -p", () => {
  it("acai's api.on blocks a tool and rewrites an input; a .ts plugin answers in Claude Code's dialect", async () => {
    dirs = await makeAcaiDirs("acai-plugins-");
    await plugin(dirs, "guard.mjs", ACAI_PLUGIN);
    await plugin(dirs, "typed.ts", TS_PLUGIN);
    server = await startFakeOpenAI([
      bash("rm -rf /tmp/acai-plugin-victim"),
      bash("echo old"),
      bash("echo ts-block"),
      { text: "finished" },
    ]);
    const result = await run(dirs, server);
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain("finished");
    const results = (i: number) => toolResultsSent(server?.requests[i]?.body).at(-1) ?? "";
    expect(results(1)).toContain("PLUGIN-BLOCKED");
    expect(results(2)).toContain("PLUGIN-REWROTE");
    expect(results(3)).toContain("TS-PLUGIN-BLOCKED");
    const seen = await readFile(path.join(dirs.root, "acai-seen"), "utf8");
    expect(seen).toContain("rm -rf /tmp/acai-plugin-victim signal");
  });

  it("OpenClaw's registerHook and A3S's register run lower priority first, with their own answers", async () => {
    dirs = await makeAcaiDirs("acai-plugins-shapes-");
    await plugin(
      dirs,
      "openclaw.mjs",
      `
import { appendFileSync } from "node:fs";
const log = (line) => appendFileSync(process.env.HOOK_E2E_DIR + "/order", line + "\\n");
export function register(api) {
  api.registerHook({ event: "before-tool-call", priority: 100, handler: async (ctx) => {
    log("openclaw-100 " + ctx.toolName + " " + ctx.params.command);
  }});
  api.registerHook({ event: "before-tool-call", priority: 5, handler: async (ctx) => {
    log("openclaw-5 " + ctx.toolName + " " + ctx.params.command + " " + typeof ctx.sessionKey);
    if (ctx.params.command.includes("claw-block")) return { block: true, blockReason: "OPENCLAW-BLOCKED" };
    if (ctx.params.command === "echo claw") return { params: { command: "echo OPENCLAW-PARAMS" } };
  }});
}
`,
    );
    await plugin(
      dirs,
      "a3s.mjs",
      `
import { appendFileSync } from "node:fs";
const log = (line) => appendFileSync(process.env.HOOK_E2E_DIR + "/order", line + "\\n");
export function register(engine) {
  engine.register({ id: "block-rm-rf", event_type: "PreToolUse",
    matcher: { tool: "Bash", command_pattern: "rm\\\\s+-rf" }, config: { priority: 1 } });
  engine.register_handler("block-rm-rf", {
    handle: (event) => { log("a3s-1 " + event.event_type + " " + event.payload.args.command);
      return { action: "Block", reason: "A3S-BLOCKED" }; },
  });
  engine.register({ id: "add-timeout", event_type: "PreToolUse", matcher: { tool: "Bash" }, config: { priority: 50 } });
  engine.register_handler("add-timeout", { handle: (event) => {
    log("a3s-50 " + event.payload.args.command);
    if (event.payload.args.command === "echo a3s") {
      return { action: "Continue", modified: { ...event.payload.args, command: "echo A3S-MODIFIED" } };
    }
    return { action: "Continue" };
  }});
}
`,
    );
    server = await startFakeOpenAI([
      bash("rm -rf /tmp/acai-a3s-victim"),
      bash("echo claw-block"),
      bash("echo claw"),
      bash("echo a3s"),
      { text: "finished" },
    ]);
    const result = await run(dirs, server);
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.exitCode, result.stderr).toBe(0);
    const results = (i: number) => toolResultsSent(server?.requests[i]?.body).at(-1) ?? "";
    expect(results(1)).toContain("A3S-BLOCKED");
    expect(results(2)).toContain("OPENCLAW-BLOCKED");
    expect(results(3)).toContain("OPENCLAW-PARAMS");
    expect(results(4)).toContain("A3S-MODIFIED");
    const order = (await readFile(path.join(dirs.root, "order"), "utf8")).trim().split("\n");
    // Lower runs first across both shapes: A3S 1, OpenClaw 5, A3S 50, OpenClaw 100; a block ends the chain.
    expect(order).toEqual([
      "a3s-1 PreToolUse rm -rf /tmp/acai-a3s-victim",
      "openclaw-5 Bash echo claw-block string",
      "openclaw-5 Bash echo claw string",
      "a3s-50 echo OPENCLAW-PARAMS",
      "openclaw-100 Bash echo OPENCLAW-PARAMS",
      "openclaw-5 Bash echo a3s string",
      "a3s-50 echo a3s",
      "openclaw-100 Bash echo A3S-MODIFIED",
    ]);
  });

  it("a handler stuck in while (true) is stopped at its timeout; the session goes on, and acai exits", async () => {
    dirs = await makeAcaiDirs("acai-plugins-stuck-");
    await plugin(
      dirs,
      "stuck.mjs",
      `
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
const spun = process.env.HOOK_E2E_DIR + "/spun";
export function register(api) {
  // A daemon of its own, in a new session: the containment marker still finds it.
  spawn("sleep", ["987.654"], { detached: true, stdio: "ignore" }).unref();
  api.on("before_tool", () => {
    if (!existsSync(spun)) { writeFileSync(spun, ""); while (true) {} }
    return { action: "block", reason: "RESTARTED-PLUGIN-ANSWERS" };
  }, { timeoutMs: 300, name: "spinner" });
}
`,
    );
    server = await startFakeOpenAI([
      bash("echo first"),
      bash("echo second"),
      // Asked for well after the stuck thread was found (timeout 300 ms + ping grace
      // 500 ms after the first call): by then the plugin has been stopped, and the
      // third call starts it again. Without the wait a fast machine can send it to
      // the blocked thread too.
      { ...bash("echo third"), delayMs: 2000 },
      { text: "finished" },
    ]);
    const result = await run(dirs, server);
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain("finished");
    expect(result.stderr).toMatch(/spinner.*timed out after 300 ms/);
    const results = (i: number) => toolResultsSent(server?.requests[i]?.body).at(-1) ?? "";
    // Failure open: the first call ran. The second ran too when it reached the blocked thread
    // before it was found stuck (a slow machine may send it after: then the restarted plugin
    // answers it). The plugin was stopped and started again, and answers the third.
    expect(results(1)).toContain("first");
    expect(results(2)).toMatch(/second|RESTARTED-PLUGIN-ANSWERS/);
    expect(results(3)).toContain("RESTARTED-PLUGIN-ANSWERS");
    // Nothing of the plugin outlives acai: its threads ended with it, its daemons were swept.
    expect(await processesRunning("sleep 987.654")).toEqual([]);
  });

  it("api.pattern answers agent-relay @namespace:target lines of its namespace only", async () => {
    dirs = await makeAcaiDirs("acai-plugins-pattern-");
    await plugin(
      dirs,
      "deploy.mjs",
      `
export function register(api) {
  api.pattern("deploy", (event) => "DEPLOY-ACK " + event.target + ": " + event.message);
  api.pattern("deploy.other", () => "WRONG-NAMESPACE");
}
`,
    );
    server = await startFakeOpenAI([{ text: "@deploy:staging Release v1.2.3" }, { text: "done" }]);
    const result = await run(dirs, server);
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.exitCode, result.stderr).toBe(0);
    const followUp = JSON.stringify(server.requests[1]?.body ?? {});
    expect(followUp).toContain("DEPLOY-ACK staging: Release v1.2.3");
    expect(followUp).not.toContain("WRONG-NAMESPACE");
  });

  it("a project plugin is not imported before trust", { timeout: 60_000 }, async () => {
    dirs = await makeAcaiDirs("acai-plugins-trust-");
    const marker = path.join(dirs.root, "imported");
    await plugin(
      dirs,
      "evil.mjs",
      `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "x");\nexport function register() {}\n`,
    );
    server = await startFakeOpenAI([{ text: "finished" }]);
    const refused = await run(dirs, server, []);
    expect(refused.exitCode).toBe(4);
    expect(refused.stderr).toContain("evil.mjs");
    const without = await run(dirs, server, ["--no-project-hooks"]);
    expect(without.exitCode, without.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
    const trusted = await run(dirs, server, ["--trust-project-hooks"]);
    expect(trusted.exitCode, trusted.stderr).toBe(0);
    expect(existsSync(marker), trusted.stderr).toBe(true);
  });
});
