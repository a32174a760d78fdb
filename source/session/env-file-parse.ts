/**
 * The `export NAME=value` lines a session_start hook appends to
 * `CLAUDE_ENV_FILE`, read as data. Claude Code sources the file in the shell
 * before each Bash command; acai never executes it: it understands
 *
 * - `export NAME=value` and `NAME=value`, several assignments on one line;
 * - values unquoted, in '…' (literal) or "…" (`\"`, `\\`, `\$`, `` \` `` escapes);
 * - `$NAME` and `${NAME}` outside single quotes, expanded from the variables
 *   set so far and the Bash tool's environment (so `PATH="/x/bin:$PATH"` works);
 * - blank lines and `#` comments.
 *
 * Anything else — command substitution (`$(…)`, backticks), `${X:-…}`, `;`,
 * `&&`, pipes, redirections, `source`, `alias`, functions — is not run: the
 * line is skipped and reported, so the difference is never silent.
 *
 * Pure: no I/O.
 */

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Characters that end an unquoted word or make the line shell code rather than data. */
const SPECIAL = new Set([";", "&", "|", "<", ">", "(", ")", "`"]);

interface SkippedLine {
  /** 1-based. */
  line: number;
  text: string;
  why: string;
}

export interface ParsedEnvFile {
  vars: Record<string, string>;
  skipped: SkippedLine[];
}

class LineError extends Error {}

// biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
const ONLY_SIMPLE_EXPANSION = "only $NAME and ${NAME} are expanded (not ${NAME:-…} or other forms)";

/** Parses the file's text; `base` is what `$NAME` falls back to (the Bash tool's environment). */
export function parseEnvFile(
  text: string,
  base: Readonly<Record<string, string>>,
  into: Record<string, string> = {},
): ParsedEnvFile {
  const vars = into;
  const skipped: SkippedLine[] = [];
  const lookup = (name: string): string => vars[name] ?? base[name] ?? "";
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    try {
      for (const [name, value] of parseLine(line, lookup)) vars[name] = value;
    } catch (error) {
      if (!(error instanceof LineError)) throw error;
      skipped.push({ line: index + 1, text: raw.slice(0, 200), why: error.message });
    }
  });
  return { vars, skipped };
}

/** The assignments of one line, all or none (a bad word skips the whole line). */
function parseLine(line: string, lookup: (name: string) => string): Array<[string, string]> {
  const words = splitWords(line, lookup);
  const exported = words[0]?.raw === "export" && words[0].value === "export";
  if (exported) words.shift();
  const out: Array<[string, string]> = [];
  for (const word of words) {
    const eq = word.raw.indexOf("=");
    const name = eq > 0 ? word.raw.slice(0, eq) : word.raw;
    // `export NAME` (no value) exports a shell variable: nothing to set. Any other bare word is a command.
    const bareExport = exported && eq < 0 && word.raw === word.value;
    if (!NAME.test(name) || (eq < 0 && !bareExport)) {
      throw new LineError(
        "not an `export NAME=value` line (acai reads this file as data and runs nothing)",
      );
    }
    if (eq >= 0) out.push([name, word.value.slice(word.value.indexOf("=") + 1)]);
  }
  return out;
}

interface Word {
  /** The word as written up to its first quote or `$` (for names and `export`). */
  raw: string;
  /** The word after quote removal and expansion. */
  value: string;
}

/** Shell-like word splitting of a line of data: quotes, escapes and `$NAME` only. */
function splitWords(line: string, lookup: (name: string) => string): Word[] {
  const words: Word[] = [];
  let i = 0;
  while (i < line.length) {
    while (i < line.length && /\s/.test(line.charAt(i))) i++;
    if (i >= line.length || line.charAt(i) === "#") break;
    let raw = "";
    let value = "";
    let plain = true;
    while (i < line.length && !/\s/.test(line.charAt(i))) {
      const c = line.charAt(i);
      if (SPECIAL.has(c)) throw new LineError(`\`${c}\` is shell code, which acai does not run`);
      if (c === "'") {
        const end = line.indexOf("'", i + 1);
        if (end < 0) throw new LineError("a ' quote is not closed");
        value += line.slice(i + 1, end);
        i = end + 1;
        plain = false;
      } else if (c === '"') {
        const [text, next] = doubleQuoted(line, i + 1, lookup);
        value += text;
        i = next;
        plain = false;
      } else if (c === "$") {
        const [text, next] = expansion(line, i, lookup);
        value += text;
        i = next;
        plain = false;
      } else if (c === "\\") {
        value += line.charAt(i + 1);
        i += 2;
        plain = false;
      } else {
        if (plain) raw += c;
        value += c;
        i++;
      }
    }
    words.push({ raw, value });
  }
  return words;
}

function doubleQuoted(
  line: string,
  from: number,
  lookup: (name: string) => string,
): [string, number] {
  let text = "";
  let i = from;
  while (i < line.length) {
    const c = line.charAt(i);
    if (c === '"') return [text, i + 1];
    if (c === "`") throw new LineError("`…` runs a command, which acai does not do");
    if (c === "\\" && '"\\$`'.includes(line.charAt(i + 1))) {
      text += line.charAt(i + 1);
      i += 2;
    } else if (c === "$") {
      const [expanded, next] = expansion(line, i, lookup);
      text += expanded;
      i = next;
    } else {
      text += c;
      i++;
    }
  }
  throw new LineError('a " quote is not closed');
}

/** `$NAME` or `${NAME}` at `at` (which holds the `$`); anything richer is refused. */
function expansion(line: string, at: number, lookup: (name: string) => string): [string, number] {
  const next = line.charAt(at + 1);
  if (next === "(") throw new LineError("$(…) runs a command, which acai does not do");
  if (next === "{") {
    const end = line.indexOf("}", at + 2);
    const name = end < 0 ? "" : line.slice(at + 2, end);
    if (!NAME.test(name)) {
      throw new LineError(ONLY_SIMPLE_EXPANSION);
    }
    return [lookup(name), end + 1];
  }
  const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(line.slice(at + 1));
  if (!match) return ["$", at + 1];
  return [lookup(match[0]), at + 1 + match[0].length];
}
