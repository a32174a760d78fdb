/**
 * Claude Code's `statusMessage` through `acai -p`: the `hook_start` line of
 * stream-json carries it (the REPL shows it while the hook runs:
 * test/repl/status-message.test.tsx); a hook without one has none.
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

interface Line {
  type?: string;
  event?: string;
  hook?: { name?: string };
  statusMessage?: string;
}

describe("statusMessage", () => {
  it("is on the hook_start line of stream-json, for the hook that has one", async () => {
    const d = await makeAcaiDirs("acai-hook-status-");
    dirs = d;
    const settings = {
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [
              { type: "command", command: "cat >/dev/null", statusMessage: "Checking the command" },
              { type: "command", command: "cat >/dev/null; true" },
            ],
          },
        ],
      },
    };
    await writeFile(path.join(d.acaiHome, "settings.json"), JSON.stringify(settings));
    const turns = [
      { tool_calls: [{ name: "Bash", input: { command: "echo hi" } }] },
      { text: "ok" },
    ];
    const { run, lines } = await runReplayStream<Line>(d, turns);
    expect(run.exitCode, run.stderr).toBe(0);
    const starts = lines.filter((l) => l.type === "hook_start");
    expect(starts).toHaveLength(2);
    expect(starts.map((l) => l.event)).toEqual(["before_tool", "before_tool"]);
    expect(starts[0]?.statusMessage).toBe("Checking the command");
    expect(starts[1]).not.toHaveProperty("statusMessage");
  });
});
