/** Slash commands typed at the prompt. */
export type Command =
  | { name: "help" }
  | { name: "hooks" }
  | { name: "clear" }
  | { name: "model"; spec?: string }
  | { name: "expand"; seq?: number }
  | { name: "compact"; instructions?: string }
  | { name: "resume"; target?: string }
  | { name: "exit" }
  | { name: "unknown"; text: string };

export const COMMAND_HELP: ReadonlyArray<readonly [string, string]> = [
  ["/hooks", "loaded hooks: source, events, matcher, trust, broken ones, last decision"],
  ["/model [spec]", "show the model, or start a new session with another (counts start at 0)"],
  ["/clear", "start a new session (clears the screen)"],
  ["/compact [instructions]", "summarise the conversation so far to free context"],
  ["/resume [N | id]", "list this project's sessions, or continue one"],
  [
    "/expand [N]",
    "show the full output of tool block N (default: the last one), or every line of subagent N",
  ],
  ["/help", "this list and the keys"],
  ["/exit", "end the session (runs session_end hooks)"],
];

export const KEY_HELP: ReadonlyArray<readonly [string, string]> = [
  ["Enter", "send · Alt-Enter, Ctrl-J or a trailing \\ for a new line"],
  ["↑ ↓", "history (or move between lines)"],
  ["Esc", "abort the running turn (model, tools, hooks)"],
  ["Ctrl-C", "abort the turn · clear the line · twice to exit"],
  ["Ctrl-D", "exit on an empty line"],
  ["/ and @", "complete a command, or a file's path (Tab takes it, ↑ ↓ choose)"],
  ["Shift-Tab", "next permission mode: default → acceptEdits → plan (shown in the status line)"],
  [
    "y c s p n t",
    "answer a question: yes · yes for this exact call, this session or this project · no · no, and tell the model why (Esc: no)",
  ],
];

/** Returns a command for `/name ...` lines; anything else is a prompt. */
export function parseCommand(line: string): Command | undefined {
  const text = line.trim();
  const match = /^\/([a-z]+)(?:\s+([\s\S]*))?$/i.exec(text);
  if (!match) return undefined;
  const name = (match[1] ?? "").toLowerCase();
  const arg = match[2]?.trim() || undefined;
  switch (name) {
    case "help":
    case "hooks":
    case "clear":
      return { name };
    case "exit":
    case "quit":
      return { name: "exit" };
    case "model":
      return arg ? { name: "model", spec: arg } : { name: "model" };
    case "compact":
      return arg ? { name: "compact", instructions: arg } : { name: "compact" };
    case "resume":
      return arg ? { name: "resume", target: arg } : { name: "resume" };
    case "expand": {
      const seq = arg ? Number.parseInt(arg, 10) : undefined;
      return seq !== undefined && Number.isFinite(seq)
        ? { name: "expand", seq }
        : { name: "expand" };
    }
    default:
      // `/usr/bin/foo is slow, why?` is a prompt; a lone `/foo` is a mistyped command.
      return arg === undefined ? { name: "unknown", text } : undefined;
  }
}
