/**
 * Bash rules (`Bash(npm test:*)`, `Bash(git status)`, `Bash(git * main)`)
 * against a command line's analysis (shell/analyze.ts, from a real parse),
 * pure.
 *
 * An allow rule allows a line only when the analysis understood all of it
 * (nothing `opaque`) and every simple command in it — in substitutions,
 * subshells, pipelines and `bash -c` scripts too — is allowed (by this rule
 * or another); its redirections' files are judged as writes by decide.ts. A
 * deny or ask rule catches the line when it matches any form of any command:
 * as written, unquoted, through wrappers (`env`, `sudo`, `timeout`, `xargs`,
 * `bash -c`…) and by the program's base name (`/usr/bin/touch` is `touch`).
 */
import { escapeRegExp } from "./rules.js";
import type { CommandAnalysis } from "./shell/analyze.js";

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

/**
 * The rule (of `rules`, all covering Bash) that allows every command of the
 * line — the first one needed — or none: nothing allows an opaque line.
 */
export function allowingRule<R extends { content?: string }>(
  analysis: CommandAnalysis,
  rules: readonly R[],
): R | undefined {
  if (analysis.opaque.length > 0) return undefined;
  const needing = analysis.commands.filter((c) => c.needsRule);
  if (needing.length === 0) return undefined;
  let first: R | undefined;
  for (const command of needing) {
    const rule = rules.find((r) =>
      command.allowForms.some((form) => commandMatches(r.content, form)),
    );
    if (rule === undefined) return undefined;
    first ??= rule;
  }
  return first;
}

/** Whether a deny or ask rule's content catches the line: any form of any command, or the line itself. */
export function catchesCommand(content: string, line: string, analysis: CommandAnalysis): boolean {
  if (commandMatches(content, line.trim())) return true;
  return analysis.commands.some((c) => c.catchForms.some((form) => commandMatches(content, form)));
}

/**
 * The rule to suggest for allowing a command: its first word, and its second
 * when that is a subcommand (`npm test`, `git status`), as a prefix rule.
 */
export function suggestBashRule(line: string, analysis: CommandAnalysis): string {
  const first = analysis.commands.find((c) => c.needsRule);
  const form = first?.allowForms.at(-1) ?? line.trim();
  const words = form.split(/\s+/).filter(Boolean);
  const [head, second] = words;
  if (head === undefined) return "Bash";
  const sub = second !== undefined && /^[A-Za-z][\w:.-]*$/.test(second) ? ` ${second}` : "";
  return `Bash(${head}${sub}:*)`;
}
