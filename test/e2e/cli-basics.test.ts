import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AcaiDirs, makeAcaiDirs, REPO_ROOT, runAcai } from "../support/run-acai.js";
import { STACK_TRACE } from "./helpers.js";

let dirs: AcaiDirs;
beforeEach(async () => {
  dirs = await makeAcaiDirs();
});
afterEach(async () => {
  await dirs.cleanup();
});

describe("acai basics (built CLI)", () => {
  it("--version prints package.json's version", async () => {
    const pkg = JSON.parse(await readFile(path.join(REPO_ROOT, "package.json"), "utf8"));
    const result = await runAcai({ args: ["--version"], dirs });
    expect(result).toMatchObject({ exitCode: 0, stdout: `${pkg.version}\n`, stderr: "" });
  });

  it("--help lists the options and the exit codes", async () => {
    const result = await runAcai({ args: ["--help"], dirs });
    expect(result.exitCode).toBe(0);
    for (const text of [
      "-p, --print [prompt]",
      "--output-format <format>",
      "--max-steps <n>",
      "--model <spec>",
      "--base-url <url>",
      "--yes",
      "--trust-project ",
      "--no-project ",
      "Exit codes:",
      "143  terminated (SIGTERM)",
    ]) {
      expect(result.stdout).toContain(text);
    }
    // --model's own line names every kind of spec.
    const modelHelp = result.stdout
      .slice(result.stdout.indexOf("--model <spec>"), result.stdout.indexOf("--base-url <url>"))
      .replace(/\s+/g, " ");
    for (const spec of [
      "openai:MODEL",
      "just MODEL",
      "openai-chat:MODEL",
      "openai-responses:MODEL",
      "replay:FILE",
    ]) {
      expect(modelHelp).toContain(spec);
    }
  });

  it("a bad flag exits 2 with a clear message and no stack trace", async () => {
    const result = await runAcai({ args: ["-p", "hi", "--max-steps", "lots"], dirs });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe("");
    // The error line, then where to look (docs/cli.md says so).
    expect(result.stderr).toBe(
      "acai: error: option '--max-steps <n>' argument 'lots' is invalid. must be a whole number from 1 to 10000.\n(run acai --help for usage)\n",
    );
    expect(result.stderr).not.toMatch(STACK_TRACE);
    const unknown = await runAcai({ args: ["--frobnicate"], dirs });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain("unknown option '--frobnicate'");
  });

  it("--max-steps and the maxSteps setting share one limit: 10001 is refused by both", async () => {
    const flag = await runAcai({ args: ["-p", "hi", "--max-steps", "10001"], dirs });
    expect(flag.exitCode).toBe(2);
    expect(flag.stderr).toContain(
      "acai: error: option '--max-steps <n>' argument '10001' is invalid. must be a whole number from 1 to 10000.",
    );
    const file = path.join(dirs.acaiHome, "settings.json");
    await writeFile(file, JSON.stringify({ maxSteps: 10001 }));
    const setting = await runAcai({ args: ["-p", "hi", "--model", "openai:x"], dirs });
    expect(setting.exitCode).toBe(2);
    expect(setting.stderr).toMatch(
      new RegExp(`^acai: error: Settings file ${file}: field "maxSteps" is invalid: .*10000`),
    );
  });

  it("--output-format json: a bad or unknown flag still ends stdout with a result object", async () => {
    for (const args of [
      ["-p", "hi", "--output-format", "json", "--max-steps", "0"],
      ["-p", "hi", "--output-format", "json", "--frobnicate"],
    ]) {
      const result = await runAcai({ args, dirs });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toMatch(/^acai: error: /);
      const lines = result.stdout.trim().split("\n");
      expect(lines).toHaveLength(1);
      const res = JSON.parse(lines[0] ?? "");
      expect(res).toMatchObject({ type: "result", is_error: true, exit_code: 2 });
      expect(res.error).toMatch(/--max-steps|--frobnicate/);
    }
  });

  it("no prompt on an empty stdin exits 2 and says how to give one", async () => {
    const result = await runAcai({ args: ["-p"], dirs });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      'acai: error: the prompt is empty: give one with -p "your prompt", or pipe it on stdin.\n',
    );
  });

  it("acai hooks trust in a project without hooks says so", async () => {
    const result = await runAcai({ args: ["hooks", "trust"], dirs });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      `No project hooks, tools or settings in ${dirs.cwd}: nothing to trust.\n`,
    );
  });
});
