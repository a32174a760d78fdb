/**
 * The `tool_output` / `tool_response` of a sample `after_tool` event, produced
 * by running the REAL built-in tool on the sample input, so the shapes hooks
 * see in `acai hooks test` are the shapes a session sends (they cannot drift).
 *
 * File tools run in a throwaway temp folder holding a sample file; the paths
 * in the result are mapped back to the project. Bash runs through a canned
 * process runner: the tool's own code builds the result, no command runs.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { quietRunResult } from "../../process/result.js";
import type { RunResult } from "../../process/types.js";
import type { BashResponse } from "../../tools/builtin/bash.js";
import { builtinTools } from "../../tools/registry.js";
import type { ToolContext, ToolResult } from "../../tools/types.js";

/** Relative to the project: the file the sample Read/Write/Edit/Glob/Grep calls are about. */
export const SAMPLE_FILE = path.join("src", "example.ts");
export const SAMPLE_FILE_CONTENT =
  '// TODO: greet the user by name\nexport const greeting = "hello";\n';
const SAMPLE_BASH_STDOUT =
  "> test\n> vitest run\n\n Test Files  12 passed (12)\n      Tests  87 passed (87)\n";

export interface SampleToolResult {
  output: string;
  response: unknown;
}

function cannedRunner(stdout: string) {
  return async (): Promise<RunResult> => quietRunResult({ exitCode: 0, stdout, durationMs: 1260 });
}

/** Every string in `value` with `from` replaced by `to` (paths of the temp folder → the project). */
function replaceDeep(value: unknown, from: string, to: string): unknown {
  if (typeof value === "string") return value.split(from).join(to);
  if (Array.isArray(value)) return value.map((item) => replaceDeep(item, from, to));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, replaceDeep(item, from, to)]),
    );
  }
  return value;
}

/** A path inside the project becomes the same path inside the scratch folder. */
function intoScratch(value: unknown, projectDir: string, scratch: string): unknown {
  if (typeof value !== "string" || !path.isAbsolute(value)) return value;
  const relative = path.relative(projectDir, value);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return value;
  return path.join(scratch, relative);
}

/** A dynamic tool's result (same shape as Bash's: its stdout, stderr, exit code). */
function dynamicToolResult(): SampleToolResult {
  const response: BashResponse = {
    stdout: "done\n",
    stderr: "",
    exit_code: 0,
    interrupted: false,
  };
  return { output: "done", response };
}

/**
 * Runs the built-in `toolName` on `input` (paths under `projectDir`) and
 * returns what it returned, as if it had run in `projectDir`. A name that is
 * not a built-in gets a dynamic tool's result.
 */
export async function sampleToolResult(
  toolName: string,
  input: Record<string, unknown>,
  projectDir: string,
): Promise<SampleToolResult> {
  const tool = builtinTools().find((t) => t.name === toolName);
  if (!tool) return dynamicToolResult();
  const context: Omit<ToolContext, "cwd"> = {
    signal: new AbortController().signal,
    runner: cannedRunner(SAMPLE_BASH_STDOUT),
    env: {},
  };
  if (toolName === "Bash") {
    return fromResult(toolName, await tool.execute(input, { ...context, cwd: projectDir }));
  }
  const scratch = await realpath(await mkdtemp(path.join(os.tmpdir(), "acai-hooks-sample-")));
  try {
    // Write shows a new file being created; the others find the sample file in place.
    if (toolName !== "Write") {
      const file = path.join(scratch, SAMPLE_FILE);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, SAMPLE_FILE_CONTENT);
    }
    const scratchInput = Object.fromEntries(
      Object.entries(input).map(([key, value]) => [key, intoScratch(value, projectDir, scratch)]),
    );
    const result = await tool.execute(scratchInput, { ...context, cwd: scratch });
    return replaceDeep(fromResult(toolName, result), scratch, projectDir) as SampleToolResult;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function fromResult(toolName: string, result: ToolResult): SampleToolResult {
  if (!result.ok) {
    // Only reachable if a built-in changed what it accepts: say so rather than invent a shape.
    throw new Error(`the sample ${toolName} call failed (${result.error}); please report this.`);
  }
  return { output: result.output, response: result.response };
}
