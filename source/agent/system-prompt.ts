import type { Tool } from "../tools/types.js";

export function defaultSystemPrompt(options: { cwd: string; tools: readonly Tool[] }): string {
  const toolList = options.tools.length
    ? options.tools.map((tool) => `- ${tool.name}: ${firstLine(tool.description)}`).join("\n")
    : "- (no tools are available)";
  return [
    "You are acai, a coding agent working in a terminal on the user's project.",
    `The project directory (working directory of every tool) is ${options.cwd}.`,
    "Use the tools to look before you change anything, make focused changes, and check your work",
    "(run the tests or the build when there are some). Relative paths are relative to the project",
    "directory. Keep answers short; say what you did and what is left.",
    "Messages wrapped in <system-reminder> come from acai or the user's hooks, not from the user;",
    "follow them. A tool result may say that a hook blocked the call: do not retry it unchanged.",
    "",
    "Tools:",
    toolList,
  ].join("\n");
}

function firstLine(text: string): string {
  return (text.split("\n")[0] ?? "").trim();
}

export interface SystemPromptParts {
  /** `--system-prompt` / `systemPrompt`: replaces acai's own prompt. */
  replace?: string;
  /** Instruction files (AGENTS.md, …), in order: the user's, then the project's. */
  instructions: readonly { label: string; text: string }[];
  /** `--append-system-prompt` / `appendSystemPrompt`: added at the end. */
  append?: string;
}

/** The system prompt a session sends: acai's (or the replacement), the instructions, the addition. */
export function composeSystemPrompt(
  options: { cwd: string; tools: readonly Tool[] },
  parts: SystemPromptParts,
): string {
  const blocks = [parts.replace ?? defaultSystemPrompt(options)];
  for (const section of parts.instructions) {
    blocks.push(`# Instructions from ${section.label}\n\n${section.text}`);
  }
  if (parts.append !== undefined && parts.append.trim() !== "") blocks.push(parts.append);
  return blocks.join("\n\n");
}
