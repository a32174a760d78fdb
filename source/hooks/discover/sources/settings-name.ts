/**
 * A settings hook's readable name when its entry gives no `name`: the
 * command line is often long (`"$CLAUDE_PROJECT_DIR"/.claude/hooks/format.sh`,
 * `python3 ~/.claude/hooks/tts.py --voice x`), and `acai hooks list`,
 * `--verbose` and the audit log show the name on every line. The name is the
 * script's file name when the command runs a script (directly or through an
 * interpreter), else its first word or two; the whole command stays in
 * `acai hooks list`.
 */

const MAX_NAME = 40;
/** Interpreters and runners whose arguments name the script a settings hook runs. */
const INTERPRETERS = new Set([
  "bash",
  "sh",
  "zsh",
  "dash",
  "python",
  "python3",
  "node",
  "bun",
  "deno",
  "ruby",
  "perl",
  "pwsh",
  "tsx",
  "env",
  "uv",
  "uvx",
  "npx",
  "bunx",
  "pnpm",
  "yarn",
  "pipx",
  "poetry",
]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** Where a simple command ends: a pipe, a list, a redirection, a subshell. */
const OPERATOR = /^(?:\||&&?|;|>|<|\(|\)|\d?>)/;

/** Words of the command's first simple command, quotes removed (enough for a name, not a parser). */
function firstWords(command: string): string[] {
  const words: string[] = [];
  for (const raw of command.trim().split(/\s+/)) {
    if (raw === "" || OPERATOR.test(raw)) break;
    words.push(raw.replace(/["']/g, ""));
    if (words.length >= 8) break;
  }
  return words;
}

function baseName(word: string): string {
  const trimmed = word.replace(/\/+$/, "");
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

/** A path or a file with a script's extension (`hooks/x`, `tts.py`). */
function looksLikeScript(word: string): boolean {
  if (word.startsWith("-")) return false;
  if (word.includes("/")) return true;
  return (
    !word.startsWith("$") && /\.(?:sh|bash|zsh|py|js|mjs|cjs|ts|mts|cts|rb|pl|ps1)$/.test(word)
  );
}

function clip(text: string): string {
  return text.length > MAX_NAME ? `${text.slice(0, MAX_NAME - 1)}…` : text;
}

function isInterpreter(program: string): boolean {
  return INTERPRETERS.has(program) || INTERPRETERS.has(program.replace(/[\d.]+$/, ""));
}

/** `format.sh`, `tts.py`, `npx prettier`, `jq`; the command itself (clipped) when nothing better. */
export function settingsHookName(command: string): string {
  const all = firstWords(command);
  let start = 0;
  while (start < all.length && ASSIGNMENT.test(all[start] ?? "")) start++;
  const words = all.slice(start);
  const [first, second] = words;
  if (first === undefined) return clip(command.replace(/\s+/g, " ").trim());
  const program = baseName(first);
  if (looksLikeScript(first) && !isInterpreter(program)) return clip(program);
  // `bash x.sh`, `python3 -u hooks/tts.py`, `npx tsx hook.ts`, `uv run check.py`: the script.
  const script = isInterpreter(program) ? words.slice(1, 5).find(looksLikeScript) : undefined;
  if (script !== undefined) return clip(baseName(script));
  if (second !== undefined && /^[A-Za-z][\w@:.-]*$/.test(second))
    return clip(`${program} ${second}`);
  return clip(program);
}
