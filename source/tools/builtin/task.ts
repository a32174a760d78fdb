/**
 * Task: starts a subagent (Claude Code's tool, its input fields). The run
 * itself is a dependency (`run`, source/subagents/run.ts), so tools import
 * nothing of the agent; the agent drives `stream`, whose events are the
 * subagent's, and whose result is the subagent's final answer.
 */
import { z } from "zod";
import { formatZodError } from "../define.js";
import type { InputValidation, Tool } from "../types.js";
import { validateOnce } from "../validated-input.js";
import { BUILTIN_INPUT_SCHEMAS } from "./input-schemas.generated.js";
import type { RunSubagent, SubagentDefinition } from "./task-types.js";

export const TASK_TOOL_NAME = "Task";
const DEFAULT_TYPE = "general-purpose";

/** Built at its first parse: the model is handed the generated JSON Schema (decision 0060). */
export const input = z.lazy(() =>
  z.object({
    description: z.string().min(1).max(200).describe("A short (3-5 word) description of the task"),
    prompt: z.string().min(1).describe("The task for the subagent to perform"),
    subagent_type: z
      .string()
      .min(1)
      .default(DEFAULT_TYPE)
      .describe(`The type of subagent to use (default ${DEFAULT_TYPE})`),
  }),
);

export interface TaskToolOptions {
  definitions: readonly SubagentDefinition[];
  run: RunSubagent;
}

export function taskTool(options: TaskToolOptions): Tool {
  const validate = validateOnce((value: unknown): InputValidation => {
    const parsed = input.safeParse(value);
    return parsed.success
      ? { ok: true, value: parsed.data }
      : { ok: false, error: formatZodError(TASK_TOOL_NAME, parsed.error) };
  });
  return {
    name: TASK_TOOL_NAME,
    description: describeTask(options.definitions),
    inputSchema: structuredClone(BUILTIN_INPUT_SCHEMAS.Task),
    validate,
    async execute() {
      return {
        ok: false,
        error: "Task starts a subagent, which only the agent loop can run.",
        interrupted: false,
      };
    },
    async *stream(value, context) {
      const checked = validate(value);
      if (!checked.ok) return { ok: false, error: checked.error, interrupted: false };
      const task = checked.value as z.output<typeof input>;
      return yield* options.run({
        description: task.description,
        prompt: task.prompt,
        subagentType: task.subagent_type,
        toolCallId: context.toolCallId ?? "",
        signal: context.signal,
      });
    },
  };
}

function describeTask(definitions: readonly SubagentDefinition[]): string {
  const types = definitions.map((d) => `- ${d.name}: ${oneLine(d.description)}`).join("\n");
  return [
    "Launches a subagent that works on a task on its own (its own conversation and tools) and returns its final answer.",
    "Give it a complete, self-contained prompt: it sees nothing of this conversation.",
    "Subagent types (subagent_type):",
    types,
  ].join("\n");
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}
