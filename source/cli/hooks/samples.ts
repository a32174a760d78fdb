/**
 * Realistic sample events for `acai hooks test`: the agent event a hook would
 * see, as its event's module states it (source/hooks/contract/events/), so the payload
 * comes from the same `buildPayload` the interceptor uses; an `after_tool`
 * result is what the real built-in returns for the sample input (see
 * sample-tools.ts).
 */
import path from "node:path";
import type { AgentEvent } from "../../agent/events.js";
import { TOOL_ALIASES } from "../../hooks/contract/aliases.js";
import type { HookEventName } from "../../hooks/contract/definition.js";
import { eventRow } from "../../hooks/contract/events/table.js";
import { SAMPLE_FILE, sampleToolResult } from "./sample-tools.js";

export interface SampleArgs {
  event: HookEventName;
  toolName: string;
  projectDir: string;
  sessionId: string;
  transcriptPath: string;
  model: string;
}

function sampleToolInput(toolName: string, projectDir: string): Record<string, unknown> {
  const file = path.join(projectDir, SAMPLE_FILE);
  switch (toolName) {
    case "Bash":
      return { command: "npm test", description: "Run the test suite" };
    case "Read":
      return { file_path: file };
    case "Write":
      return { file_path: file, content: 'export const greeting = "hello";\n' };
    case "Edit":
      return { file_path: file, old_string: '"hello"', new_string: '"hello, world"' };
    case "Glob":
      return { pattern: "src/**/*.ts" };
    case "Grep":
      return { pattern: "TODO", path: "src" };
    default:
      return {};
  }
}

/** The agent event behind `event`, with plausible values everywhere (the sample its module states). */
export async function sampleAgentEvent(args: SampleArgs): Promise<AgentEvent> {
  const input = sampleToolInput(args.toolName, args.projectDir);
  return eventRow(args.event).sample({
    toolName: args.toolName,
    input,
    projectDir: args.projectDir,
    sessionId: args.sessionId,
    transcriptPath: args.transcriptPath,
    model: args.model,
    toolResult: () => sampleToolResult(args.toolName, input, args.projectDir),
  });
}

/** The built-in a hook's tool matcher names first (other agents' spellings count), else Bash. */
export function defaultToolFor(toolMatcher: string | undefined): string {
  if (toolMatcher) {
    for (const alternative of toolMatcher.split("|")) {
      const name = alternative.replace(/^\^|\$$|[()]/g, "").trim();
      for (const [builtin, aliases] of Object.entries(TOOL_ALIASES)) {
        if (name === builtin || (aliases as readonly string[]).includes(name)) return builtin;
      }
    }
  }
  return "Bash";
}
