import { join } from "node:path";
import type { ProcessRunner } from "../process/types.js";
import { bashTool } from "./builtin/bash.js";
import { editTool } from "./builtin/edit.js";
import { globTool } from "./builtin/glob.js";
import { grepTool } from "./builtin/grep.js";
import { readTool } from "./builtin/read.js";
import { TASK_TOOL_NAME } from "./builtin/task.js";
import { writeTool } from "./builtin/write.js";
import { loadDynamicTools, projectToolsDir } from "./dynamic.js";
import type { Tool } from "./types.js";

export function builtinTools(): Tool[] {
  return [bashTool(), readTool(), writeTool(), editTool(), globTool(), grepTool()];
}

export interface LoadToolsOptions {
  projectDir: string;
  /**
   * Whether `<project>/.acai/tools/` is loaded: its describe step runs project
   * code, so only when the project's hooks and tools are enabled and trusted.
   */
  includeProject: boolean;
  acaiHome: string;
  runner: ProcessRunner;
  env: Readonly<Record<string, string>>;
}

/**
 * Built-ins plus the dynamic tools of `<project>/.acai/tools/` (if included)
 * and `<ACAI_HOME>/tools/` (project first: on a name clash the project's
 * wins). A dynamic tool never shadows a built-in.
 */
export async function loadTools(
  options: LoadToolsOptions,
): Promise<{ tools: Tool[]; warnings: string[] }> {
  const builtins = builtinTools();
  const dynamic = await loadDynamicTools({
    dirs: [
      ...(options.includeProject ? [projectToolsDir(options.projectDir)] : []),
      join(options.acaiHome, "tools"),
    ],
    projectDir: options.projectDir,
    runner: options.runner,
    env: options.env,
    // Task is built in too (added by the session: it needs the agent, subagents/run.ts).
    reserved: [...builtins.map((t) => t.name), TASK_TOOL_NAME],
  });
  return { tools: [...builtins, ...dynamic.tools], warnings: dynamic.warnings };
}
