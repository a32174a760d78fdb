/**
 * Exit 2 is a block (hooks.md §4), and a shell that cannot parse its script
 * also exits 2 — so a bash hook with a syntax error blocks, with the shell's
 * error as the reason. The block stands (a guard that crashes must not fail
 * open, and Claude Code blocks the same way); this says, in the audit log and
 * in `acai hooks test`, that it looks like a crash rather than a decision.
 */

/**
 * The shell's own error line (`hook.sh: line 3: syntax error near unexpected
 * token`, `sh: 1: Syntax error: …`, `hook: line 5: jqq: command not found`,
 * `unexpected EOF while looking for matching`): the script name and line
 * number the shell puts before it, so a reason a hook writes is not mistaken.
 */
const SHELL_ERROR =
  /^[^\n]*: (?:line )?\d+: (?:[^\n]*?)(syntax error|unexpected EOF|command not found)[^\n]*$/im;

/** The note for a run that exited 2 with a shell error on stderr, else undefined. */
export function exitTwoCrashNote(run: {
  exitCode: number | null;
  stderr: string;
}): string | undefined {
  if (run.exitCode !== 2) return undefined;
  const line = SHELL_ERROR.exec(run.stderr)?.[0];
  if (line === undefined) return undefined;
  const shown = line.length > 160 ? `${line.slice(0, 159)}…` : line;
  return `exit 2 with a shell error (${shown.trim()}): this looks like a crash of the hook's script, not a decision; it still blocks, as exit 2 does (check the script, e.g. bash -n FILE)`;
}
