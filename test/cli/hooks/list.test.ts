import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  type AcaiDirs,
  acai,
  projectHook,
  tempProject,
  userHook,
  writeExecutable,
} from "../commands/helpers.js";

let dirs: AcaiDirs | undefined;
afterEach(async () => {
  await dirs?.cleanup();
  dirs = undefined;
});

interface Listed {
  name: string;
  status: "ok" | "broken" | "unknown";
  scope: string;
  source: string;
  file: string;
  trust: string;
  events?: string[];
  matcher?: Record<string, string>;
  priority?: number;
  timeout_ms?: number;
  failure?: string;
  reason?: string;
}

async function listJson(d: AcaiDirs): Promise<{ project_trust: string; hooks: Listed[] }> {
  const result = await acai(d, ["hooks", "list", "--json"]);
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

async function brokenProject(d: AcaiDirs): Promise<void> {
  const hooks = path.join(d.cwd, ".acai", "hooks");
  await projectHook(
    d,
    "good",
    {
      name: "good",
      events: ["before_tool"],
      matcher: { tool: "Bash" },
      priority: 700,
      timeout_ms: 2000,
      failure: "closed",
    },
    "exit 0",
  );
  await writeExecutable(
    path.join(hooks, "garbage-describe"),
    "#!/bin/sh\necho 'this is not json'\n",
  );
  await projectHook(d, "bad-event", { name: "bad-event", events: ["BeforeEverything"] }, "exit 0");
  await projectHook(
    d,
    "bad-regex",
    { name: "bad-regex", events: ["before_tool"], matcher: { tool: "Ba(sh" } },
    "exit 0",
  );
  await mkdir(hooks, { recursive: true });
  await writeFile(path.join(hooks, "not-executable"), "#!/bin/sh\nexit 0\n", { mode: 0o644 });
  await mkdir(path.join(hooks, "md-hook", "scripts"), { recursive: true });
  await writeFile(
    path.join(hooks, "md-hook", "HOOK.md"),
    "---\nname: md-hook\ntrigger: pre-tool-call\ntimeout: 5\n---\nToo short a timeout.\n",
  );
  await writeExecutable(path.join(hooks, "md-hook", "scripts", "run.sh"), "#!/bin/sh\nexit 0\n");
  await writeFile(
    path.join(d.cwd, ".acai", "settings.json"),
    JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [{ type: "command", command: "echo ok", timeout: 3 }] },
        ],
        Stop: [{ hooks: [{ type: "webhook", prompt: "are you done?" }] }],
      },
    }),
  );
}

describe("acai hooks list", () => {
  it("shows every source with its settings, and broken hooks with the file and reason", async () => {
    dirs = await tempProject();
    await brokenProject(dirs);
    await userHook(
      dirs,
      "user-audit",
      { name: "user-audit", events: ["after_tool"], priority: 50, async: true },
      "exit 0",
    );
    expect((await acai(dirs, ["hooks", "trust"])).exitCode).toBe(0);

    const { project_trust, hooks } = await listJson(dirs);
    expect(project_trust).toBe("trusted");
    const byName = new Map(hooks.map((h) => [h.name, h]));
    expect(byName.get("good")).toMatchObject({
      status: "ok",
      scope: "project",
      source: "executable",
      trust: "trusted",
      events: ["before_tool"],
      matcher: { tool: "Bash" },
      priority: 700,
      timeout_ms: 2000,
      failure: "closed",
    });
    expect(byName.get("user-audit")).toMatchObject({
      status: "ok",
      scope: "user",
      trust: "user",
      priority: 50,
    });
    expect(byName.get("echo ok")).toMatchObject({
      status: "ok",
      source: "settings",
      timeout_ms: 3000,
    });

    const broken = hooks.filter((h) => h.status === "broken");
    const reasonFor = (fragment: string) =>
      broken.find((h) => h.file.includes(fragment) || h.name.includes(fragment))?.reason ?? "";
    expect(reasonFor("garbage-describe")).toMatch(
      /describe did not print valid JSON: this is not json/,
    );
    expect(reasonFor("bad-event")).toMatch(/unknown event "BeforeEverything"/);
    expect(reasonFor("bad-regex")).toMatch(/invalid regular expression in matcher.tool "Ba\(sh"/);
    expect(reasonFor("not-executable")).toMatch(/chmod \+x/);
    expect(reasonFor("md-hook")).toMatch(/timeout/);
    expect(reasonFor("hooks.Stop")).toMatch(/hook type "webhook" is not one acai runs/);
    for (const h of broken) expect(path.isAbsolute(h.file)).toBe(true);

    const text = await acai(dirs, ["hooks", "list"]);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toContain("Broken — not run (6):");
    expect(text.stdout).toContain("✗ garbage-describe");
    expect(text.stdout).toMatch(/good {2}\(project executable\)\n/);
    // Run order: priority high to low.
    expect(text.stdout.indexOf("good")).toBeLessThan(text.stdout.indexOf("user-audit"));
  });

  it("does not run untrusted project executables, even for describe, but shows what is known", async () => {
    dirs = await tempProject();
    const marker = path.join(dirs.root, "described");
    await projectHook(dirs, "sneaky", { name: "sneaky", events: ["before_tool"] }, "exit 0");
    // A hook whose describe step leaves a trace: it must not run while untrusted.
    await writeExecutable(
      path.join(dirs.cwd, ".acai", "hooks", "tracer"),
      `#!/bin/sh\ntouch ${marker}\necho '{"name":"tracer","events":["before_tool"]}'\n`,
    );
    await writeFile(
      path.join(dirs.cwd, ".acai", "settings.json"),
      JSON.stringify({
        hooks: { Stop: [{ hooks: [{ type: "command", command: "./gate.sh", timeout: 10 }] }] },
      }),
    );
    const { project_trust, hooks } = await listJson(dirs);
    expect(project_trust).toBe("untrusted");
    const { existsSync } = await import("node:fs");
    expect(existsSync(marker)).toBe(false);
    expect(hooks.find((h) => h.name === "tracer")).toMatchObject({
      status: "unknown",
      trust: "untrusted",
    });
    expect(hooks.find((h) => h.name === "gate.sh")).toMatchObject({
      status: "ok",
      trust: "untrusted",
      events: ["before_stop"],
      timeout_ms: 10_000,
    });
    const text = await acai(dirs, ["hooks", "list"]);
    expect(text.stdout).toContain("project hooks NOT trusted");
    expect(text.stdout).toContain("Not described yet (2)");
    expect(existsSync(marker)).toBe(false);
  });

  it("shows ask_ahead, and that it is ignored (with the warning) on a spawned hook", async () => {
    dirs = await tempProject();
    const meta = (name: string, extra: Record<string, unknown>) => ({
      name,
      events: ["before_tool"],
      ask_ahead: true,
      ...extra,
    });
    await userHook(dirs, "pure", meta("pure", { mode: "persistent" }), "exit 0");
    await userHook(dirs, "spawned", meta("spawned", {}), "exit 0");
    await userHook(dirs, "plain", { name: "plain", events: ["before_tool"] }, "exit 0");
    const result = await acai(dirs, ["hooks", "list", "--json"]);
    expect(result.exitCode, result.stderr).toBe(0);
    const listed = JSON.parse(result.stdout) as { hooks: Listed[]; warnings: string[] };
    const byName = new Map(listed.hooks.map((h) => [h.name, h]));
    expect(byName.get("pure")).toMatchObject({ ask_ahead: true, mode: "persistent" });
    expect(byName.get("plain")).not.toHaveProperty("mode");
    expect(byName.get("pure")).not.toHaveProperty("ask_ahead_ignored");
    expect(byName.get("spawned")).toMatchObject({ ask_ahead: true, ask_ahead_ignored: true });
    expect(byName.get("plain")).not.toHaveProperty("ask_ahead");
    expect(listed.warnings).toEqual([expect.stringMatching(/hook "spawned" .* sets ask_ahead/)]);

    const text = await acai(dirs, ["hooks", "list"]);
    expect(text.stdout).toMatch(
      /pure {2}\(user executable\)\n(.*\n){2,3}.*failure open · persistent · ask ahead\n/,
    );
    expect(text.stdout).toMatch(/failure open · ask ahead \(ignored: spawned\)\n/);
    expect(text.stdout).toMatch(/warning: hook "spawned" .* sets ask_ahead, which has no effect/);
  });

  it("shows the timeouts and the bound per event a session would use (hookDefaults)", async () => {
    dirs = await tempProject();
    await writeFile(
      path.join(dirs.acaiHome, "settings.json"),
      JSON.stringify({ hookDefaults: { timeoutMs: 4321, maxHooks: 1 } }),
    );
    await userHook(dirs, "a-first", { name: "a-first", events: ["before_tool"] }, "exit 0");
    await userHook(dirs, "b-second", { name: "b-second", events: ["before_tool"] }, "exit 0");
    await userHook(dirs, "own", { name: "own", events: ["after_tool"], timeout_ms: 900 }, "exit 0");
    const result = await acai(dirs, ["hooks", "list", "--json"]);
    expect(result.exitCode, result.stderr).toBe(0);
    const listed = JSON.parse(result.stdout) as { hooks: Listed[]; warnings: string[] };
    const byName = new Map(listed.hooks.map((h) => [h.name, h]));
    expect(byName.get("a-first")?.timeout_ms).toBe(4321);
    expect(byName.get("own")?.timeout_ms).toBe(900);
    // maxHooks 1: the second before_tool hook is not loaded, and the warning names it.
    expect(byName.has("b-second")).toBe(false);
    expect(listed.warnings.join("\n")).toMatch(/b-second/);
  });

  it("says so when there are no hooks", async () => {
    dirs = await tempProject();
    const result = await acai(dirs, ["hooks", "list"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("No hooks.");
  });
});
