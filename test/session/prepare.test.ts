import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { containmentInForce } from "../../source/process/bwrap.js";
import { processSandboxLauncher } from "../../source/process/sandbox-launch.js";
import { transcriptPathFor } from "../../source/session/agent.js";
import { prepareSession } from "../../source/session/prepare.js";
import { brokenHookWarning } from "../../source/session/warnings.js";
import { pidsWith, waitFor } from "../process/survivors.js";

describe("session helpers", () => {
  it("names a broken hook once", () => {
    const base = { file: "/h/settings.json", scope: "user", sourceKind: "settings" } as const;
    expect(
      brokenHookWarning({ ...base, name: "hooks.X", reason: 'hooks.X: unknown event "X"' }),
    ).toBe('hook hooks.X (/h/settings.json) is not loaded: unknown event "X"');
    expect(
      brokenHookWarning({ ...base, file: "/p/.acai/hooks/guard", reason: "not executable" }),
    ).toBe("hook guard (/p/.acai/hooks/guard) is not loaded: not executable");
  });

  it("puts the transcript under the transcripts dir, dated, named by session", () => {
    expect(transcriptPathFor("/a/transcripts", "abc", new Date("2026-11-21T23:59:00Z"))).toBe(
      "/a/transcripts/2026-11-21-abc.jsonl",
    );
  });
});

describe("prepareSession", () => {
  it("applies hookDefaults.timeoutMs to hooks that set no timeout of their own", async () => {
    const root = await realpath(await mkdtemp(path.join(os.tmpdir(), "acai-session-")));
    try {
      const acaiHome = path.join(root, "home", ".acai");
      const cwd = path.join(root, "project");
      await mkdir(acaiHome, { recursive: true });
      await mkdir(cwd, { recursive: true });
      const command = (line: string, timeout?: number) => ({
        hooks: [{ type: "command", command: line, ...(timeout ? { timeout } : {}) }],
      });
      await writeFile(
        path.join(acaiHome, "settings.json"),
        JSON.stringify({
          hookDefaults: { timeoutMs: 1234 },
          hooks: { Stop: [command("true")], SessionEnd: [command("false", 7)] },
        }),
      );
      const session = await prepareSession({
        cwd,
        env: { ACAI_HOME: acaiHome, OPENAI_API_KEY: "test-key" },
        homeDir: path.join(root, "home"),
        flags: { projectHooks: "require-trust", baseUrl: "http://127.0.0.1:9/v1" },
      });
      const timeouts = Object.fromEntries(
        session.hooks.loaded.map((hook) => [hook.events[0], hook.timeoutMs]),
      );
      expect(timeouts).toEqual({ before_stop: 1234, session_end: 7000 });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe.skipIf(containmentInForce().kind !== "namespace")("prepareSession, sandbox on", () => {
  it("starts the spawner a session_start hook runs through before the session runs anything", async () => {
    const root = await realpath(await mkdtemp(path.join(os.tmpdir(), "acai-session-")));
    try {
      const acaiHome = path.join(root, "home", ".acai");
      const cwd = path.join(root, "project");
      await mkdir(acaiHome, { recursive: true });
      await mkdir(cwd, { recursive: true });
      const command = { hooks: [{ type: "command", command: "true" }] };
      await writeFile(
        path.join(acaiHome, "settings.json"),
        JSON.stringify({ hooks: { SessionStart: [command], Stop: [command] } }),
      );
      const session = await prepareSession({
        cwd,
        env: { ACAI_HOME: acaiHome, OPENAI_API_KEY: "test-key", PATH: "/usr/bin:/bin" },
        homeDir: path.join(root, "home"),
        flags: { projectHooks: "require-trust", baseUrl: "http://127.0.0.1:9/v1" },
      });
      expect(session.sandboxLine).toMatch(/^sandbox: on/);
      // The hooks' policy (ACAI_HOME read-only in it): its spawner keeps the hook's CLAUDE_ENV_FILE
      // (0069); the policy that may write the file's folder starts only where that cannot be.
      const envDir = path.join(acaiHome, "session-env");
      const bwraps = () =>
        pidsWith(acaiHome)
          .map((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0"))
          .filter((argv) => argv[0]?.endsWith("bwrap"));
      expect(await waitFor(() => bwraps().length > 0)).toBe(true);
      const writable = (argv: string[]) =>
        argv.some((arg, i) => arg === "--bind" && argv[i + 1] === envDir);
      expect(bwraps().filter(writable)).toEqual([]);
    } finally {
      processSandboxLauncher().stopAll();
      await rm(root, { recursive: true, force: true });
    }
  });
});
