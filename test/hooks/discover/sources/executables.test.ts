import { readFile, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { metadataCachePath } from "../../../../source/hooks/discover/metadata-cache.js";
import {
  describeUntrusted,
  loadHookRegistry,
  scanHookSources,
} from "../../../../source/hooks/discover/registry.js";
import {
  baseEnv,
  countingRunner,
  makeSandbox,
  type Sandbox,
  writeFileIn,
  writeHook,
} from "./helpers.js";

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
});
afterEach(async () => {
  await box.cleanup();
});

const projectHooks = () => path.join(box.projectDir, ".acai", "hooks");
const userHooks = () => path.join(box.acaiHome, "hooks");

async function load(
  runner = countingRunner().runner,
  extra: { describeTimeoutMs?: number; confirmedEnv?: Record<string, string[]> } = {},
) {
  const scan = await scanHookSources({
    projectDir: box.projectDir,
    acaiHome: box.acaiHome,
    homeDir: box.homeDir,
    settingsFiles: [],
  });
  return loadHookRegistry(scan, {
    includeProject: true,
    runner,
    env: { ...baseEnv, MY_API_KEY: "sk-secret", TOKEN: "bare-token", PLAIN: "visible" },
    acaiHome: box.acaiHome,
    projectDir: box.projectDir,
    ...extra,
  });
}

describe("executable hooks", () => {
  it("loads project and user executables with either event spelling and applies defaults", async () => {
    const guard = await writeHook(projectHooks(), "guard", {
      name: "guard",
      description: "blocks rm",
      events: ["PreToolUse", "after_tool"],
      matcher: { tool: "Bash", command: "rm\\s+-rf" },
      priority: 900,
      timeout_ms: 5000,
      failure: "closed",
      env: ["SLACK_TOKEN"],
    });
    const notify = await writeHook(userHooks(), "notify", { events: ["Notification"] });
    // The describe env request counts once confirmed (project/env-confirmation.ts).
    const registry = await load(undefined, {
      confirmedEnv: { ".acai/hooks/guard": ["SLACK_TOKEN"] },
    });
    expect(registry.broken).toEqual([]);
    expect(registry.hooks.map((h) => h.name)).toEqual(["guard", "notify"]);
    const [g, n] = registry.hooks;
    expect(g).toMatchObject({
      id: `project:executable:${guard}`,
      events: ["before_tool", "after_tool"],
      matcher: { tool: "Bash", command: "rm\\s+-rf" },
      priority: 900,
      timeoutMs: 5000,
      async: false,
      failure: "closed",
      env: ["SLACK_TOKEN"],
      scope: "project",
      sourceKind: "executable",
      file: guard,
      dialect: "acai",
      launch: { command: guard, args: [], viaShell: false },
    });
    expect(n).toMatchObject({
      name: "notify", // defaults to the file name
      events: ["notification"],
      priority: 100,
      timeoutMs: 30_000,
      async: false,
      failure: "open",
      env: [],
      scope: "user",
      file: notify,
    });
    const unconfirmed = await load();
    expect(unconfirmed.hooks[0]?.env).toEqual([]);
    expect(unconfirmed.warnings).toContainEqual(
      expect.stringContaining("Project hook guard (.acai/hooks/guard) asks for SLACK_TOKEN"),
    );
    expect(unconfirmed.projectEnvRequests.map((h) => [h.name, h.env])).toEqual([
      ["guard", ["SLACK_TOKEN"]],
    ]);
  });

  it("describes with HOOK_ACTION=describe, project cwd and no secrets", async () => {
    const envDump = path.join(box.root, "env.txt");
    await writeFileIn(
      path.join(projectHooks(), "envdump"),
      `#!/usr/bin/env bash\nenv > '${envDump}'\npwd >> '${envDump}'\necho '{"events":["session_start"]}'\n`,
      0o755,
    );
    const registry = await load();
    expect(registry.hooks).toHaveLength(1);
    const dump = await readFile(envDump, "utf8");
    expect(dump).toContain("HOOK_ACTION=describe");
    expect(dump).toContain(`ACAI_PROJECT_DIR=${box.projectDir}`);
    expect(dump).toContain("PLAIN=visible");
    expect(dump).not.toContain("sk-secret");
    // The same rule as execute (environment.ts): a bare `TOKEN` is a secret too.
    expect(dump).not.toContain("bare-token");
    expect(dump.trim().split("\n").at(-1)).toBe(box.projectDir);
  });

  it("reports broken metadata, unknown events, bad regexes and failing describes by file; the rest load", async () => {
    const dir = projectHooks();
    await writeHook(dir, "good", { events: ["before_tool"] });
    const garbage = await writeHook(dir, "garbage", "this is not json");
    const unknown = await writeHook(dir, "unknown-event", { events: ["BeforeEverything"] });
    const badRegex = await writeHook(dir, "bad-regex", {
      events: ["before_tool"],
      matcher: { tool: "(Bash" },
    });
    const badField = await writeHook(dir, "bad-field", { events: ["before_tool"], priority: 5000 });
    const typo = await writeHook(dir, "typo", {
      events: ["before_tool"],
      matcher: { tools: "Bash" },
    });
    const crash = await writeFileIn(
      path.join(dir, "crash"),
      "#!/bin/sh\necho oops >&2\nexit 3\n",
      0o755,
    );
    const registry = await load();
    expect(registry.hooks.map((h) => h.name)).toEqual(["good"]);
    const reasons = Object.fromEntries(registry.broken.map((b) => [b.file, b.reason]));
    expect(Object.keys(reasons).sort()).toEqual(
      [badField, badRegex, crash, garbage, typo, unknown].sort(),
    );
    expect(reasons[garbage]).toMatch(/did not print valid JSON/);
    expect(reasons[unknown]).toMatch(/unknown event "BeforeEverything"/);
    expect(reasons[badRegex]).toMatch(/invalid regular expression in matcher\.tool "\(Bash"/);
    expect(reasons[badField]).toMatch(/priority/);
    expect(reasons[typo]).toMatch(
      /invalid metadata: matcher: unknown matcher key "tools": acai's matcher keys are tool, pattern, command, path, source/,
    );
    expect(reasons[crash]).toMatch(/exited with code 3: oops/);
    expect(
      registry.broken.every((b) => b.sourceKind === "executable" && b.scope === "project"),
    ).toBe(true);
  });

  it("ask_ahead: set on a persistent hook; accepted with a warning on a spawned one; not a boolean is broken", async () => {
    const dir = projectHooks();
    await writeHook(dir, "pure", { events: ["before_tool"], mode: "persistent", ask_ahead: true });
    await writeHook(dir, "plain", { events: ["before_tool"], mode: "persistent" });
    const spawned = await writeHook(dir, "spawned", { events: ["before_tool"], ask_ahead: true });
    const bad = await writeHook(dir, "bad", { events: ["before_tool"], ask_ahead: "yes" });
    const registry = await load();
    const byName = Object.fromEntries(registry.hooks.map((h) => [h.name, h]));
    expect(Object.keys(byName).sort()).toEqual(["plain", "pure", "spawned"]);
    expect(byName.pure).toMatchObject({ askAhead: true, launch: { mode: "persistent" } });
    expect(byName.plain).not.toHaveProperty("askAhead");
    // Kept as written; the chain never asks a spawned hook ahead, and the registry says so.
    expect(byName.spawned).toMatchObject({ askAhead: true });
    expect(registry.warnings).toEqual([
      `hook "spawned" (${spawned}) sets ask_ahead, which has no effect on a spawned hook: only persistent hooks and plugins are asked ahead (add "mode": "persistent")`,
    ]);
    expect(registry.broken).toEqual([
      expect.objectContaining({
        file: bad,
        reason: expect.stringMatching(/^invalid metadata: ask_ahead: /),
      }),
    ]);
  });

  it("reports a describe that hangs, killed at the describe timeout", async () => {
    const hang = await writeFileIn(
      path.join(projectHooks(), "hang"),
      "#!/bin/sh\nexec sleep 30\n",
      0o755,
    );
    const started = Date.now();
    const registry = await load(undefined, { describeTimeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(registry.hooks).toEqual([]);
    expect(registry.broken).toEqual([
      expect.objectContaining({
        file: hang,
        reason: expect.stringMatching(/did not finish within 300 ms/),
      }),
    ]);
  });

  it("skips non-executable files and folders, but reports a #! script that lacks chmod +x", async () => {
    const dir = projectHooks();
    await writeHook(dir, "good", { events: ["before_tool"] });
    await writeFileIn(path.join(dir, "README.md"), "# notes\n");
    await writeFileIn(path.join(dir, "lib", "common.sh"), "x=1\n", 0o755);
    await writeFileIn(path.join(dir, ".hidden"), "#!/bin/sh\n", 0o755);
    await writeFileIn(path.join(dir, "good~"), "#!/bin/sh\n", 0o755);
    const forgot = await writeFileIn(path.join(dir, "forgot"), "#!/bin/sh\necho hi\n", 0o644);
    const { runner, calls } = countingRunner();
    const registry = await load(runner);
    expect(registry.hooks.map((h) => h.name)).toEqual(["good"]);
    expect(calls).toHaveLength(1);
    expect(registry.broken).toHaveLength(1);
    expect(registry.broken[0]).toMatchObject({
      file: forgot,
      reason: expect.stringContaining("chmod +x"),
    });
  });

  it("a warm start spawns nothing; a content change re-describes only that hook", async () => {
    const dir = projectHooks();
    for (let i = 0; i < 5; i++)
      await writeHook(dir, `hook${i}`, { events: ["before_tool"], priority: i });
    const cold = countingRunner();
    expect((await load(cold.runner)).hooks).toHaveLength(5);
    expect(cold.calls).toHaveLength(5);
    const cache = JSON.parse(await readFile(metadataCachePath(box.acaiHome), "utf8"));
    expect(Object.keys(cache.entries)).toHaveLength(5);

    const warm = countingRunner();
    const again = await load(warm.runner);
    expect(again.hooks).toHaveLength(5);
    expect(warm.calls).toHaveLength(0);

    // Same size and mtime but different content: the hash catches it.
    const target = path.join(dir, "hook3");
    const before = await readFile(target, "utf8");
    const after = before.replace('"priority":3', '"priority":7');
    expect(after.length).toBe(before.length);
    await writeFile(target, after);
    const stamp = new Date(Date.now() - 60_000);
    await utimes(target, stamp, stamp);
    const changed = countingRunner();
    const reloaded = await load(changed.runner);
    expect(changed.calls.map((c) => c.command)).toEqual([target]);
    expect(reloaded.hooks.find((h) => h.file === target)?.priority).toBe(7);
  });

  it("reads only its own hooks' cache entries: a bad one is described again, other projects' are kept as they were", async () => {
    const dir = projectHooks();
    await writeHook(dir, "good", { events: ["before_tool"] });
    const spoilt = await writeHook(dir, "spoilt", { events: ["before_tool"] });
    const deep = await writeHook(dir, "deep", { events: ["before_tool"] });
    const cold = countingRunner();
    expect((await load(cold.runner)).hooks).toHaveLength(3);
    const file = metadataCachePath(box.acaiHome);
    const cache = JSON.parse(await readFile(file, "utf8"));
    // Another project's entries, one of them not even an entry: never read by this project's start.
    const elsewhere = { size: "?", note: "not validated here" };
    cache.entries["/elsewhere/.acai/hooks/x"] = elsewhere;
    cache.entries["/elsewhere/.acai/hooks/y"] = { ...cache.entries[spoilt], describedAt: 1 };
    cache.entries[spoilt] = { ...cache.entries[spoilt], sha256: 42 };
    let nested: unknown = {};
    for (let i = 0; i < 100; i++) nested = { nested };
    cache.entries[deep] = { ...cache.entries[deep], metadata: nested };
    await writeFile(file, JSON.stringify(cache));

    const warm = countingRunner();
    const registry = await load(warm.runner);
    expect(registry.hooks.map((h) => h.name).sort()).toEqual(["deep", "good", "spoilt"]);
    expect(warm.calls.map((c) => c.command).sort()).toEqual([deep, spoilt].sort());
    const saved = JSON.parse(await readFile(file, "utf8"));
    expect(saved.entries["/elsewhere/.acai/hooks/x"]).toEqual(elsewhere);
    expect(saved.entries["/elsewhere/.acai/hooks/y"]).toMatchObject({ describedAt: 1 });
    expect(saved.entries[spoilt].sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(saved.entries[deep].metadata)).toContain("before_tool");
  });

  it("caches failed describes against the file identity: reported each load, re-described only after an edit", async () => {
    const dir = projectHooks();
    const crash = await writeFileIn(
      path.join(dir, "crash"),
      "#!/bin/sh\necho broken >&2\nexit 1\n",
      0o755,
    );
    const garbage = await writeHook(dir, "garbage", "not json");
    const hang = await writeFileIn(path.join(dir, "hang"), "#!/bin/sh\nexec sleep 30\n", 0o755);
    const first = countingRunner();
    const cold = await load(first.runner, { describeTimeoutMs: 300 });
    expect(first.calls).toHaveLength(3);
    const coldReasons = Object.fromEntries(cold.broken.map((b) => [b.file, b.reason]));
    expect(coldReasons[crash]).toBe("HOOK_ACTION=describe exited with code 1: broken");
    expect(coldReasons[hang]).toMatch(/did not finish within 300 ms$/);

    const second = countingRunner();
    const warm = await load(second.runner, { describeTimeoutMs: 300 });
    expect(second.calls).toHaveLength(0);
    expect(warm.hooks).toEqual([]);
    const warmReasons = Object.fromEntries(warm.broken.map((b) => [b.file, b.reason]));
    expect(Object.keys(warmReasons).sort()).toEqual([crash, garbage, hang].sort());
    expect(warmReasons[crash]).toBe(
      "HOOK_ACTION=describe exited with code 1: broken (cached; edit or touch the file to describe it again)",
    );
    expect(warmReasons[garbage]).toMatch(/did not print valid JSON: not json \(cached;/);
    expect(warmReasons[hang]).toMatch(/did not finish within 300 ms \(cached;/);

    // Fixing the file re-describes it (and only it).
    await writeHook(dir, "crash", { events: ["before_tool"] });
    const third = countingRunner();
    const fixed = await load(third.runner, { describeTimeoutMs: 300 });
    expect(third.calls.map((c) => c.command)).toEqual([crash]);
    expect(fixed.hooks.map((h) => h.file)).toEqual([crash]);
    expect(fixed.broken.map((b) => b.file).sort()).toEqual([garbage, hang].sort());
  });

  it("shows a cached describe failure as the problem of an untrusted project hook", async () => {
    const crash = await writeFileIn(
      path.join(projectHooks(), "crash"),
      "#!/bin/sh\nexit 1\n",
      0o755,
    );
    await load();
    const scan = await scanHookSources({
      projectDir: box.projectDir,
      acaiHome: box.acaiHome,
      homeDir: box.homeDir,
      settingsFiles: [],
    });
    expect(describeUntrusted(scan)).toEqual([
      expect.objectContaining({
        file: crash,
        problem:
          "HOOK_ACTION=describe exited with code 1 (cached; edit or touch the file to describe it again)",
      }),
    ]);
  });

  it("describes in parallel with a bounded concurrency", async () => {
    const dir = projectHooks();
    for (let i = 0; i < 12; i++) await writeHook(dir, `h${i}`, { events: ["after_agent"] });
    let running = 0;
    let peak = 0;
    const inner = countingRunner().runner;
    const runner: typeof inner = async (options) => {
      running++;
      peak = Math.max(peak, running);
      try {
        return await inner(options);
      } finally {
        running--;
      }
    };
    const registry = await load(runner);
    expect(registry.hooks).toHaveLength(12);
    expect(peak).toBeGreaterThan(1);
    expect(peak).toBeLessThanOrEqual(8);
  });
});
