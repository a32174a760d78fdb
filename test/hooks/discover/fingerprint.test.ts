import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, rename, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HookFingerprints, manifestHashes } from "../../../source/hooks/discover/fingerprint.js";
import { commandScripts } from "../../../source/hooks/discover/hook-files.js";
import type { PersistentHooks } from "../../../source/hooks/run/persistent/types.js";
import type { PluginHooks } from "../../../source/hooks/run/plugins/types.js";
import { runHookOnce } from "../../../source/hooks/run/run.js";
import {
  fakeRecord,
  makeHook,
  runner,
  scriptHook,
  type TempDir,
  tempDir,
  writeScript,
} from "../support.js";

let dir: TempDir;
beforeEach(async () => {
  dir = await tempDir("acai-fingerprint-");
});
afterEach(async () => {
  await dir.cleanup();
});

const roots = () => ({ projectDir: dir.path, acaiHome: join(dir.path, "home"), homeDir: "/h" });
const payload = { event: "before_tool" };

describe("HookFingerprints", () => {
  it("sees an edit (also one that keeps size and mtime), a removal and a swapped link", async () => {
    const file = await writeScript(dir.path, "guard", "exit 2");
    const hook = scriptHook(file);
    const prints = HookFingerprints.record([hook], roots());
    expect(prints.changed(hook)).toBeUndefined();
    // Same length, same mtime: the inode and ctime move, so the content is hashed again.
    await writeFile(file, "#!/bin/bash\nexit 0\n");
    await utimes(file, new Date(2001, 0, 1), new Date(2001, 0, 1));
    expect(prints.changed(hook)).toEqual({ file, how: "edited" });
    await rm(file);
    expect(prints.changed(hook)).toEqual({ file, how: "removed" });
  });

  it("a touch or a rewrite with the same content is no change", async () => {
    const file = await writeScript(dir.path, "guard", "exit 2");
    const hook = scriptHook(file);
    const prints = HookFingerprints.record([hook], roots());
    await utimes(file, new Date(2001, 0, 1), new Date(2001, 0, 1));
    expect(prints.changed(hook)).toBeUndefined();
    await writeFile(`${file}.new`, "#!/bin/bash\nexit 2\n");
    await rename(`${file}.new`, file);
    expect(prints.changed(hook)).toBeUndefined();
  });

  it("a link repointed at other code is a change", async () => {
    const a = await writeScript(dir.path, "a", "exit 0");
    const b = await writeScript(dir.path, "b", "touch PWNED");
    const link = join(dir.path, "hook");
    await symlink(a, link);
    const hook = scriptHook(link);
    const prints = HookFingerprints.record([hook], roots());
    await rm(link);
    await symlink(b, link);
    expect(prints.changed(hook)?.how).toBe("edited");
  });

  it("the trust manifest's hash is the reference: a file edited after trust never passes", async () => {
    const file = await writeScript(dir.path, "guard", "touch PWNED");
    const trusted = createHash("sha256").update("#!/bin/bash\nexit 2\n").digest("hex");
    const known = manifestHashes(dir.path, [{ key: "guard", digest: `file x ${trusted}` }]);
    expect(known.get(file)).toBe(trusted);
    const hook = scriptHook(file, { scope: "project" });
    const prints = HookFingerprints.record([hook], { ...roots(), known });
    expect(prints.changed(hook)).toEqual({ file, how: "edited" });
  });

  it("a script a settings command names that appears later is a change", async () => {
    const hook = makeHook({
      sourceKind: "settings",
      launch: { command: "./check.sh --fast && echo ok >> log.txt", args: [], viaShell: true },
    });
    const prints = HookFingerprints.record([hook], roots());
    expect(prints.changed(hook)).toBeUndefined();
    await writeFile(join(dir.path, "check.sh"), "touch PWNED");
    expect(prints.changed(hook)).toEqual({ file: join(dir.path, "check.sh"), how: "created" });
  });
});

describe("commandScripts", () => {
  it("takes the program or the interpreter's script, inside the project or ACAI_HOME, never redirections", () => {
    const r = { projectDir: "/p", acaiHome: "/h/.acai", homeDir: "/h" };
    expect(commandScripts("./hooks/a.sh && node scripts/b.js --x > out.json", r)).toEqual([
      "/p/hooks/a.sh",
      "/p/scripts/b.js",
    ]);
    expect(commandScripts('"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh', r)).toEqual([
      "/p/.claude/hooks/x.sh",
    ]);
    expect(commandScripts("FOO=1 python3 -u ~/.acai/s.py; jq . | tee log", r)).toEqual([
      "/h/.acai/s.py",
    ]);
    expect(commandScripts("echo hi >> log.txt; /usr/bin/env true; cat x", r)).toEqual([]);
  });
});

describe("runHookOnce checks the fingerprint before any run", () => {
  it("a changed spawned hook is not started and fails with its policy's words", async () => {
    const marker = join(dir.path, "ran");
    const file = await writeScript(dir.path, "guard", "exit 2");
    const hook = scriptHook(file, { failure: "closed" });
    const prints = HookFingerprints.record([hook], roots());
    await writeFile(file, `#!/bin/bash\ntouch ${marker}\n`);
    const told: string[] = [];
    const record = await runHookOnce(hook, "before_tool", payload, {
      runner,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      projectDir: dir.path,
      sessionId: "s",
      fingerprints: prints,
      onChanged: (_hook, text) => told.push(text),
    });
    expect(existsSync(marker)).toBe(false);
    expect(record.decision).toMatchObject({ action: "failed" });
    expect(JSON.stringify(record.decision)).toContain(`its file ${file} changed`);
    expect(told).toHaveLength(1);
    expect(told[0]).toContain("failure: closed");
  });

  it("a changed persistent hook gets no request (so no restart), a changed plugin no call", async () => {
    const file = await writeScript(dir.path, "persistent", "exit 0");
    const persistentHook = scriptHook(file, {
      launch: { mode: "persistent", command: file, args: [], viaShell: false },
    });
    const pluginFile = join(dir.path, "plugin.mjs");
    await writeFile(pluginFile, "export function register() {}\n");
    const pluginHook = makeHook({
      sourceKind: "plugin",
      launch: {
        mode: "plugin",
        command: pluginFile,
        args: ["#0"],
        viaShell: false,
        registration: 0,
      },
    });
    const prints = HookFingerprints.record([persistentHook, pluginHook], roots());
    const asked: string[] = [];
    const persistent: PersistentHooks = {
      request: async ({ hook }) => {
        asked.push(hook.id);
        return fakeRecord({ action: "continue" });
      },
    } as PersistentHooks;
    const plugins = {
      call: async ({ hook }: { hook: { id: string } }) => {
        asked.push(hook.id);
        return fakeRecord({ action: "continue" });
      },
    } as unknown as PluginHooks;
    const options = {
      runner,
      env: {},
      projectDir: dir.path,
      sessionId: "s",
      fingerprints: prints,
      persistent,
      plugins,
    };
    await runHookOnce(persistentHook, "before_tool", payload, options);
    await runHookOnce(pluginHook, "before_tool", payload, options);
    expect(asked).toEqual([persistentHook.id, pluginHook.id]);
    await writeFile(file, "#!/bin/bash\ntouch PWNED\n");
    await writeFile(pluginFile, "export function register(api) { /* new */ }\n");
    const records = [
      await runHookOnce(persistentHook, "before_tool", payload, options),
      await runHookOnce(pluginHook, "before_tool", payload, options),
    ];
    expect(asked).toHaveLength(2);
    for (const record of records) expect(record.decision).toMatchObject({ action: "failed" });
  });
});

describe("a hook file with a #!/usr/bin/env NAME line (decision 0076)", () => {
  const runOptions = (prints?: HookFingerprints) => ({
    runner,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    projectDir: dir.path,
    sessionId: "s",
    ...(prints === undefined ? {} : { fingerprints: prints }),
  });
  const envScript = async (name: string, body: string) => {
    const file = join(dir.path, name);
    await writeFile(file, `#!/usr/bin/env bash\n${body}\n`, { mode: 0o755 });
    return file;
  };

  it("is run as `NAME file`, as env would exec it, and does what it did", async () => {
    const file = await envScript("guard", 'cat >/dev/null; echo "args=$0|$1" >&2; exit 2');
    const hook = scriptHook(file, { launch: { command: file, args: ["one"], viaShell: false } });
    const prints = HookFingerprints.record([hook], roots());
    expect(prints.envInterpreter(file)).toBe("bash");
    const record = await runHookOnce(hook, "before_tool", payload, runOptions(prints));
    expect(record.command).toBe("bash");
    expect(record.args).toEqual([file, "one"]);
    // The same run without the loaded fingerprints execs the file: the same answer.
    const direct = await runHookOnce(hook, "before_tool", payload, runOptions());
    expect(direct.command).toBe(file);
    for (const run of [record, direct]) {
      expect(run.exitCode).toBe(2);
      expect(run.stderr.trim()).toBe(`args=${file}|one`);
      expect(run.decision.action).toBe("block");
    }
  });

  it("not executable (or no longer), it is not run through its interpreter: it fails as the kernel refuses it", async () => {
    const file = await envScript("guard", "exit 0");
    const hook = scriptHook(file, { launch: { command: file, args: [], viaShell: false } });
    const prints = HookFingerprints.record([hook], roots());
    expect(prints.envInterpreter(file)).toBe("bash");
    await chmod(file, 0o644); // a new ctime: looked at again, same content
    expect(prints.changed(hook)).toBeUndefined();
    expect(prints.envInterpreter(file)).toBeUndefined();
    const record = await runHookOnce(hook, "before_tool", payload, runOptions(prints));
    expect(record.command).toBe(file);
    expect(record.decision.action).toBe("failed");
  });

  it("a plain settings line naming the file runs it through its interpreter too", async () => {
    const file = await envScript("check.sh", "cat >/dev/null; exit 0");
    const hook = makeHook({
      sourceKind: "settings",
      launch: { command: '"$CLAUDE_PROJECT_DIR"/check.sh', args: [], viaShell: true },
    });
    const prints = HookFingerprints.record([hook], roots());
    const record = await runHookOnce(hook, "before_tool", payload, runOptions(prints));
    expect([record.command, ...record.args]).toEqual(["bash", file]);
    expect(record.exitCode).toBe(0);
  });
});
