/**
 * One simple command's words as the forms rules are matched against, pure:
 * the command as written (normalised), then each command a wrapper runs
 * (`sudo env -i touch x` → `env -i touch x` → `touch x`), with the program's
 * base name too (`/usr/bin/touch x` → `touch x`). Deny and ask rules see
 * every form; an allow rule only the forms reached through wrappers that
 * change nothing it is about, and only without leading assignments
 * (`PATH=. npm test` is not `npm test`).
 */

import { shown, type Word } from "./words.js";
import { baseName, unwrapStep } from "./wrappers.js";

export interface SimpleCommand {
  /** As written in the line. */
  text: string;
  /** Whether the command needs an allow rule of its own: a shell running a literal script needs only its script's commands covered. */
  needsRule: boolean;
  /** The forms an allow rule may match. */
  allowForms: string[];
  /** Every form deny and ask rules are tested against. */
  catchForms: string[];
}

export interface CommandForms {
  command: SimpleCommand;
  /** Why no allow rule may pass it (empty: understood). */
  opaque: string[];
  /** Scripts it runs (`bash -c`, `eval`, `trap`), to be parsed again. */
  scripts: string[];
  /** Commands it runs from its own arguments (`find -exec CMD … ;`), each judged as a command. */
  runs: Word[][];
}

/** Programs that run code given as text or from a file, or change what later names mean. */
const RUNS_CODE: Readonly<Record<string, string>> = {
  eval: "eval runs a string as commands",
  source: "source runs the commands of a file",
  ".": ". runs the commands of a file",
  trap: "trap runs a string as commands later",
  alias: "it defines an alias",
  unalias: "it changes aliases",
  enable: "enable loads or changes builtins",
  hash: "hash changes which file a command name runs",
  fc: "fc runs commands from the history",
  bind: "bind can run commands",
  complete: "complete can run commands",
  compgen: "compgen can run commands",
  mapfile: "mapfile can run a callback",
  readarray: "readarray can run a callback",
  let: "let evaluates arithmetic, which can run commands",
  declare: "it declares shell variables",
  typeset: "it declares shell variables",
  export: "it exports shell variables",
  local: "it declares shell variables",
  readonly: "it declares shell variables",
  unset: "it unsets shell variables or functions",
};

/** Shell keywords: one where a program is expected means the grammar read the line otherwise than bash. */
const RESERVED = new Set([
  "!",
  "{",
  "}",
  "[[",
  "]]",
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "case",
  "esac",
  "for",
  "select",
  "while",
  "until",
  "do",
  "done",
  "in",
  "function",
]);

/** Builtins that evaluate a variable name's array subscript, which can hold `$(…)`. */
const EVALUATES_NAMES = new Set(["printf", "test", "[", "read", "wait", "shift", "return", "exit"]);

/** Interpreters that read their program from their input when given no file or code. */
const INTERPRETERS = new Set([
  "python",
  "python2",
  "python3",
  "node",
  "nodejs",
  "deno",
  "bun",
  "perl",
  "ruby",
  "php",
  "lua",
  "tclsh",
  "osascript",
  "pwsh",
  "fish",
  "tcsh",
  "csh",
]);

const MAX_WRAPPERS = 16;

export function commandForms(words: Word[], assignments: string[], raw: string): CommandForms {
  const out: CommandForms = {
    command: { text: raw, needsRule: true, allowForms: [], catchForms: [raw] },
    opaque: [],
    scripts: [],
    runs: [],
  };
  const prefix = assignments.length > 0 ? `${assignments.join(" ")} ` : "";
  if (words.length === 0) {
    out.opaque.push("it only assigns shell variables");
    return out;
  }
  let current = words;
  let transparent = assignments.length === 0;
  for (let level = 0; level < MAX_WRAPPERS; level++) {
    addForms(out.command, current, level === 0 ? prefix : "", transparent || level === 0);
    if (!judgeProgram(current, out)) return out;
    const step = unwrapStep(current);
    switch (step.kind) {
      case "program":
        out.runs.push(...findRuns(current));
        return out;
      case "wrap":
        transparent &&= step.transparent;
        current = step.rest;
        continue;
      case "script":
        if (!step.script.literal)
          out.opaque.push(`the shell's script is not a fixed string (${shown(step.script.text)})`);
        else out.scripts.push(step.script.text);
        if (transparent) out.command.needsRule = false;
        return out;
      case "opaque":
        out.opaque.push(step.reason);
        return out;
      default:
        return step satisfies never;
    }
  }
  out.opaque.push(`more than ${MAX_WRAPPERS} wrappers`);
  return out;
}

function addForms(command: SimpleCommand, words: Word[], prefix: string, allow: boolean): void {
  const text = words.map((w) => w.text).join(" ");
  if (allow) command.allowForms.push(`${prefix}${text}`);
  const forms = [`${prefix}${text}`, text];
  const head = words[0] as Word;
  const base = baseName(head.text);
  if (base !== head.text && base !== "")
    forms.push([base, ...words.slice(1).map((w) => w.text)].join(" "));
  for (const form of forms) if (!command.catchForms.includes(form)) command.catchForms.push(form);
}

/** False when the program itself makes the command opaque (recorded in `out`). */
function judgeProgram(words: Word[], out: CommandForms): boolean {
  const head = words[0] as Word;
  if (!head.literal) {
    out.opaque.push(`the program is not a fixed word (${shown(head.text)})`);
    return false;
  }
  if (RESERVED.has(head.text)) {
    out.opaque.push(`the shell keyword ${shown(head.text)} stands where acai expected a program`);
    return false;
  }
  const name = baseName(head.text);
  const runs = RUNS_CODE[name];
  if (runs !== undefined) {
    out.opaque.push(runs);
    const code = name === "eval" ? words.slice(1) : name === "trap" ? words.slice(1, 2) : [];
    if (code.every((w) => w.literal) && code.length > 0)
      out.scripts.push(code.map((w) => w.text).join(" "));
    return false;
  }
  const args = words.slice(1);
  if (EVALUATES_NAMES.has(name) && args.some((w) => w.literal && /[$`]/.test(w.text))) {
    out.opaque.push(`${shown(name)} may evaluate the shell code in its arguments`);
    return false;
  }
  if (INTERPRETERS.has(name) && !args.some((w) => !w.text.startsWith("-"))) {
    out.opaque.push(`${shown(name)} reads its program from its input, which acai cannot judge`);
    return false;
  }
  return true;
}

const FIND_ACTIONS = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

/** `find … -exec CMD ARGS ;` (or `+`): the commands find runs. */
function findRuns(words: Word[]): Word[][] {
  if (baseName((words[0] as Word).text) !== "find") return [];
  const runs: Word[][] = [];
  for (let i = 1; i < words.length; i++) {
    if (!FIND_ACTIONS.has((words[i] as Word).text)) continue;
    const start = i + 1;
    let end = start;
    while (end < words.length && !/^[;+]$/.test((words[end] as Word).text)) end++;
    if (end > start) runs.push(words.slice(start, end));
    i = end;
  }
  return runs;
}
