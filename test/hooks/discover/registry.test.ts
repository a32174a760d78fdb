import { chmod, mkdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  describeUntrusted,
  loadHookRegistry,
  type SettingsHookFile,
  scanHookSources,
} from "../../../source/hooks/discover/registry.js";
import {
  baseEnv,
  countingRunner,
  describeScript,
  makeSandbox,
  type Sandbox,
  writeFileIn,
  writeHook,
} from "./sources/helpers.js";

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
});
afterEach(async () => {
  await box.cleanup();
});

const projectHooks = () => path.join(box.projectDir, ".acai", "hooks");
const userHooks = () => path.join(box.acaiHome, "hooks");

function scan(settingsFiles: SettingsHookFile[] = []) {
  return scanHookSources({
    projectDir: box.projectDir,
    acaiHome: box.acaiHome,
    homeDir: box.homeDir,
    settingsFiles,
  });
}
const fingerprint = async (settingsFiles: SettingsHookFile[] = []) =>
  (await scan(settingsFiles)).projectFingerprint;

async function markerText(): Promise<string> {
  return readFile(box.marker, "utf8").catch(() => "");
}

describe("project fingerprint", () => {
  it("is null without project hooks, tools or settings, even with user hooks or unrelated files", async () => {
    await writeHook(userHooks(), "mine", { events: ["Stop"] });
    await writeFileIn(path.join(projectHooks(), "README.md"), "docs");
    expect(await fingerprint([{ path: "/x/settings.json", scope: "user", hooks: {} }])).toBeNull();
    // A project settings file alone is project-controlled: it needs trust too.
    const settingsFile = await writeFileIn(
      path.join(box.projectDir, ".acai", "settings.json"),
      "{}",
    );
    expect(await fingerprint([{ path: settingsFile, scope: "project", hooks: undefined }])).toMatch(
      /^[0-9a-f]{64}$/,
    );
  });

  it("changes on any project hook change and is unaffected by user hooks", async () => {
    const guard = await writeHook(projectHooks(), "guard", { events: ["before_tool"] });
    const mdDir = path.join(box.projectDir, ".agents", "hooks", "gate");
    await writeFileIn(path.join(mdDir, "HOOK.md"), "---\ntrigger: Stop\n---\n");
    const script = await writeFileIn(
      path.join(mdDir, "scripts", "run.sh"),
      "#!/bin/sh\nexit 0\n",
      0o755,
    );
    const helper = await writeFileIn(path.join(projectHooks(), "lib", "common.sh"), "x=1\n");
    // The loader gives each file's digest of its whole text; here the text is the hooks.
    const settings = (hooks: unknown): (SettingsHookFile & { digest: string })[] => [
      {
        path: path.join(box.projectDir, ".acai", "settings.json"),
        scope: "project",
        hooks,
        digest: JSON.stringify(hooks),
      },
    ];
    const stop = { Stop: [{ hooks: [{ type: "command", command: "make test" }] }] };

    const seen = new Set<string>();
    const record = async (files: SettingsHookFile[] = settings(stop)) => {
      const value = await fingerprint(files);
      expect(value).toMatch(/^[0-9a-f]{64}$/);
      expect(seen.has(value as string)).toBe(false);
      seen.add(value as string);
      return value;
    };
    const first = await record();
    // Stable when nothing changed, and user hooks / user settings do not count.
    await writeHook(userHooks(), "mine", { events: ["Stop"] });
    expect(
      await fingerprint([
        ...settings(stop),
        { path: path.join(box.acaiHome, "settings.json"), scope: "user", hooks: { Stop: [] } },
      ]),
    ).toBe(first);

    await writeFile(guard, `${await readFile(guard, "utf8")}\n# edited\n`);
    await record();
    await writeFile(script, "#!/bin/sh\nexit 2\n");
    await record();
    await writeFile(path.join(mdDir, "HOOK.md"), "---\ntrigger: Stop\npriority: 5\n---\n");
    await record();
    await writeFile(helper, "x=2\n");
    await record();
    await chmod(helper, 0o755); // a new executable is a new hook
    await record();
    await writeHook(projectHooks(), "second", { events: ["Stop"] });
    await record();
    await rm(path.join(projectHooks(), "second"));
    expect(await fingerprint(settings(stop))).toBe([...seen][5]);
    await record(settings({ Stop: [{ hooks: [{ type: "command", command: "make lint" }] }] }));
    await symlink("/bin/true", path.join(projectHooks(), "linked"));
    await record(settings({ Stop: [{ hooks: [{ type: "command", command: "make lint" }] }] }));
  });

  it("covers the project's dynamic tools: a tool alone needs trust, and editing it revokes trust", async () => {
    const toolsDir = path.join(box.projectDir, ".acai", "tools");
    await writeFileIn(path.join(toolsDir, "notes.md"), "not a tool");
    expect(await fingerprint()).toBeNull();
    const tool = await writeFileIn(
      path.join(toolsDir, "probe"),
      `#!/bin/sh\necho probe >> '${box.marker}'\n`,
      0o755,
    );
    const scanned = await scan();
    const first = scanned.projectFingerprint;
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(scanned.projectTools).toEqual([tool]);
    expect(describeUntrusted(scanned)).toEqual([
      expect.objectContaining({ sourceKind: "tool", name: "probe", file: tool, events: [] }),
    ]);
    await writeFile(tool, "#!/bin/sh\necho changed\n");
    expect(await fingerprint()).not.toBe(first);
    // Nothing was run to learn all this.
    expect(await markerText()).toBe("");
  });

  it("takes the project's .acai/tools for the user's own when the project is the home folder", async () => {
    await writeFileIn(path.join(box.acaiHome, "tools", "mine"), "#!/bin/sh\n", 0o755);
    const fromHome = await scanHookSources({
      projectDir: box.homeDir,
      acaiHome: box.acaiHome,
      homeDir: box.homeDir,
      settingsFiles: [],
    });
    expect(fromHome.projectTools).toEqual([]);
    expect(fromHome.projectFingerprint).toBeNull();
  });

  it("does not depend on where the project lives", async () => {
    await writeHook(projectHooks(), "guard", { events: ["before_tool"] });
    const first = await fingerprint();
    const moved = path.join(box.root, "moved");
    await mkdir(moved);
    await writeHook(path.join(moved, ".acai", "hooks"), "guard", { events: ["before_tool"] });
    const other = await scanHookSources({
      projectDir: moved,
      acaiHome: box.acaiHome,
      homeDir: box.homeDir,
      settingsFiles: [],
    });
    expect(other.projectFingerprint).toBe(first);
  });
});

describe("untrusted project hooks", () => {
  it("scanning, describing and loading without the project run no project code", async () => {
    await writeHook(
      projectHooks(),
      "guard",
      { name: "guard", events: ["before_tool"] },
      box.marker,
    );
    const mdDir = path.join(box.projectDir, ".agents", "hooks", "gate");
    await writeFileIn(
      path.join(mdDir, "HOOK.md"),
      "---\nname: gate\ntrigger: pre-agent-turn-stop\n---\n",
    );
    await writeFileIn(path.join(mdDir, "scripts", "run"), describeScript({}, box.marker), 0o755);
    await writeHook(userHooks(), "mine", { name: "mine", events: ["Stop"] });
    const projectSettings: SettingsHookFile = {
      path: path.join(box.projectDir, ".acai", "settings.json"),
      scope: "project",
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [{ type: "command", command: `touch ${box.marker}` }] },
        ],
        Bogus: [],
      },
    };
    const scanned = await scan([projectSettings]);
    expect(scanned.projectFingerprint).not.toBeNull();

    const untrusted = describeUntrusted(scanned);
    expect(untrusted).toEqual([
      expect.objectContaining({
        sourceKind: "executable",
        name: "guard",
        events: [],
        note: "not described yet",
        command: path.join(projectHooks(), "guard"),
      }),
      expect.objectContaining({
        sourceKind: "hook_md",
        name: "gate",
        events: ["before_stop"],
        command: path.join(mdDir, "scripts", "run"),
      }),
      expect.objectContaining({
        sourceKind: "settings",
        events: ["before_tool"],
        matcher: "Bash",
        command: `touch ${box.marker}`,
      }),
      expect.objectContaining({
        sourceKind: "settings",
        problem: expect.stringMatching(/unknown event "Bogus"/),
      }),
    ]);

    const { runner, calls } = countingRunner();
    const registry = await loadHookRegistry(scanned, {
      includeProject: false,
      runner,
      env: baseEnv,
      acaiHome: box.acaiHome,
      projectDir: box.projectDir,
    });
    expect(registry.hooks.map((h) => h.name)).toEqual(["mine"]);
    expect(registry.broken).toEqual([]);
    expect(calls.map((c) => c.command)).toEqual([path.join(userHooks(), "mine")]);
    expect(await markerText()).toBe("");

    // Once trusted and loaded, describe runs and its metadata is shown next time without running.
    const trusted = await loadHookRegistry(scanned, {
      includeProject: true,
      runner,
      env: baseEnv,
      acaiHome: box.acaiHome,
      projectDir: box.projectDir,
    });
    expect(trusted.hooks.map((h) => h.name).sort()).toEqual(["gate", "guard", "mine", "touch"]);
    expect(await markerText()).toContain("describe");
    await rm(box.marker);
    const rescanned = await scan([projectSettings]);
    expect(describeUntrusted(rescanned)[0]).toMatchObject({
      name: "guard",
      events: ["before_tool"],
    });
    expect(describeUntrusted(rescanned)[0]?.note).toBeUndefined();
    expect(await markerText()).toBe("");
  });

  it("treats the project's .acai/hooks as user hooks when the project is the home folder", async () => {
    const homeProject = box.homeDir;
    await writeHook(path.join(homeProject, ".acai", "hooks"), "mine", { events: ["Stop"] });
    const scanned = await scanHookSources({
      projectDir: homeProject,
      acaiHome: path.join(homeProject, ".acai"),
      homeDir: box.homeDir,
      settingsFiles: [],
    });
    expect(scanned.projectFingerprint).toBeNull();
    expect(scanned.executables.map((e) => e.scope)).toEqual(["user"]);
  });

  it("reports a project script missing chmod +x only when the project is included", async () => {
    const file = await writeFileIn(path.join(projectHooks(), "forgot"), "#!/bin/sh\n", 0o644);
    const scanned = await scan();
    expect(scanned.projectFingerprint).not.toBeNull();
    expect(describeUntrusted(scanned)).toEqual([
      expect.objectContaining({ file, problem: expect.stringContaining("chmod") }),
    ]);
    const { runner } = countingRunner();
    const options = { runner, env: baseEnv, acaiHome: box.acaiHome, projectDir: box.projectDir };
    expect((await loadHookRegistry(scanned, { ...options, includeProject: false })).broken).toEqual(
      [],
    );
    expect(
      (await loadHookRegistry(scanned, { ...options, includeProject: true })).broken,
    ).toHaveLength(1);
    expect((await stat(file)).mode & 0o111).toBe(0);
  });
});

describe("default timeout", () => {
  it("hooks of every source that set no timeout get defaultTimeoutMs; their own timeout wins", async () => {
    await writeHook(projectHooks(), "plain", { events: ["session_start"] });
    await writeHook(projectHooks(), "timed", { events: ["session_start"], timeout_ms: 2500 });
    const md = path.join(box.projectDir, ".agents", "hooks", "md-hook");
    await writeFileIn(path.join(md, "HOOK.md"), "---\nname: md-hook\ntrigger: pre-session\n---\n");
    await writeFileIn(path.join(md, "scripts", "run.sh"), "#!/bin/sh\nexit 0\n", 0o755);
    const settings: SettingsHookFile = {
      path: path.join(box.projectDir, ".acai", "settings.json"),
      scope: "project",
      hooks: { SessionStart: [{ hooks: [{ type: "command", command: "true" }] }] },
    };
    const scanned = await scan([settings]);
    const load = (defaultTimeoutMs?: number) =>
      loadHookRegistry(scanned, {
        includeProject: true,
        runner: countingRunner().runner,
        env: baseEnv,
        acaiHome: box.acaiHome,
        projectDir: box.projectDir,
        ...(defaultTimeoutMs !== undefined ? { defaultTimeoutMs } : {}),
      });
    const timeouts = async (defaultTimeoutMs?: number) =>
      Object.fromEntries(
        (await load(defaultTimeoutMs)).hooks.map((h) => [`${h.sourceKind}:${h.name}`, h.timeoutMs]),
      );
    expect(await timeouts(4321)).toEqual({
      "executable:plain": 4321,
      "executable:timed": 2500,
      "hook_md:md-hook": 4321,
      "settings:true": 4321,
    });
    expect(await timeouts()).toEqual({
      "executable:plain": 30_000,
      "executable:timed": 2500,
      "hook_md:md-hook": 30_000,
      "settings:true": 30_000,
    });
  });
});
