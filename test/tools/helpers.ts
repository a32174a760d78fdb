import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runProcess } from "../../source/process/runner.js";
import type { Tool, ToolContext, ToolResult } from "../../source/tools/types.js";

export const testEnv: Readonly<Record<string, string>> = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  LANG: "C.UTF-8",
};

export async function makeTempDir(
  prefix: string,
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), `acai-${prefix}-`));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export function contextFor(
  cwd: string,
  signal: AbortSignal = new AbortController().signal,
): ToolContext {
  return { cwd, signal, runner: runProcess, env: testEnv };
}

/** Validates like the agent does, then executes. */
export async function call(tool: Tool, input: unknown, context: ToolContext): Promise<ToolResult> {
  const checked = tool.validate(input);
  if (!checked.ok) throw new Error(`unexpected validation failure: ${checked.error}`);
  return tool.execute(checked.value, context);
}

export function expectOk(result: ToolResult): { output: string; response: unknown } {
  if (!result.ok) throw new Error(`expected ok, got error: ${result.error}`);
  return result;
}

export function expectError(result: ToolResult): {
  error: string;
  interrupted: boolean;
  response?: unknown;
} {
  if (result.ok) throw new Error(`expected an error, got output: ${result.output}`);
  return result;
}
