import { realpath } from "node:fs/promises";
import { join, sep } from "node:path";
import {
  applyEnvConfirmations,
  type ConfirmedEnv,
  type EnvRequester,
} from "../config/env-confirmation.js";
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
  /**
   * The describe `env` requests of project tools the user confirmed (the trust
   * record's, project/env-confirmation.ts); absent: none. A request not
   * confirmed exactly gets no secret and a warning.
   */
  confirmedEnv?: ConfirmedEnv;
}

export interface LoadedTools {
  tools: Tool[];
  warnings: string[];
  /** What the project's tools asked for in describe (before confirmation), for `acai hooks trust`. */
  projectEnvRequests: EnvRequester[];
}

/**
 * Built-ins plus the dynamic tools of `<project>/.acai/tools/` (if included)
 * and `<ACAI_HOME>/tools/` (project first: on a name clash the project's
 * wins). A dynamic tool never shadows a built-in.
 */
export async function loadTools(options: LoadToolsOptions): Promise<LoadedTools> {
  const builtins = builtinTools();
  const projectTools = projectToolsDir(options.projectDir);
  const userTools = join(options.acaiHome, "tools");
  // Run from the home folder, the project's tools folder is the user's own: nothing to confirm.
  const own = (await realpathOr(projectTools)) !== (await realpathOr(userTools));
  const projectEnvRequests: EnvRequester[] = [];
  const warnings: string[] = [];
  const envFor = (tool: EnvRequester): string[] => {
    if (!own || !tool.file.startsWith(`${projectTools}${sep}`) || tool.env.length === 0) {
      return [...tool.env];
    }
    projectEnvRequests.push(tool);
    const confirmed = applyEnvConfirmations([tool], {
      confirmed: options.confirmedEnv ?? {},
      projectDir: options.projectDir,
      what: "tool",
    });
    warnings.push(...confirmed.warnings);
    return [...(confirmed.items[0]?.env ?? [])];
  };
  const dynamic = await loadDynamicTools({
    dirs: [...(options.includeProject ? [projectToolsDir(options.projectDir)] : []), userTools],
    projectDir: options.projectDir,
    runner: options.runner,
    env: options.env,
    // Task is built in too (added by the session: it needs the agent, subagents/run.ts).
    reserved: [...builtins.map((t) => t.name), TASK_TOOL_NAME],
    envFor,
  });
  return {
    tools: [...builtins, ...dynamic.tools],
    warnings: [...dynamic.warnings, ...warnings],
    projectEnvRequests,
  };
}

async function realpathOr(dir: string): Promise<string> {
  return realpath(dir).catch(() => dir);
}
