/**
 * A settings file whose `hooks` field is not an object is a bad settings file
 * (exit 2, naming the file and the field), not an untrusted or broken hook.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { jsonLines, STACK_TRACE } from "./helpers.js";

let dirs: AcaiDirs;
beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-settings-hooks-");
});
afterEach(async () => {
  await dirs.cleanup();
});

const message = (file: string, got: string) =>
  `acai: error: Settings file ${file}: field "hooks" is invalid: expected an object keyed by event name, e.g. {"PreToolUse": [...]} (got ${got}). Fix or remove "hooks".`;

describe("a settings `hooks` field of the wrong type", () => {
  it("in the project settings: acai -p exits 2 naming the file and field, before any trust question", async () => {
    const file = path.join(dirs.cwd, ".acai", "settings.json");
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify({ hooks: 5 }));
    const text = await runAcai({ args: ["-p", "hi", "--model", "openai:x"], dirs });
    expect(text.exitCode, text.stderr).toBe(2);
    expect(text.stderr.trim()).toBe(message(file, "number 5"));
    expect(text.stderr).not.toMatch(/untrusted|trust/);
    expect(text.stderr).not.toMatch(STACK_TRACE);

    const json = await runAcai({
      args: ["-p", "hi", "--model", "openai:x", "--output-format", "json"],
      dirs,
    });
    expect(json.exitCode).toBe(2);
    expect(jsonLines(json.stdout).at(-1)).toMatchObject({
      type: "result",
      exit_code: 2,
      error: expect.stringContaining(`${file}: field "hooks" is invalid`),
    });

    const trust = await runAcai({ args: ["hooks", "trust"], dirs });
    expect(trust.exitCode).toBe(2);
    expect(trust.stderr.trim()).toBe(message(file, "number 5"));
  });

  it("in the user settings: exit 2 too (it was a broken-hook warning and the run went on)", async () => {
    const file = path.join(dirs.acaiHome, "settings.json");
    await writeFile(file, JSON.stringify({ hooks: ["PreToolUse"] }));
    const result = await runAcai({ args: ["-p", "hi", "--model", "openai:x"], dirs });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toBe(message(file, "an array"));
  });
});
