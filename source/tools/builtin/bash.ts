import { z } from "zod";
import type { RunResult } from "../../process/types.js";
import { defineTool } from "../define.js";
import { capForModel } from "../text.js";
import type { Tool } from "../types.js";
import { gitGuardedEnv } from "./git-env.js";
import { BUILTIN_INPUT_SCHEMAS } from "./input-schemas.generated.js";

const BASH_DEFAULT_TIMEOUT_MS = 120_000;
const BASH_MAX_TIMEOUT_MS = 600_000;

/** Built at its first parse: the model is handed the generated JSON Schema (decision 0060). */
export const input = z.lazy(() =>
  z.object({
    command: z.string().min(1).describe("The shell command to run (bash -c)"),
    timeout: z
      .number()
      .int()
      .positive()
      .max(BASH_MAX_TIMEOUT_MS)
      .optional()
      .describe(
        `Timeout in milliseconds (default ${BASH_DEFAULT_TIMEOUT_MS}, max ${BASH_MAX_TIMEOUT_MS})`,
      ),
    description: z
      .string()
      .optional()
      .describe("A short description of what the command does, in 5-10 words"),
  }),
);

export interface BashResponse {
  stdout: string;
  stderr: string;
  exit_code: number | null;
  interrupted: boolean;
}

function combinedOutput(result: RunResult): string {
  const parts: string[] = [];
  if (result.stdout) parts.push(result.stdout.replace(/\n$/, ""));
  if (result.stderr) parts.push(result.stderr.replace(/\n$/, ""));
  let text = parts.join("\n");
  if (result.truncated.stdout || result.truncated.stderr) {
    text += "\n[... output exceeded the capture limit; the rest was discarded ...]";
  }
  return capForModel(text);
}

function failureHeadline(result: RunResult, timeoutMs: number): string {
  if (result.aborted) return "Command was aborted";
  if (result.timedOut) return `Command timed out after ${timeoutMs} ms and was killed`;
  if (result.signal) return `Command was killed by ${result.signal}`;
  return `Command failed with exit code ${result.exitCode}`;
}

export function bashTool(): Tool {
  return defineTool({
    name: "Bash",
    description:
      "Runs a bash command in the project directory and returns its output and exit code. " +
      `The command is killed (with everything it started) after its timeout (default ${BASH_DEFAULT_TIMEOUT_MS / 1000} s); ` +
      "background processes (also ones started with setsid or nohup) do not outlive the command. Output is capped; the middle of long output is cut.",
    input,
    inputSchema: BUILTIN_INPUT_SCHEMAS.Bash,
    async execute({ command, timeout }, context) {
      const timeoutMs = timeout ?? BASH_DEFAULT_TIMEOUT_MS;
      const result = await context.runner({
        command: "/bin/bash",
        args: ["-c", command],
        cwd: context.cwd,
        // Layered last: a session_start hook's exports cannot turn the git guards off.
        env: gitGuardedEnv(
          context.shellEnv ? { ...context.env, ...context.shellEnv } : context.env,
        ),
        timeoutMs,
        signal: context.signal,
        onOutputLimit: "truncate",
        // What the command started with setsid or a double fork ends with it too.
        sweepOnExit: true,
      });
      if (result.spawnError) {
        return { ok: false, error: result.spawnError, interrupted: false };
      }
      const interrupted = result.timedOut || result.aborted;
      const response: BashResponse = {
        stdout: result.stdout,
        stderr: result.stderr,
        exit_code: result.exitCode,
        interrupted,
      };
      const output = combinedOutput(result);
      if (result.exitCode === 0 && !interrupted) {
        return { ok: true, output: output || "(no output)", response };
      }
      const headline = failureHeadline(result, timeoutMs);
      return {
        ok: false,
        error: output ? `${headline}. Output:\n${output}` : `${headline} (no output).`,
        interrupted,
        response,
      };
    },
  });
}
