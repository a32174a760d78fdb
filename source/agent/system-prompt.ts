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
