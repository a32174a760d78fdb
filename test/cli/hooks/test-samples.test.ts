import { mkdir, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SAMPLE_FILE, SAMPLE_FILE_CONTENT } from "../../../source/cli/hooks/sample-tools.js";
import { runProcess } from "../../../source/process/runner.js";
import { builtinTools } from "../../../source/tools/registry.js";
import { type AcaiDirs, acai, tempProject, userHook } from "../commands/helpers.js";

let dirs: AcaiDirs | undefined;
afterEach(async () => {
  await dirs?.cleanup();
  dirs = undefined;
});

/** Timing fields differ from run to run; everything else must be identical. */
function withoutTimings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTimings);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== "durationMs")
        .map(([key, item]) => [key, withoutTimings(item)]),
    );
  }
  return value;
}

describe("acai hooks test --event after_tool", () => {
  it("sends the tool_response and tool_output the real built-in returns for the same input", async () => {
    const project = await tempProject();
    dirs = project;
    await userHook(
      project,
      "observer",
      { name: "observer", events: ["after_tool"] },
      "cat >/dev/null; exit 0",
    );
    const sampleFile = path.join(project.cwd, SAMPLE_FILE);
    for (const toolName of ["Write", "Read", "Edit", "Glob", "Grep"]) {
      const result = await acai(project, [
        "hooks",
        "test",
        "observer",
        "--event",
        "after_tool",
        "--tool",
        toolName,
        "--json",
      ]);
      expect(result.exitCode, result.stderr).toBe(0);
      const payload = JSON.parse((JSON.parse(result.stdout) as { stdin: string }).stdin) as {
        tool_name: string;
        tool_input: Record<string, unknown>;
        tool_response: unknown;
        tool_output: string;
      };
      expect(payload.tool_name).toBe(toolName);

      // The same call, made for real in the project the sample describes.
      await rm(sampleFile, { force: true });
      if (toolName !== "Write") {
        await mkdir(path.dirname(sampleFile), { recursive: true });
        await writeFile(sampleFile, SAMPLE_FILE_CONTENT);
      }
      const tool = builtinTools().find((t) => t.name === toolName);
      const real = await tool?.execute(payload.tool_input, {
        cwd: project.cwd,
        signal: new AbortController().signal,
        runner: runProcess,
        env: {},
      });
      if (!real?.ok) throw new Error(`${toolName} failed for real: ${JSON.stringify(real)}`);
      expect(withoutTimings(payload.tool_response), toolName).toEqual(
        withoutTimings(real.response),
      );
      expect(payload.tool_output, toolName).toBe(real.output);
    }
  });

  it("leaves the project alone (a Write sample writes nothing there)", async () => {
    const project = await tempProject();
    dirs = project;
    await userHook(
      project,
      "observer",
      { name: "observer", events: ["after_tool"] },
      "cat >/dev/null; exit 0",
    );
    const result = await acai(project, [
      "hooks",
      "test",
      "observer",
      "--event",
      "after_tool",
      "--tool",
      "Write",
      "--json",
    ]);
    expect(result.exitCode, result.stderr).toBe(0);
    const payload = JSON.parse((JSON.parse(result.stdout) as { stdin: string }).stdin) as {
      tool_response: { type: string; filePath: string };
    };
    expect(payload.tool_response).toMatchObject({
      type: "create",
      filePath: path.join(project.cwd, SAMPLE_FILE),
    });
    await expect(stat(path.join(project.cwd, "src"))).rejects.toThrow(/ENOENT/);
  });
});
