/**
 * A settings hook's command line that `/bin/sh -c` would run as one simple
 * command of plain words — `bash .acai/check.sh`, `python3
 * "$CLAUDE_PROJECT_DIR"/hooks/guard.py --strict` — is started as that program
 * with those words, without the shell (decision 0075): one process fewer per
 * hook run (bench/hooks-shell.ts: 2 ms of a bash hook run here, 4 ms of a
 * Python one).
 *
 * Only lines whose meaning to the shell is certain qualify; anything else —
 * a pipe, a redirection, `;`, a glob, `~`, a backslash, a command
 * substitution, an assignment before the program, a builtin or reserved word
 * as the program, a variable that is unset or that the shell sets itself, an
 * unquoted variable whose value would be split or globbed — still goes
 * through `/bin/sh -c`, as before. The program is looked up on the hook's
 * PATH by the runner, as the shell would; a file without a `#!` line is run
 * by `/bin/sh`, as the shell would. `PWD` is set as the shell sets it
 * (`shellPwd`).
 */
import { realpathSync, statSync } from "node:fs";
import { isTypeScriptFile } from "./typescript-launch.js";

export interface DirectCommand {
  command: string;
  args: string[];
}

/** Characters no shell gives a meaning to in a word (`=` only in the program's place: checked apart). */
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]$/;
const PLAIN_VALUE = /^[A-Za-z0-9_@%+=:,./-]+$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

/** Words `/bin/sh` runs itself, or reads as syntax, in the program's place. */
const SHELL_WORDS = new Set([
  // reserved words
  "!",
  "{",
  "}",
  "case",
  "do",
  "done",
  "elif",
  "else",
  "esac",
  "fi",
  "for",
  "function",
  "if",
  "in",
  "select",
  "then",
  "time",
  "until",
  "while",
  // builtins of dash and bash's POSIX mode
  ".",
  ":",
  "[",
  "alias",
  "bg",
  "break",
  "cd",
  "chdir",
  "command",
  "continue",
  "echo",
  "eval",
  "exec",
  "exit",
  "export",
  "false",
  "fc",
  "fg",
  "getopts",
  "hash",
  "jobs",
  "kill",
  "local",
  "printf",
  "pwd",
  "read",
  "readonly",
  "return",
  "set",
  "shift",
  "source",
  "test",
  "times",
  "trap",
  "true",
  "type",
  "ulimit",
  "umask",
  "unalias",
  "unset",
  "wait",
  // more of bash's, should /bin/sh be bash
  "bind",
  "builtin",
  "caller",
  "declare",
  "dirs",
  "disown",
  "enable",
  "help",
  "history",
  "let",
  "logout",
  "mapfile",
  "popd",
  "pushd",
  "readarray",
  "shopt",
  "suspend",
  "typeset",
]);

/** Variables the shell sets or reads itself: their value in the hook's environment is not what `$X` gives. */
const SHELL_VARIABLES = new Set([
  "PWD",
  "OLDPWD",
  "PPID",
  "IFS",
  "OPTIND",
  "OPTARG",
  "PS1",
  "PS2",
  "PS4",
  "LINENO",
  "ENV",
]);

type Env = Readonly<Record<string, string | undefined>>;

/** The line as a program and its words, or undefined when only the shell can say what it runs. */
export function directCommand(line: string, env: Env): DirectCommand | undefined {
  const words = splitPlainWords(line, env);
  if (words === undefined || words.length === 0) return undefined;
  const [command = "", ...args] = words;
  // A program word with `=` is an assignment unless quoted; rare enough to leave to the shell either way.
  if (command === "" || command.includes("=") || SHELL_WORDS.has(command)) return undefined;
  if (startsTypeScript(command, args)) return undefined;
  // Without PATH the shell searches a default list of its own, not the runner's.
  if (!command.includes("/") && env.PATH === undefined) return undefined;
  return { command, args };
}

/**
 * A TypeScript file, by itself or after `node`: the runner would start that
 * with acai's own Node (typescript-launch.ts), where the line names the
 * node on PATH; through the shell it stays what the line says.
 */
function startsTypeScript(command: string, args: readonly string[]): boolean {
  return isTypeScriptFile(command) || (command === "node" && isTypeScriptFile(args[0] ?? ""));
}

/**
 * The words of a line made only of plain characters, single-quoted text,
 * double-quoted plain text and set variables; undefined at anything else.
 */
function splitPlainWords(line: string, env: Env): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  let at = 0;
  while (at < line.length) {
    const char = line[at] ?? "";
    if (char === " " || char === "\t") {
      if (word !== undefined) words.push(word);
      word = undefined;
      at++;
      continue;
    }
    const part = wordPart(line, at, env);
    if (part === undefined) return undefined;
    word = (word ?? "") + part.text;
    at = part.end;
  }
  if (word !== undefined) words.push(word);
  return words;
}

interface Part {
  text: string;
  end: number;
}

/** One piece of a word starting at `at`: a plain character, a quoted text or a variable. */
function wordPart(line: string, at: number, env: Env): Part | undefined {
  const char = line[at] ?? "";
  if (PLAIN.test(char)) return { text: char, end: at + 1 };
  switch (char) {
    case "'": {
      const close = line.indexOf("'", at + 1);
      return close < 0 ? undefined : { text: line.slice(at + 1, close), end: close + 1 };
    }
    case '"':
      return doubleQuoted(line, at + 1, env);
    case "$": {
      const variable = variableAt(line, at, env);
      // Unquoted, the value is split and globbed: only a plain one stays one word as it is.
      if (variable === undefined || !PLAIN_VALUE.test(variable.text)) return undefined;
      return variable;
    }
    default:
      return undefined;
  }
}

/** The text of `"…"` from just inside it: plain characters, blanks and set variables only. */
function doubleQuoted(line: string, from: number, env: Env): Part | undefined {
  let text = "";
  let at = from;
  while (at < line.length) {
    const char = line[at] ?? "";
    if (char === '"') return { text, end: at + 1 };
    if (PLAIN.test(char) || char === " " || char === "\t") {
      text += char;
      at++;
    } else if (char === "$") {
      const variable = variableAt(line, at, env);
      if (variable === undefined) return undefined;
      text += variable.text;
      at = variable.end;
    } else {
      return undefined;
    }
  }
  return undefined;
}

/** `$NAME` or `${NAME}` at `at`, when NAME is set in the hook's environment and not the shell's own. */
function variableAt(line: string, at: number, env: Env): Part | undefined {
  const braced = line[at + 1] === "{";
  const start = at + (braced ? 2 : 1);
  const name = NAME.exec(line.slice(start))?.[0];
  if (name === undefined || SHELL_VARIABLES.has(name)) return undefined;
  let end = start + name.length;
  if (braced) {
    if (line[end] !== "}") return undefined;
    end++;
  }
  const value = env[name];
  return value === undefined ? undefined : { text: value, end };
}

/**
 * `PWD` as `/bin/sh` exports it to what it runs: the inherited `PWD` when
 * that names the working directory, else the directory's real path.
 */
export function shellPwd(inherited: string | undefined, cwd: string): string {
  try {
    if (inherited?.startsWith("/")) {
      const [named, actual] = [statSync(inherited), statSync(cwd)];
      if (named.dev === actual.dev && named.ino === actual.ino) return inherited;
    }
    return realpathSync(cwd);
  } catch {
    return cwd;
  }
}
