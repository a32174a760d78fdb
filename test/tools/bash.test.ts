import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bashTool } from "../../source/tools/builtin/bash.js";
import { call, contextFor, expectError, expectOk, makeTempDir } from "./helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir("bash"));
});
afterEach(() => cleanup());

const tool = bashTool();

describe("Bash", () => {
  it("publishes Claude Code's input fields", () => {
    expect(tool.name).toBe("Bash");
    const schema = tool.inputSchema as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(schema.properties).sort()).toEqual(["command", "description", "timeout"]);
    expect(schema.required).toEqual(["command"]);
  });

  it("rejects bad input naming the field", () => {
    const missing = tool.validate({});
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.error).toMatch(/^Invalid input for Bash: command:/);
    const tooLong = tool.validate({ command: "true", timeout: 600_001 });
    expect(tooLong.ok).toBe(false);
    if (!tooLong.ok) expect(tooLong.error).toMatch(/timeout:/);
  });

  it("runs in the project directory and returns stdout, stderr and exit code", async () => {
    const result = expectOk(
      await call(tool, { command: "pwd -P; echo warn >&2" }, contextFor(dir)),
    );
    const real = execFileSync("realpath", [dir], { encoding: "utf8" }).trim();
    expect(result.output).toBe(`${real}\nwarn`);
    expect(result.response).toEqual({
      stdout: `${real}\n`,
      stderr: "warn\n",
      exit_code: 0,
      interrupted: false,
    });
  });

  it("reports a non-zero exit with the output and code, response still filled", async () => {
    const result = expectError(
      await call(tool, { command: "echo partial; exit 7" }, contextFor(dir)),
    );
    expect(result.error).toBe("Command failed with exit code 7. Output:\npartial");
    expect(result.interrupted).toBe(false);
    expect(result.response).toEqual({
      stdout: "partial\n",
      stderr: "",
      exit_code: 7,
      interrupted: false,
    });
  });

  it("times out, kills the command and marks it interrupted", async () => {
    const result = expectError(
      await call(tool, { command: "echo begun; sleep 30", timeout: 150 }, contextFor(dir)),
    );
    expect(result.error).toMatch(/^Command timed out after 150 ms and was killed\. Output:\nbegun/);
    expect(result.interrupted).toBe(true);
    expect(result.response).toMatchObject({ interrupted: true, exit_code: null });
  });

  it("is killed with its children on abort", async () => {
    const marker = `acai-bash-abort-${randomUUID()}`;
    const controller = new AbortController();
    const pending = call(
      tool,
      { command: `bash -c 'sleep 30; : ${marker}' & sleep 30` },
      contextFor(dir, controller.signal),
    );
    setTimeout(() => controller.abort(), 100);
    const result = expectError(await pending);
    expect(result.error).toMatch(/^Command was aborted/);
    expect(result.interrupted).toBe(true);
    await new Promise((r) => setTimeout(r, 50));
    expect(execFileSync("ps", ["-eo", "args="], { encoding: "utf8" })).not.toContain(marker);
  });

  it("caps long output for the model with a visible marker", async () => {
    const result = expectOk(await call(tool, { command: "seq 1 100000" }, contextFor(dir)));
    expect(result.output.length).toBeLessThan(31_000);
    expect(result.output).toMatch(/\[\.\.\. \d+ characters truncated \.\.\.\]/);
    expect(result.output.startsWith("1\n2\n3\n")).toBe(true);
    expect(result.output.endsWith("99999\n100000")).toBe(true);
    expect((result.response as { stdout: string }).stdout.length).toBe(588_895);
  });

  it("says so when a command prints nothing", async () => {
    expect(expectOk(await call(tool, { command: "true" }, contextFor(dir))).output).toBe(
      "(no output)",
    );
  });

  it("gives a clear error when the project directory is missing", async () => {
    const result = expectError(await call(tool, { command: "true" }, contextFor(`${dir}/gone`)));
    expect(result.error).toMatch(/working directory .*gone.* does not exist/);
  });
});
