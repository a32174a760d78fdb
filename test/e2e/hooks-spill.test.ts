/**
 * Hook text over its cap through `acai -p` (issue 22 item 7, as Codex does):
 * a PreToolUse hook's 6,000-character block reason reaches the model as a
 * preview and the path of a file under ACAI_HOME holding all of it (0600,
 * in the session's folder, seen by a Stop hook while the session runs), and
 * the folder is gone once the run ended.
 */
import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AcaiDirs, makeAcaiDirs } from "../support/run-acai.js";
import { runReplayStream } from "./helpers.js";

let dirs: AcaiDirs | undefined;
afterEach(async () => {
  await dirs?.cleanup();
  dirs = undefined;
});

describe("hook output over its cap", () => {
  it("is spilled to a file of the session's folder; the model gets a preview and the path", async () => {
    const d = await makeAcaiDirs("acai-hook-spill-");
    dirs = d;
    const reason = `${"why ".repeat(1000)}${"tail".repeat(500)}`; // 6,000 characters
    await writeFile(path.join(d.cwd, "reason.txt"), reason);
    const copied = path.join(d.cwd, "copied");
    const settings = {
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [
              {
                type: "command",
                name: "guard",
                command: "cat >/dev/null; cat reason.txt >&2; exit 2",
              },
            ],
          },
        ],
        Stop: [
          {
            hooks: [
              {
                type: "command",
                name: "copier",
                command: `cat >/dev/null; cp -rp '${path.join(d.acaiHome, "sessions")}' '${copied}'`,
              },
            ],
          },
        ],
      },
    };
    await writeFile(path.join(d.acaiHome, "settings.json"), JSON.stringify(settings));
    const turns = [
      { tool_calls: [{ name: "Bash", input: { command: "echo hi" } }] },
      { text: "done" },
    ];
    const { run, lines } = await runReplayStream<{
      type?: string;
      error?: string;
      sessionId?: string;
    }>(d, turns);
    expect(run.exitCode, run.stderr).toBe(0);
    const sessionId = lines.find((l) => l.type === "session_start")?.sessionId ?? "";
    expect(sessionId).not.toBe("");
    const error = lines.find((l) => l.type === "tool_call_error")?.error ?? "";
    const file = path.join(d.acaiHome, "sessions", sessionId, "hook-output", "1-guard-reason.txt");
    expect(error.startsWith("why why why")).toBe(true);
    expect(error.length).toBeLessThanOrEqual(4000);
    expect(error).toContain(`over 4000 characters: all 6000 are in ${file}]`);
    // While the session ran, the file held all of it, readable by its owner only.
    const seen = path.join(copied, sessionId, "hook-output", "1-guard-reason.txt");
    expect(await readFile(seen, "utf8")).toBe(reason);
    expect((await stat(seen)).mode & 0o777).toBe(0o600);
    // Cleaned with the session.
    await expect(stat(path.join(d.acaiHome, "sessions", sessionId))).rejects.toThrow();
  });
});
