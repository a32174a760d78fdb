/**
 * The Agent Hooks spec's examples (seed 003) as its users write them: HOOK.md
 * folders with their scripts, installed in `~/.config/agents/hooks/`, run
 * through `acai -p` with the effect the spec describes.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AcaiDirs, makeAcaiDirs } from "../../support/run-acai.js";
import { installExample, replayModel, runPrompt } from "../support.js";

let dirs: AcaiDirs;
beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-seeds-agenthooks-");
});
afterEach(async () => {
  await dirs.cleanup();
});

const userHooks = () => path.join(dirs.home, ".config", "agents", "hooks");

describe("Agent Hooks spec examples through acai -p", () => {
  it("§10.2/§10.3: block-dangerous-commands greps its stdin and blocks mkfs; a safe command runs", async () => {
    await installExample(
      "agent-hooks/hooks/block-dangerous-commands",
      path.join(userHooks(), "block-dangerous-commands"),
    );
    const model = await replayModel(dirs, [
      { name: "Bash", input: { command: "mkfs.acai-test /dev/null 2>/dev/null; touch formatted" } },
      { name: "Bash", input: { command: "touch safe" } },
    ]);
    // Bash allowed by rule: only the hook stands between the model and mkfs.
    const result = await runPrompt(dirs, model, ["--allowedTools", "Bash"]);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(
      "hook block-dangerous-commands blocked before_tool: Dangerous command blocked: mkfs would destroy the system",
    );
    expect(existsSync(path.join(dirs.cwd, "formatted"))).toBe(false);
    expect(existsSync(path.join(dirs.cwd, "safe"))).toBe(true);
  });
});
