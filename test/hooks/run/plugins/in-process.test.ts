/**
 * `isolation: "none"` (in-process.ts): a user plugin named in the user's
 * settings runs in acai's own thread behind the same host — answers, throws,
 * never-resolving handlers and late registrations as in a worker — and no
 * project plugin is ever chosen for it.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HookDefinition, PluginLaunch } from "../../../../source/hooks/contract/definition.js";
import { PluginHost } from "../../../../source/hooks/run/plugins/host.js";
import { inProcessPlugins } from "../../../../source/hooks/run/plugins/session.js";

let dir: string;
let host: PluginHost | undefined;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "acai-plugin-inproc-"));
});
afterEach(async () => {
  await host?.close();
  host = undefined;
  await rm(dir, { recursive: true, force: true });
});

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

const PLUGIN = `
import { isMainThread } from "node:worker_threads";
export function register(api) {
  api.on("before_tool", (e) => ({ action: "block", reason: (isMainThread ? "main " : "worker ") + e.tool_input.command }));
  api.on("before_tool", () => { throw new TypeError("boom"); });
  api.on("before_tool", (e, signal) => new Promise((resolve) => signal.addEventListener("abort", () => resolve())));
  api.on("before_tool", () => 42);
  setTimeout(() => api.registerHook({ event: "before-tool-call", handler: () => ({ block: true, blockReason: "late" }) }), 0);
}`;

async function loaded(inProcess: boolean) {
  const file = path.join(dir, "p.mjs");
  await writeFile(file, PLUGIN);
  const late: unknown[] = [];
  host = new PluginHost({ env: {}, inProcess: new Set(inProcess ? [file] : []) });
  const load = await host.load(file, "plugin", (l) => late.push(l));
  const call = (registration: number, timeoutMs = 1000) => {
    const hook = hookOf(file, registration, timeoutMs);
    const payload = { tool_name: "Bash", tool_input: { command: "ls" } };
    return host?.call({ hook, launch: hook.launch as PluginLaunch, event: "before_tool", payload });
  };
  return { load, call, late };
}

describe('a plugin with isolation: "none"', () => {
  it("answers from acai's thread, with the same failures as in a worker", async () => {
    for (const inProcess of [true, false]) {
      const { load, call, late } = await loaded(inProcess);
      expect(load.ok).toBe(true);
      const where = inProcess ? "main" : "worker";
      expect((await call(0))?.decision).toMatchObject({ action: "block", reason: `${where} ls` });
      expect((await call(1))?.decision).toMatchObject({ action: "failed" });
      expect((await call(1))?.stderr).toContain("threw TypeError: boom");
      const abandoned = await call(2, 150);
      expect(abandoned?.timedOut).toBe(true);
      expect((await call(3))?.decision).toMatchObject({ action: "failed" });
      // The late OpenClaw registration arrived and is callable at its index.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(late).toMatchObject([{ kind: "registration", index: 4 }]);
      expect((await call(4))?.decision).toMatchObject({ action: "block", reason: "late" });
      await host?.close();
      host = undefined;
    }
  });

  it("is chosen only for the user's own plugin files named in the user's settings", () => {
    const user = { file: "/home/u/.acai/plugins/fast.mjs", scope: "user" as const };
    const project = { file: "/p/.acai/plugins/fast.mjs", scope: "project" as const };
    const relay = {
      file: "/home/u/.acai/fast.mjs",
      scope: "user" as const,
      kind: "relay-config" as const,
    };
    const other = { file: "/home/u/.acai/plugins/other.mjs", scope: "user" as const };
    const settings = {
      "fast.mjs": { isolation: "none" as const },
      "other.mjs": { isolation: "worker" as const },
    };
    expect([...inProcessPlugins([user, project, relay, other], settings)]).toEqual([user.file]);
    expect([...inProcessPlugins([user], undefined)]).toEqual([]);
  });
});
