/**
 * The plugin host against hostile plugins: throws, never resolves, blocks its
 * thread, answers too much or too deep, exits its worker, or fails to load.
 * Each is that hook's failure (or a broken plugin), never acai's.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HookDefinition, PluginLaunch } from "../../../../source/hooks/contract/definition.js";
import { PluginHost } from "../../../../source/hooks/run/plugins/host.js";

let dir: string;
let host: PluginHost;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "acai-plugin-host-"));
  host = new PluginHost({ env: {}, stuckGraceMs: 200 });
});
afterEach(async () => {
  await host.close();
  await rm(dir, { recursive: true, force: true });
});

async function plugin(body: string): Promise<string> {
  const file = path.join(dir, `p${Math.random().toString(36).slice(2)}.mjs`);
  await writeFile(file, body);
  return file;
}

function hookOf(file: string, registration = 0, timeoutMs = 1000): HookDefinition {
  const launch: PluginLaunch = {
    mode: "plugin",
    command: file,
    args: [`#${registration}`],
    viaShell: false,
    registration,
  };
  return {
    id: `user:plugin:${file}#${registration}`,
    name: `p#${registration}`,
    events: ["before_tool"],
    matcher: {},
    priority: 100,
    timeoutMs,
    async: false,
    failure: "open",
    env: [],
    scope: "user",
    sourceKind: "plugin",
    file,
    dialect: "acai",
    launch,
  };
}

const payload = { tool_name: "Bash", tool_input: { command: "ls" } };

async function call(file: string, registration = 0, timeoutMs = 1000, signal?: AbortSignal) {
  const hook = hookOf(file, registration, timeoutMs);
  return host.call({
    hook,
    launch: hook.launch as PluginLaunch,
    event: "before_tool",
    payload,
    ...(signal ? { signal } : {}),
  });
}

describe("plugin host", () => {
  it("loads registrations and answers; each failure mode is the hook's failure", async () => {
    const file = await plugin(`
export function register(api) {
  api.on("before_tool", (e) => ({ action: "block", reason: e.tool_input.command }));
  api.on("before_tool", () => { throw new TypeError("boom"); });
  api.on("before_tool", () => new Promise(() => {}));
  api.on("before_tool", () => ({ context: "x".repeat(2 * 1024 * 1024) }));
  api.on("before_tool", () => { let a = {}; for (let i = 0; i < 200; i++) a = { a }; return a; });
  api.on("before_tool", () => 42);
  api.on("before_tool", () => "plain words");
}`);
    const load = await host.load(file);
    expect(load.ok && load.registrations.length).toBe(7);
    expect((await call(file, 0)).decision).toEqual({ action: "block", reason: "ls" });
    expect((await call(file, 1)).decision).toMatchObject({
      action: "failed",
      error: expect.stringContaining("threw TypeError: boom"),
    });
    const never = await call(file, 2, 150);
    expect(never.timedOut).toBe(true);
    expect(never.decision).toMatchObject({
      error: expect.stringContaining("timed out after 150 ms"),
    });
    expect((await call(file, 3)).decision).toMatchObject({
      error: expect.stringContaining("more than 1 MiB"),
    });
    expect((await call(file, 4)).decision).toMatchObject({
      error: expect.stringContaining("nested more than"),
    });
    expect((await call(file, 5)).decision).toMatchObject({
      error: expect.stringContaining("returned a number"),
    });
    expect((await call(file, 6)).decision).toEqual({ action: "continue", log: "plain words" });
    // A never-resolving handler does not block the plugin: it still answers.
    expect((await call(file, 0)).decision.action).toBe("block");
  });

  /**
   * A plugin whose handler spins forever at its first call (a flag file marks it), is found
   * stuck and stopped: the first call times out, the next fails on the blocked thread. Its
   * next start runs `onRestart` first; then the handler runs `beforeAnswer` and blocks "fresh".
   */
  async function stoppedOnce(onRestart = "", beforeAnswer = ""): Promise<string> {
    const flag = JSON.stringify(path.join(dir, "spun"));
    const file = await plugin(`
import { existsSync, writeFileSync } from "node:fs";
if (existsSync(${flag})) { ${onRestart} }
export function register(api) {
  api.on("before_tool", async () => {
    if (!existsSync(${flag})) { writeFileSync(${flag}, ""); while (true) {} }
    ${beforeAnswer}
    return { action: "block", reason: "fresh" };
  });
}`);
    await host.load(file);
    expect((await call(file, 0, 150)).timedOut).toBe(true);
    // Sent to the blocked thread: fails when the thread is found stuck and stopped.
    expect((await call(file, 0, 5000)).decision).toMatchObject({
      error: expect.stringContaining("blocked past the hook's timeout"),
    });
    return file;
  }

  it("a blocked thread is stopped after its timeout and started again for the next call", async () => {
    const file = await stoppedOnce();
    expect((await call(file, 0)).decision).toEqual({ action: "block", reason: "fresh" });
  });

  it("a plugin started again has its handler's timeout from when the call reaches it, not from the restart", async () => {
    const file = await stoppedOnce(
      "const end = Date.now() + 800; while (Date.now() < end) {}",
      "await new Promise((resolve) => setTimeout(resolve, 150));",
    );
    // The restart takes 800 ms; the handler then answers in 150 ms, inside its 400 ms.
    const again = await call(file, 0, 400);
    expect(again.timedOut).toBe(false);
    expect(again.decision).toEqual({ action: "block", reason: "fresh" });
  });

  it("an abort ends the call at once", async () => {
    const file = await plugin(
      `export function register(api) { api.on("before_tool", () => new Promise(() => {})); }`,
    );
    await host.load(file);
    const controller = new AbortController();
    const pending = call(file, 0, 30_000, controller.signal);
    controller.abort();
    const record = await pending;
    expect(record.aborted).toBe(true);
  });

  it("a worker that exits fails its calls; the plugin comes back on the next", async () => {
    const file = await plugin(`
export function register(api) {
  api.on("before_tool", () => process.exit(3));
  api.on("before_tool", () => ({ action: "skip" }));
}`);
    await host.load(file);
    expect((await call(file, 0)).decision).toMatchObject({ action: "failed" });
    expect((await call(file, 1)).decision).toEqual({ action: "skip" });
  });

  it("a plugin without register, or whose register throws or hangs, is broken with a reason", async () => {
    const none = await plugin("export const x = 1;");
    expect(await host.load(none)).toEqual({
      ok: false,
      reason: expect.stringContaining("exports no register(api) function"),
    });
    const throws = await plugin("export function register() { throw new Error('nope'); }");
    expect(await host.load(throws)).toEqual({
      ok: false,
      reason: expect.stringContaining("failed to load: Error: nope"),
    });
    const syntax = await plugin("export function register( {");
    expect(await host.load(syntax)).toMatchObject({ ok: false });
    const slow = new PluginHost({ env: {}, loadTimeoutMs: 300 });
    const hangs = await plugin("export function register() { while (true) {} }");
    expect(await slow.load(hangs)).toEqual({
      ok: false,
      reason: "register(api) did not finish in 300 ms",
    });
    await slow.close();
  });
});
