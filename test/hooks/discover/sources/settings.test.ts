import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hookMatches } from "../../../../source/hooks/contract/match.js";
import { hookJsonSchemas } from "../../../../source/hooks/contract/schemas/settings-hooks.js";
import {
  loadHookRegistry,
  type SettingsHookFile,
  scanHookSources,
} from "../../../../source/hooks/discover/registry.js";
import { parseSettingsHooks } from "../../../../source/hooks/discover/sources/settings.js";
import { baseEnv, countingRunner, makeSandbox, type Sandbox } from "./helpers.js";

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
});
afterEach(async () => {
  await box.cleanup();
});

async function load(settingsFiles: SettingsHookFile[], includeProject = true) {
  const scan = await scanHookSources({
    projectDir: box.projectDir,
    acaiHome: box.acaiHome,
    homeDir: box.homeDir,
    settingsFiles,
  });
  const { runner, calls } = countingRunner();
  const registry = await loadHookRegistry(scan, {
    includeProject,
    runner,
    env: baseEnv,
    acaiHome: box.acaiHome,
    projectDir: box.projectDir,
  });
  expect(calls).toHaveLength(0);
  return registry;
}

const userFile = () => path.join(box.acaiHome, "settings.json");
const projectFile = () => path.join(box.projectDir, ".acai", "settings.json");
const localFile = () => path.join(box.projectDir, ".acai", "settings.local.json");

describe("settings hooks", () => {
  it("reports a matcher that is not a Claude Code matcher string (an object with keys)", async () => {
    const registry = await load([
      {
        path: projectFile(),
        scope: "project",
        hooks: {
          PreToolUse: [
            {
              matcher: { tool: "Bash", command_pattern: "rm -rf" },
              hooks: [{ type: "command", command: "guard" }],
            },
          ],
        },
      },
    ]);
    expect(registry.hooks).toEqual([]);
    expect(registry.broken.map((b) => b.reason)).toEqual([
      expect.stringMatching(/^hooks\.PreToolUse\[0\]: matcher: .*string/),
    ]);
  });

  it("runs hooks of equal priority in file order, not by name (z before a)", async () => {
    const entry = (name: string) => ({ type: "command", command: `run-${name}`, name });
    const registry = await load([
      {
        path: userFile(),
        scope: "user",
        hooks: { Stop: [{ hooks: [entry("u-z"), entry("u-a")] }] },
      },
      {
        path: projectFile(),
        scope: "project",
        hooks: { PreToolUse: [{ hooks: [entry("z")] }, { matcher: "Bash", hooks: [entry("a")] }] },
      },
      { path: localFile(), scope: "project", hooks: { PreToolUse: [{ hooks: [entry("local")] }] } },
    ]);
    expect(registry.hooks.map((h) => h.name)).toEqual(["u-z", "u-a", "z", "a", "local"]);
  });

  it("clamps a timeout outside 0.1–600 s, runs the hook and warns once; non-positive stays broken", async () => {
    const entry = (command: string, timeout: unknown) => ({
      hooks: [{ type: "command", command, timeout }],
    });
    const registry = await load([
      {
        path: projectFile(),
        scope: "project",
        hooks: {
          Stop: [entry("long", 900), entry("long", 900), entry("quick", 0.05), entry("ok", 600)],
          PreToolUse: [entry("zero", 0), entry("negative", -5)],
        },
      },
    ]);
    const timeouts = Object.fromEntries(registry.hooks.map((h) => [h.name, h.timeoutMs]));
    expect(timeouts).toEqual({ long: 600_000, quick: 100, ok: 600_000 });
    expect(registry.warnings).toEqual([
      `Settings file ${projectFile()}: hook hooks.Stop[0].hooks[0] (long): timeout 900 s is above acai's 600 s limit; using 600 s.`,
      `Settings file ${projectFile()}: hook hooks.Stop[2].hooks[0] (quick): timeout 0.05 s is below acai's 0.1 s minimum; using 0.1 s.`,
    ]);
    expect(registry.broken.map((b) => b.reason)).toEqual([
      "hooks.PreToolUse[0].hooks[0]: timeout: expected a positive number of seconds",
      "hooks.PreToolUse[1].hooks[0]: timeout: expected a positive number of seconds",
    ]);
  });

  it("loads Claude Code's shape in either event spelling, timeouts in seconds, through the shell", async () => {
    const registry = await load([
      {
        path: userFile(),
        scope: "user",
        hooks: {
          PreToolUse: [
            { matcher: "Bash", hooks: [{ type: "command", command: "guard.sh", timeout: 60 }] },
          ],
          session_start: [
            { hooks: [{ type: "command", command: "echo hi", priority: 500, failure: "closed" }] },
          ],
        },
      },
    ]);
    expect(registry.broken).toEqual([]);
    const [start, guard] = registry.hooks;
    expect(start).toMatchObject({
      name: "echo hi",
      events: ["session_start"],
      matcher: {},
      priority: 500,
      failure: "closed",
      timeoutMs: 30_000,
      launch: { command: "echo hi", args: [], viaShell: true },
      sourceKind: "settings",
      dialect: "acai",
      scope: "user",
      file: userFile(),
    });
    expect(guard).toMatchObject({
      events: ["before_tool"],
      matcher: { tool: "Bash" },
      timeoutMs: 60_000,
      id: `user:settings:${userFile()}#hooks.PreToolUse[0].hooks[0]`,
    });
  });

  it("runs an identical command (same event and matcher) once across files", async () => {
    const same = {
      PostToolUse: [
        { matcher: "Write|Edit", hooks: [{ type: "command", command: "npm run lint" }] },
      ],
    };
    const registry = await load([
      { path: userFile(), scope: "user", hooks: same },
      { path: projectFile(), scope: "project", hooks: same },
      {
        path: localFile(),
        scope: "project",
        hooks: {
          ...same,
          // Same command, different matcher or event: distinct hooks.
          PreToolUse: [
            { matcher: "Write|Edit", hooks: [{ type: "command", command: "npm run lint" }] },
          ],
        },
      },
    ]);
    expect(registry.broken).toEqual([]);
    expect(registry.hooks.map((h) => [h.scope, h.events[0]])).toEqual([
      ["user", "after_tool"],
      ["project", "before_tool"],
    ]);
    // "*", "" and no matcher are the same matcher.
    const star = await load([
      {
        path: userFile(),
        scope: "user",
        hooks: { Stop: [{ matcher: "*", hooks: [{ type: "command", command: "x" }] }] },
      },
      {
        path: projectFile(),
        scope: "project",
        hooks: { Stop: [{ hooks: [{ type: "command", command: "x" }] }] },
      },
    ]);
    expect(star.hooks).toHaveLength(1);
  });

  it("reports unknown events, bad matchers, unsupported types and bad fields by file; the rest load", async () => {
    const registry = await load([
      {
        path: projectFile(),
        scope: "project",
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [
                { type: "command", command: "ok" },
                { type: "webhook", prompt: "judge" },
              ],
            },
            { matcher: "(Write", hooks: [{ type: "command", command: "never" }] },
          ],
          AfterEverything: [{ hooks: [{ type: "command", command: "x" }] }],
          Stop: [{ hooks: [{ type: "command", command: "slow", timeout: "9999" }] }],
          PostToolUse: "nope",
        },
      },
      { path: localFile(), scope: "project", hooks: ["not", "an", "object"] },
    ]);
    expect(registry.hooks.map((h) => h.launch.command)).toEqual(["ok"]);
    const reasons = registry.broken.map((b) => `${path.basename(b.file)} ${b.reason}`).sort();
    expect(reasons).toEqual([
      expect.stringMatching(
        /^settings\.json hooks\.AfterEverything: unknown event "AfterEverything"/,
      ),
      expect.stringMatching(/^settings\.json hooks\.PostToolUse: must be an array/),
      expect.stringMatching(
        /^settings\.json hooks\.PreToolUse\[0\]\.hooks\[1\]: .*hook type "webhook" is not one acai runs; expected one of "command", "http", "prompt", "agent", "mcp_tool"/,
      ),
      expect.stringMatching(
        /^settings\.json hooks\.PreToolUse\[1\]\.matcher: invalid regular expression "\(Write"/,
      ),
      expect.stringMatching(
        /^settings\.json hooks\.Stop\[0\]\.hooks\[0\]: timeout: expected a number of seconds$/,
      ),
      expect.stringMatching(/^settings\.local\.json hooks: must be an object/),
    ]);
  });

  it("keeps Claude Code's matcher meaning: exact names, alternations, regexes, sources", async () => {
    const command = (c: string) => [{ type: "command", command: c }];
    const registry = await load([
      {
        path: userFile(),
        scope: "user",
        hooks: {
          PreToolUse: [
            { matcher: "Edit", hooks: command("exact") },
            { matcher: "Edit|Write", hooks: command("alt") },
            { matcher: "Notebook.*", hooks: command("regex") },
            { matcher: "", hooks: command("all") },
          ],
          SessionStart: [{ matcher: "resume", hooks: command("resume-only") }],
          Notification: [{ matcher: "permission_prompt", hooks: command("perm") }],
          Stop: [{ matcher: "ignored", hooks: command("stop") }],
        },
      },
    ]);
    const byCommand = new Map(registry.hooks.map((h) => [h.launch.command, h]));
    const tool = (name: string) => ({
      event: "before_tool" as const,
      toolName: name,
      toolInput: {},
    });
    const hook = (c: string) => byCommand.get(c)!;
    expect(hookMatches(hook("exact"), tool("Edit"))).toBe(true);
    expect(hookMatches(hook("exact"), tool("MultiEdit"))).toBe(false);
    expect(hookMatches(hook("exact"), tool("EditX"))).toBe(false);
    expect(hookMatches(hook("alt"), tool("Write"))).toBe(true);
    expect(hookMatches(hook("alt"), tool("Read"))).toBe(false);
    // A regex is searched anywhere in the name, as Claude Code does.
    expect(hookMatches(hook("regex"), tool("NotebookEdit"))).toBe(true);
    expect(hookMatches(hook("regex"), tool("MyNotebookTool"))).toBe(true);
    expect(hookMatches(hook("regex"), tool("Bash"))).toBe(false);
    expect(hookMatches(hook("all"), tool("anything"))).toBe(true);
    expect(hookMatches(hook("resume-only"), { event: "session_start", source: "resume" })).toBe(
      true,
    );
    expect(hookMatches(hook("resume-only"), { event: "session_start", source: "startup" })).toBe(
      false,
    );
    expect(hookMatches(hook("perm"), { event: "notification", source: "permission_prompt" })).toBe(
      true,
    );
    expect(hookMatches(hook("perm"), { event: "notification", source: "idle_prompt" })).toBe(false);
    expect(hookMatches(hook("stop"), { event: "before_stop" })).toBe(true);
  });

  it("leaves project settings out when project hooks are not included", async () => {
    const registry = await load(
      [
        {
          path: userFile(),
          scope: "user",
          hooks: { Stop: [{ hooks: [{ type: "command", command: "u" }] }] },
        },
        {
          path: projectFile(),
          scope: "project",
          hooks: { Stop: [{ hooks: [{ type: "command", command: "p" }] }] },
        },
        { path: localFile(), scope: "project", hooks: { Nope: [] } },
      ],
      false,
    );
    expect(registry.hooks.map((h) => h.launch.command)).toEqual(["u"]);
    expect(registry.broken).toEqual([]);
  });

  it("publishes JSON Schemas for all three shapes", () => {
    const schemas = hookJsonSchemas();
    expect(JSON.stringify(schemas.executableMetadata)).toContain("PreToolUse");
    expect(schemas.executableMetadata).toMatchObject({ type: "object", required: ["events"] });
    expect(schemas.hookMdFrontmatter).toMatchObject({ required: ["trigger"] });
    expect(JSON.stringify(schemas.hookMdFrontmatter)).toContain("pre-tool-call");
    expect(JSON.stringify(schemas.settingsHooks)).toContain("command");
  });

  it("validates a file's hooks once for the scan, the registry and the review; a new value is validated again", () => {
    const command = (text: string) => ({ type: "command", command: text });
    const file: SettingsHookFile = {
      path: projectFile(),
      scope: "project",
      hooks: { Stop: [{ hooks: [command("first")] }], Nope: [] },
    };
    const first = parseSettingsHooks(file);
    expect(first.items.map((item) => item.entry)).toMatchObject([{ command: "first" }]);
    expect(first.broken.map((b) => b.reason)).toEqual(['hooks.Nope: unknown event "Nope"']);
    expect(parseSettingsHooks(file)).toBe(first);
    // The same object with another `hooks` value (never done by acai): parsed afresh, not the old answer.
    file.hooks = { Stop: [{ hooks: [command("second")] }, { hooks: [{ type: "command" }] }] };
    const second = parseSettingsHooks(file);
    expect(second.items.map((item) => item.entry)).toMatchObject([{ command: "second" }]);
    expect(second.broken.map((b) => b.name)).toEqual(["hooks.Stop[1].hooks[0]"]);
    // Another file object with equal content is its own parse.
    expect(parseSettingsHooks({ ...file })).not.toBe(second);
  });
});
