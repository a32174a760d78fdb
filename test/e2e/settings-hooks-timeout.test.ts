/**
 * A Claude Code settings hook with a timeout beyond acai's 600 s limit runs
 * unchanged: acai clamps the timeout and says so once, naming file and hook.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs } from "./helpers.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;
beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-settings-timeout-");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

const NOTE = "timeout 900 s is above acai's 600 s limit; using 600 s";

describe("a settings hook timeout above 600 s", () => {
  it("runs the hook with 600 s and warns once, naming the settings file and the hook", async () => {
    const marker = path.join(dirs.root, "hook-input.json");
    const settingsFile = path.join(dirs.acaiHome, "settings.json");
    const hooks = {
      UserPromptSubmit: [
        { hooks: [{ type: "command", command: `cat > '${marker}'`, timeout: 900 }] },
      ],
    };
    await writeFile(settingsFile, JSON.stringify({ hooks }));
    server = await startFakeOpenAI([{ text: "all done" }]);
    const result = await runAcai({
      args: ["-p", "hello there", ...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain("all done");
    expect(JSON.parse(await readFile(marker, "utf8"))).toMatchObject({ prompt: "hello there" });
    expect(result.stderr.split(NOTE)).toHaveLength(2);
    expect(result.stderr).toContain(
      `acai: warning: Settings file ${settingsFile}: hook hooks.UserPromptSubmit[0].hooks[0] (cat): ${NOTE}.`,
    );
    expect(result.stderr).not.toMatch(/not loaded|broken/);

    const list = await runAcai({ args: ["hooks", "list", "--json"], dirs });
    expect(list.exitCode, list.stderr).toBe(0);
    const inventory = JSON.parse(list.stdout) as {
      hooks: { timeout_ms: number }[];
      warnings: string[];
    };
    expect(inventory.hooks.map((h) => h.timeout_ms)).toEqual([600_000]);
    expect(inventory.warnings).toEqual([expect.stringContaining(NOTE)]);
  });

  it("a non-numeric timeout still makes the hook broken", async () => {
    const settingsFile = path.join(dirs.acaiHome, "settings.json");
    const hooks = { Stop: [{ hooks: [{ type: "command", command: "true", timeout: "900" }] }] };
    await writeFile(settingsFile, JSON.stringify({ hooks }));
    server = await startFakeOpenAI([{ text: "all done" }]);
    const result = await runAcai({
      args: ["-p", "hi", ...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      `hook hooks.Stop[0].hooks[0] (${settingsFile}) is not loaded: timeout: expected a number of seconds`,
    );
  });
});
