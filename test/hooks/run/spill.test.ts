/**
 * Hook text over a cap is spilled to a file of the session's folder, not cut:
 * the whole text in a new 0600 file, the preview and the path within the cap,
 * a hostile hook name kept to one path component, the folder gone after
 * clean(); a text that cannot be written is cut and says why. Through
 * runHookOnce: a command hook's block reason and every hook's context.
 */
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ANSWER_TEXT_CAPS } from "../../../source/hooks/contract/decision.js";
import { runHookOnce } from "../../../source/hooks/run/run.js";
import { createSpill, spillDir } from "../../../source/hooks/run/spill.js";
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
    spill.clean();
    await expect(stat(file)).rejects.toThrow();
    await expect(stat(path.join(acaiHome, "sessions", "s1"))).rejects.toThrow();
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
