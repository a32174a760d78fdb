/**
 * `acai hooks why <tool_call_id>` after a real `acai -p` session: for each
 * tool call, every hook considered — the guard whose `if` did not catch the
 * call, the one that ran and what it answered, the one the block left
 * unreached, the disabled one — and what the chain decided.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../../support/run-acai.js";

let dirs: AcaiDirs | undefined;
afterEach(async () => {
  await dirs?.cleanup();
  dirs = undefined;
});

async function toolCallIds(d: AcaiDirs): Promise<string[]> {
  const text = await readFile(path.join(d.acaiHome, "logs", "hooks-audit.jsonl"), "utf8");
  const ids = text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { kind?: string; event: string; tool_call_id?: string })
    .filter((l) => l.kind === "considered" && l.event === "before_tool")
    .map((l) => l.tool_call_id ?? "");
  return ids;
}

describe("acai hooks why", () => {
  it("explains every hook of one tool call: ran, not reached, if, disabled, and the decision", async () => {
    const d = await makeAcaiDirs("acai-hooks-why-");
    dirs = d;
    const hooks = [
      {
        type: "command",
        name: "rm-guard",
        if: "Bash(rm:*)",
        command: "cat >/dev/null; echo 'no rm here' >&2; exit 2",
      },
      { type: "command", name: "noter", command: "cat >/dev/null; exit 0" },
      { type: "command", name: "switched-off", enabled: false, command: "exit 2" },
    ];
    const settings = { hooks: { PreToolUse: [{ matcher: "Bash", hooks }] } };
    await writeFile(path.join(d.acaiHome, "settings.json"), JSON.stringify(settings));
    const turns = [
      { tool_calls: [{ name: "Bash", input: { command: "echo fine" } }] },
      { tool_calls: [{ name: "Bash", input: { command: "rm -rf build" } }] },
      { text: "done" },
    ];
    await writeFile(path.join(d.cwd, "replay.json"), JSON.stringify({ turns }));
    const run = await runAcai({
      args: ["-p", "go", "--model", "replay:replay.json", "--yes"],
      dirs: d,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const [fine, rm] = await toolCallIds(d);
    expect(fine).toBeTruthy();
    expect(rm).toBeTruthy();

    const first = await runAcai({ args: ["hooks", "why", fine as string], dirs: d });
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout).toContain("before_tool:");
    expect(first.stdout).toMatch(
      /rm-guard .*not run \(if\) — "if": "Bash\(rm:\*\)" does not catch/,
    );
    expect(first.stdout).toMatch(/noter .*ran, answered continue/);
    expect(first.stdout).toMatch(/switched-off .*not run \(disabled\) — "enabled": false/);
    expect(first.stdout).toContain("decided: go on");

    const second = await runAcai({ args: ["hooks", "why", rm as string], dirs: d });
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/rm-guard .*ran, answered block; reason: no rm here \[exit 2/);
    expect(second.stdout).toMatch(/noter .*not reached: the chain ended at rm-guard's block/);
    expect(second.stdout).toContain("decided: block by rm-guard: no rm here");
  });

  it("says so, with exit 2, for a tool call no hook considered", async () => {
    const d = await makeAcaiDirs("acai-hooks-why-");
    dirs = d;
    const none = await runAcai({ args: ["hooks", "why", "call_nope"], dirs: d });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('no hook considered tool call "call_nope"');
  });
});
