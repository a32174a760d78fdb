/**
 * A cheap, certain "this Bash rule cannot catch this line" — tested before a
 * line is parsed for a Bash deny-style test (a hook's `if`, decide.ts
 * `ruleCatches`). It answers only for the simplest lines, where the parse's
 * answer is known without it: ONE command of plain words (letters, digits and
 * `_ . / : , = + @ % -`, single spaces between them; no quote, escape,
 * expansion, glob, brace, tilde, comment, operator, redirection or newline)
 * whose program is one of PLAIN_PROGRAMS — programs the analysis
 * (shell/command.ts, wrappers.ts, runners.ts) neither sees through, nor finds
 * opaque, nor reads commands from, whatever their plain arguments. For such a
 * line the analysis is one command whose every form is the line itself, so the
 * rule catches it exactly when its content matches the line
 * (bash.ts `commandMatches`). Everything else is "maybe": the full test runs.
 *
 * test/permissions/bash-prefilter.test.ts pins this against the real parse
 * (every plain program, with arguments that make other programs special).
 */
import { commandMatches } from "./bash.js";

/** Programs the analysis treats as themselves, with any plain arguments. */
export const PLAIN_PROGRAMS: ReadonlySet<string> = new Set([
  "ls",
  "cat",
  "git",
  "grep",
  "rg",
  "head",
  "tail",
  "wc",
  "pwd",
  "diff",
  "mkdir",
  "rm",
  "cp",
  "mv",
  "touch",
  "make",
  "cargo",
  "go",
  "tsc",
  "jq",
  "sort",
  "uniq",
  "cut",
  "du",
  "df",
  "stat",
  "file",
  "which",
  "date",
  "tree",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "gh",
  "docker",
  "kubectl",
]);

/** One command of plain words, single spaces between them. */
const PLAIN_LINE = /^([a-z][a-z0-9_-]*)(?: [A-Za-z0-9_./:,=+@%-]+)*$/;

/** Longer lines always get the full test. */
const MAX_PREFILTERED_CHARS = 4096;

/**
 * True only when the Bash rule content `content` certainly does not catch
 * `line` (the full test would say no); false means "maybe".
 */
export function bashRuleCannotCatch(content: string, line: string): boolean {
  if (line.length > MAX_PREFILTERED_CHARS) return false;
  const plain = PLAIN_LINE.exec(line);
  if (plain === null || !PLAIN_PROGRAMS.has(plain[1] as string)) return false;
  return !commandMatches(content, line);
}
