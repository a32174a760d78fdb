/**
 * Hook text over a cap is spilled to a file of the session's folder, not cut:
 * the whole text in a new 0600 file, the preview and the path within the cap,
 * a hostile hook name kept to one path component, the files kept with the
 * session (a resumed session numbers after them, never over them); a text
 * that cannot be written is cut and says why. Through runHookOnce: every
 * hook kind's reason and message (command, persistent, plugin, http, prompt,
 * agent, mcp_tool), cut when there is no spill, and every hook's context.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ANSWER_TEXT_CAPS } from "../../../source/hooks/contract/decision.js";
import type { HookDefinition } from "../../../source/hooks/contract/definition.js";
import { decodeAnswerText } from "../../../source/hooks/contract/dialects/index.js";
import type { HandlerServices } from "../../../source/hooks/run/handlers/services.js";
import { type HookRunRecord, runHookOnce } from "../../../source/hooks/run/run.js";
import { createSpill, type Spill, spillDir } from "../../../source/hooks/run/spill.js";
import { quietRunResult } from "../../../source/process/result.js";
import type { ProcessRunner } from "../../../source/process/types.js";
import { makeHook } from "../support.js";

const homes: string[] = [];
afterEach(async () => {
  for (const dir of homes.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function home(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "acai-spill-"));
  homes.push(dir);
  return dir;
}

const pathIn = (text: string): string => /are in (\S+)\]$/.exec(text)?.[1] ?? "";

describe("createSpill", () => {
  it("keeps a text within the cap as it is and writes nothing", async () => {
    const acaiHome = await home();
    const spill = createSpill({ acaiHome, sessionId: () => "s1" });
    expect(spill.text("short", "reason", 10, "guard")).toBe("short");
    await expect(readdir(path.join(acaiHome, "sessions"))).rejects.toThrow();
  });

  it("writes the whole text 0600 and gives a preview with the path, within the cap", async () => {
    const acaiHome = await home();
    const spill = createSpill({ acaiHome, sessionId: () => "s1" });
    const text = `${"a".repeat(500)}${"b".repeat(1500)}`;
    const shown = spill.text(text, "context", 1000, "../../etc/passwd");
    expect(shown.length).toBeLessThanOrEqual(1000);
    expect(shown.startsWith("a".repeat(100))).toBe(true);
    expect(shown).toContain('context of hook "../../etc/passwd" over 1000 characters: all 2000');
    const file = pathIn(shown);
    expect(path.dirname(file)).toBe(spillDir(acaiHome, "s1"));
    expect(path.basename(file)).toBe("1-.._.._etc_passwd-context.txt");
    expect(await readFile(file, "utf8")).toBe(text);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o077).toBe(0);
    const second = pathIn(spill.text(text, "reason", 1000, "guard"));
    expect(path.basename(second)).toBe("2-guard-reason.txt");
  });

  it("a resumed session's spill numbers after the files there and never writes over one", async () => {
    const acaiHome = await home();
    const text = "x".repeat(2000);
    const first = pathIn(
      createSpill({ acaiHome, sessionId: () => "s1" }).text(text, "reason", 1000, "g"),
    );
    // The same session resumed: a new spill, counting from 1 again.
    const resumed = createSpill({ acaiHome, sessionId: () => "s1" });
    const again = pathIn(resumed.text(`${"y".repeat(2000)}`, "reason", 1000, "g"));
    expect(path.basename(first)).toBe("1-g-reason.txt");
    expect(path.basename(again)).toBe("2-g-reason.txt");
    expect(await readFile(first, "utf8")).toBe(text);
    expect(await readFile(again, "utf8")).toBe("y".repeat(2000));
  });

  it("steps over a link planted where a file would go, never writing through it", async () => {
    const acaiHome = await home();
    const dir = spillDir(acaiHome, "s1");
    await mkdir(dir, { recursive: true });
    const target = path.join(acaiHome, "target.txt");
    await writeFile(target, "kept");
    await symlink(target, path.join(dir, "1-g-reason.txt"));
    const shown = createSpill({ acaiHome, sessionId: () => "s1" }).text(
      "z".repeat(50),
      "reason",
      10,
      "g",
    );
    expect(path.basename(pathIn(shown))).toBe("2-g-reason.txt");
    expect(await readFile(target, "utf8")).toBe("kept");
  });

  it("cuts the text and says why when the file cannot be written", async () => {
    const acaiHome = await home();
    await writeFile(path.join(acaiHome, "sessions"), "a file where the folder would go");
    const spill = createSpill({ acaiHome, sessionId: () => "s1" });
    const shown = spill.text("x".repeat(50), "message", 10, "guard");
    expect(shown).toMatch(
      /^x{10}\n… \[message cut at 10 characters by acai\] \(the whole text could not be written to /,
    );
  });
});

describe("runHookOnce with a spill", () => {
  const runnerOf =
    (stdout: string, stderr: string, exitCode: number): ProcessRunner =>
    async () =>
      quietRunResult({ exitCode, stdout, stderr });

  it("spills a command hook's block reason over its cap; the audit's error stays cut", async () => {
    const acaiHome = await home();
    const spill = createSpill({ acaiHome, sessionId: () => "s2" });
    const reason = "r".repeat(ANSWER_TEXT_CAPS.reason + 500);
    const record = await runHookOnce(
      makeHook({ name: "guard" }),
      "before_tool",
      {},
      {
        runner: runnerOf("", reason, 2),
        env: {},
        projectDir: acaiHome,
        sessionId: "s2",
        spill,
        contextCapChars: 10_000,
      },
    );
    expect(record.decision.action).toBe("block");
    const shown = record.decision.reason ?? "";
    expect(shown.length).toBeLessThanOrEqual(ANSWER_TEXT_CAPS.reason);
    expect(await readFile(pathIn(shown), "utf8")).toBe(reason);
  });

  it("spills context over the session's context cap, whatever the hook's kind", async () => {
    const acaiHome = await home();
    const spill = createSpill({ acaiHome, sessionId: () => "s3" });
    const context = "c".repeat(3000);
    // user_prompt: a hook's plain stdout is context.
    const answer = context;
    const record = await runHookOnce(
      makeHook({ name: "ctx" }),
      "user_prompt",
      {},
      {
        runner: runnerOf(answer, "", 0),
        env: {},
        projectDir: acaiHome,
        sessionId: "s3",
        spill,
        contextCapChars: 1000,
      },
    );
    const shown = record.decision.context ?? "";
    expect(shown.length).toBeLessThanOrEqual(1000);
    expect(await readFile(pathIn(shown), "utf8")).toBe(context);
  });
});

describe("every hook kind's texts are held to their caps in one place", () => {
  const long = (c: string, n: number): string => c.repeat(n);
  const reason = `${long("r", ANSWER_TEXT_CAPS.reason)}${long("R", 500)}`;
  const message = `${long("m", ANSWER_TEXT_CAPS.message)}${long("M", 500)}`;
  const answer = JSON.stringify({ decision: "block", reason, systemMessage: message });
  const judged = JSON.stringify({ ok: false, reason });

  /** A record as the kind's own runner would give it: the answer decoded, nothing cut. */
  const answered = (hook: HookDefinition): HookRunRecord => ({
    hookId: hook.id,
    event: "before_tool",
    stdin: "{}",
    command: hook.launch.command,
    args: [],
    exitCode: 0,
    signal: null,
    stdout: answer,
    stderr: "",
    durationMs: 1,
    timedOut: false,
    aborted: false,
    outputLimit: false,
    decision: decodeAnswerText(answer, "before_tool"),
  });
  const noProcess = { args: [] as [], viaShell: false as const };
  const kinds: [string, Partial<HookDefinition>, HandlerServices, boolean][] = [
    [
      "persistent",
      { launch: { mode: "persistent", command: "/h/p", args: [], viaShell: false } },
      {},
      true,
    ],
    [
      "plugin",
      {
        launch: {
          mode: "plugin",
          command: "/h/p.js",
          args: ["#1"],
          viaShell: false,
          registration: 1,
        },
      },
      {},
      true,
    ],
    [
      "http",
      {
        launch: {
          mode: "http",
          command: "http://127.0.0.1:1/h",
          url: "http://127.0.0.1:1/h",
          headers: {},
          allowedEnvVars: [],
          ...noProcess,
        },
      },
      {
        http: {
          post: async () => ({ kind: "answered", status: 200, body: answer, durationMs: 1 }),
          close() {},
        },
      },
      true,
    ],
    [
      "prompt",
      { launch: { mode: "prompt", command: "prompt", prompt: "judge", ...noProcess } },
      { judge: async () => judged },
      false,
    ],
    [
      "agent",
      { launch: { mode: "agent", command: "agent", prompt: "verify", ...noProcess } },
      { verify: async () => judged },
      false,
    ],
    [
      "mcp_tool",
      { launch: { mode: "mcp_tool", command: "mcp__s__t", server: "s", tool: "t", ...noProcess } },
      { mcpTool: async () => ({ ok: true, text: answer }) },
      true,
    ],
  ];

  async function runKind(
    overrides: Partial<HookDefinition>,
    handlers: HandlerServices,
    spill: Spill | undefined,
  ): Promise<HookRunRecord> {
    const hook = makeHook({ name: "judge-hook", ...overrides });
    const fake = async () => answered(hook);
    return runHookOnce(
      hook,
      "before_tool",
      { tool_name: "Bash" },
      {
        runner: async () => quietRunResult({ exitCode: 0, stdout: answer }),
        env: {},
        projectDir: os.tmpdir(),
        sessionId: "s4",
        persistent: { request: fake },
        plugins: { call: fake },
        handlers,
        ...(spill === undefined ? {} : { spill, contextCapChars: 10_000 }),
      },
    );
  }

  it.each(kinds)(
    "a %s hook's reason and message over their caps are spilled",
    async (_kind, overrides, handlers, hasMessage) => {
      const acaiHome = await home();
      const record = await runKind(
        overrides,
        handlers,
        createSpill({ acaiHome, sessionId: () => "s4" }),
      );
      expect(record.decision.action).toBe("block");
      const shownReason = record.decision.reason ?? "";
      expect(shownReason.length).toBeLessThanOrEqual(ANSWER_TEXT_CAPS.reason);
      expect(shownReason).toContain(
        `reason of hook "judge-hook" over ${ANSWER_TEXT_CAPS.reason} characters`,
      );
      expect(await readFile(pathIn(shownReason), "utf8")).toBe(reason);
      if (hasMessage) {
        const shownMessage = record.decision.message ?? "";
        expect(shownMessage.length).toBeLessThanOrEqual(ANSWER_TEXT_CAPS.message);
        expect(await readFile(pathIn(shownMessage), "utf8")).toBe(message);
      }
    },
  );

  it.each(kinds)(
    "a %s hook's reason is cut, visibly, when nothing spills",
    async (_kind, overrides, handlers) => {
      const record = await runKind(overrides, handlers, undefined);
      expect(record.decision.reason).toContain(
        `[reason cut at ${ANSWER_TEXT_CAPS.reason} characters by acai]`,
      );
    },
  );
});
