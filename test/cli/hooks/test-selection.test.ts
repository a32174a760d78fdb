import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AcaiDirs, acai, tempProject, userHook } from "../commands/helpers.js";

let dirs: AcaiDirs | undefined;
afterEach(async () => {
  await dirs?.cleanup();
  dirs = undefined;
});

describe("acai hooks test: a sample the matcher does not select", () => {
  it("says a session would not run the hook, runs nothing and exits 0; --event defaults to the hook's one event", async () => {
    dirs = await tempProject();
    const marker = path.join(dirs.root, "ran");
    await userHook(
      dirs,
      "no-rm",
      { name: "no-rm", events: ["before_tool"], matcher: { tool: "Bash", command: "rm -rf" } },
      `touch ${marker}; echo "no rm -rf here" >&2; exit 2`,
    );
    const skipped = await acai(dirs, ["hooks", "test", "no-rm"]);
    expect(skipped.stderr).toBe("");
    expect(skipped.exitCode).toBe(0);
    expect(skipped.stdout).toContain("Testing no-rm (user executable");
    expect(skipped.stdout).toContain(
      'a session would not run this hook: its matcher tool "Bash", command "rm -rf" does not select this before_tool sample (tool Bash, input {"command":"npm test","description":"Run the test suite"}).',
    );
    expect(skipped.stdout).not.toContain("acai would:");
    expect(existsSync(marker)).toBe(false);

    const json = await acai(dirs, ["hooks", "test", "no-rm", "--json"]);
    expect(json.exitCode).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      event: "before_tool",
      selected: false,
      ran: false,
      would: "not run this hook",
    });
    expect(existsSync(marker)).toBe(false);

    // A sample it selects runs it, still without --event.
    const blocked = await acai(dirs, [
      "hooks",
      "test",
      "no-rm",
      "--input",
      '{"tool_input":{"command":"rm -rf build"}}',
    ]);
    expect(blocked.exitCode).toBe(2);
    expect(blocked.stdout).toContain("acai would: not run the tool");
    expect(existsSync(marker)).toBe(true);
  });

  it("shows a settings hook's Claude matcher as written", async () => {
    dirs = await tempProject();
    const marker = path.join(dirs.root, "ran");
    await mkdir(dirs.acaiHome, { recursive: true });
    await writeFile(
      path.join(dirs.acaiHome, "settings.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: "mcp__.*",
              hooks: [{ type: "command", command: `touch ${marker}`, name: "toucher" }],
            },
          ],
        },
      }),
    );
    const result = await acai(dirs, ["hooks", "test", "toucher", "--tool", "Bash"]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(
      'a session would not run this hook: its matcher tool "mcp__.*" does not select this before_tool sample (tool Bash).',
    );
    expect(existsSync(marker)).toBe(false);
  });

  it("asks for --event when the hook has several events", async () => {
    dirs = await tempProject();
    await userHook(dirs, "both", { name: "both", events: ["before_tool", "after_tool"] }, "exit 0");
    const result = await acai(dirs, ["hooks", "test", "both"]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      "hook both listens to before_tool, after_tool: name the event to send with --event",
    );
  });
});
