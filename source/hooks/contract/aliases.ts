/**
 * Other agents' names for acai's built-in tools. A hook matcher that names one
 * of these (a Gemini CLI `run_shell_command`, a Codex `shell`, an Agent Hooks
 * `Shell`) matches the built-in, so borrowed hooks fire unchanged.
 *
 * Names are case-sensitive, as tool names are everywhere else. Only built-in
 * tools have aliases: a dynamic tool is matched by its own name alone.
 * Claude Code's `MultiEdit` is deliberately not an alias of `Edit` (its input
 * is an array of edits, which acai's Edit never receives); `Edit|MultiEdit`
 * still matches Edit through the `Edit` alternative.
 */
export const TOOL_ALIASES = {
  Bash: [
    "Shell", // Agent Hooks spec, Kimi CLI, Cursor
    "shell", // Codex
    "bash",
    "run_shell_command", // Gemini CLI
    "exec_command", // Codex
    "local_shell", // Codex
    "execute_command", // Cline
  ],
  Read: [
    "ReadFile", // Agent Hooks spec, Gemini CLI display name
    "read_file", // Gemini CLI, Cline
    "view", // Anthropic text editor tool
  ],
  Write: [
    "WriteFile", // Agent Hooks spec, Gemini CLI display name
    "write_file", // Gemini CLI
    "write_to_file", // Cline
    "create_file",
  ],
  Edit: [
    "replace", // Gemini CLI
    "edit_file",
    "str_replace", // Anthropic text editor tool
    "str_replace_based_edit_tool",
    "replace_in_file", // Cline
    "StrReplaceFile", // Kimi CLI
    "apply_patch", // Codex (its only file-editing tool)
  ],
  Glob: [
    "glob", // Gemini CLI
    "FindFiles", // Gemini CLI display name
  ],
  Grep: [
    "grep",
    "search_file_content", // Gemini CLI
    "grep_search", // Gemini CLI (newer)
    "SearchText", // Gemini CLI display name
    "search_files", // Cline
  ],
} as const satisfies Record<string, readonly string[]>;

const BUILTINS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries(TOOL_ALIASES).map(([name, aliases]) => [name, [name, ...aliases]]),
);

/**
 * Every name a matcher may use for `toolName`: the name itself and, for a
 * built-in, all its aliases. The first entry is always `toolName`.
 */
export function toolNameSpellings(toolName: string): readonly string[] {
  return BUILTINS.get(toolName) ?? [toolName];
}

/**
 * The built-in another agent's name stands for (`write_file` → `Write`), or
 * the name itself: a Gemini CLI hook's tail call names Gemini's tools.
 */
export function builtinNamed(name: string): string {
  for (const [builtin, spellings] of BUILTINS) if (spellings.includes(name)) return builtin;
  return name;
}
