/**
 * Claude Code's `asyncRewake` through `acai -p`: an async UserPromptSubmit
 * hook that exits 2 wakes the agent — its stderr reaches the model as a
 * system reminder in a turn of its own, taken after the running turn and
 * before the run ends. (A wake-up after the run's last turn is not delivered:
 * test/hooks/run/rewake.test.ts.)
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AcaiDirs, makeAcaiDirs } from "../support/run-acai.js";
import { runReplayStream } from "./helpers.js";

let dirs: AcaiDirs | undefined;
afterEach(async () => {
  await dirs?.cleanup();
  dirs = undefined;
});

describe("asyncRewake", () => {
  it("an exit 2 of the async hook is another turn, its text a system reminder", async () => {
    const d = await makeAcaiDirs("acai-hook-rewake-");
    dirs = d;
    const marker = path.join(d.cwd, "hook-done");
    const settings = {
      hooks: {
        UserPromptSubmit: [
          {
            hooks: [
              {
                type: "command",
                name: "tests",
                asyncRewake: true,
                command: `cat >/dev/null; [ -e '${marker}' ] && exit 0; echo "3 tests failed in auth.test.ts" >&2; touch '${marker}'; exit 2`,
              },
            ],
          },
        ],
      },
    };
    await writeFile(path.join(d.acaiHome, "settings.json"), JSON.stringify(settings));
    // The first turn's tool waits for the hook to be done, and a moment for acai to settle it.
    const wait = `while [ ! -e '${marker}' ]; do sleep 0.05; done; sleep 1`;
    const turns = [
      { tool_calls: [{ name: "Bash", input: { command: wait } }] },
      { text: "first turn done" },
      { text: "fixing the 3 tests" },
    ];
    const { run, lines } = await runReplayStream<{
      type?: string;
      prompt?: string;
      message?: string;
    }>(d, turns, { timeoutMs: 30_000 });
    expect(run.exitCode, run.stderr).toBe(0);
    const prompts = lines.filter((l) => l.type === "turn_start").map((l) => l.prompt ?? "");
    expect(prompts).toHaveLength(2);
    expect(prompts[0]).toBe("go");
    expect(prompts[1]).toContain("<system-reminder>");
    expect(prompts[1]).toContain(
      'The async hook "tests" exited 2 and woke you with:\n3 tests failed in auth.test.ts',
    );
    const warnings = lines.filter((l) => l.type === "hook_warning").map((l) => l.message ?? "");
    expect(warnings.filter((w) => w.includes("is ignored"))).toEqual([]);
    expect(run.stdout).toContain("fixing the 3 tests");
  });
});
