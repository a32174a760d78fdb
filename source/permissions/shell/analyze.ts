/**
 * A parsed Bash line (tree-sitter-bash) as what permission rules judge:
 * every simple command it runs, substitutions, subshells, pipelines and
 * `bash -c` scripts included, normalised (quotes and escapes undone,
 * wrappers seen through); every file it writes by redirection; and each
 * thing the analysis does not fully understand (`opaque`), which no allow
 * rule may pass. Pure over the tree.
 */
import type { Node } from "web-tree-sitter";
import {
  type FolderChanges,
  noFolderChanges,
  noteFolderChange,
  writesAcrossFolders,
  writesLost,
} from "./cd.js";
import { commandForms, type SimpleCommand } from "./command.js";
import { runnerReach } from "./runners.js";
import { bareWord, shown, type Word, wordOf } from "./words.js";

export interface CommandAnalysis {
  /** Every simple command, in source order (nested ones after their parent's words). */
  commands: SimpleCommand[];
  /** Files written by redirections, as written after unquoting (`~/x` keeps its tilde). */
  writes: string[];
  /** Why an allow rule may not pass this line; empty when the analysis understood all of it. */
  opaque: string[];
}

export interface ShellAnalyzer {
  /** The commands, writes and what could not be judged in a Bash command line. */
  analyze(line: string): CommandAnalysis;
  /**
   * A parser loaded when first needed (deferred.ts): resolves once `analyze`
   * parses. The permission check awaits it before it decides.
   */
  ready?(): Promise<void>;
}

/** For a policy that judges no Bash line (no rules apply to any): every line is opaque. */
export const NO_SHELL_PARSER: ShellAnalyzer = Object.freeze({
  analyze: (): CommandAnalysis => ({
    commands: [],
    writes: [],
    opaque: ["no shell parser was loaded for this policy"],
  }),
});

/** Parses a script found inside a line (`bash -c '…'`, `eval …`) one level deeper. */
export type ScriptParser = (text: string, depth: number) => CommandAnalysis;

/** How deep `bash -c "bash -c '…'"` is followed. */
const MAX_DEPTH = 4;

interface Walk {
  out: CommandAnalysis;
  depth: number;
  again: ScriptParser;
  /** How many nodes deep the walk is now (bounded: hostile lines nest `(((…` thousands deep). */
  nesting: number;
  /** Where `cd` moves the line's later relative writes. */
  folders: FolderChanges;
}

/** Deeper syntax trees are not walked: the line is opaque. */
const MAX_NESTING = 256;

export function analyzeTree(root: Node, depth: number, again: ScriptParser): CommandAnalysis {
  const out: CommandAnalysis = { commands: [], writes: [], opaque: [] };
  const walk: Walk = { out, depth, again, nesting: 0, folders: noFolderChanges() };
  if (root.hasError) walk.out.opaque.push("the command does not parse as Bash");
  visit(root, walk);
  if (writesLost(out.writes, walk.folders))
    out.opaque.push("a cd the parse cannot follow moves where its relative redirections write");
  out.writes = writesAcrossFolders(out.writes, walk.folders);
  return out;
}

/** Nodes that only hold statements, words and redirections, each visited. */
const CONTAINERS = new Set([
  "program",
  "list",
  "pipeline",
  "subshell",
  "compound_statement",
  "negated_command",
  "do_group",
  "if_statement",
  "elif_clause",
  "else_clause",
  "while_statement",
  "for_statement",
  "case_statement",
  "case_item",
  "redirected_statement",
  "heredoc_redirect",
]);

/** Words and parts of words: only their substitutions run something. */
const WORDS = new Set([
  "command_name",
  "word",
  "string",
  "raw_string",
  "ansi_c_string",
  "translated_string",
  "concatenation",
  "number",
  "simple_expansion",
  "expansion",
  "string_content",
  "heredoc_body",
  "heredoc_content",
  "heredoc_start",
  "heredoc_end",
  "variable_name",
  "special_variable_name",
  "herestring_redirect",
  "file_descriptor",
]);

/** Every node whose children are simply visited (substitutions run their statements). */
const KNOWN = new Set([...CONTAINERS, ...WORDS, "command_substitution", "process_substitution"]);

/** Constructs that change what later commands run, or evaluate code hidden in values. */
const NEVER_ALLOWED: Readonly<Record<string, string>> = {
  function_definition: "it defines a function",
  variable_assignment: "it assigns a shell variable, which can change what later commands run",
  variable_assignments: "it assigns shell variables, which can change what later commands run",
  declaration_command: "it declares or exports shell variables",
  unset_command: "it unsets shell variables or functions",
  test_command: "[[ … ]] evaluates arithmetic, which can run commands",
  arithmetic_expansion: "arithmetic can run commands through array subscripts",
  c_style_for_statement: "arithmetic can run commands through array subscripts",
  ERROR: "the command does not parse as Bash",
};

function visit(node: Node, walk: Walk): void {
  if (walk.nesting >= MAX_NESTING) {
    const reason = `the command nests more than ${MAX_NESTING} levels deep`;
    if (!walk.out.opaque.includes(reason)) walk.out.opaque.push(reason);
    return;
  }
  walk.nesting++;
  try {
    visitNode(node, walk);
  } finally {
    walk.nesting--;
  }
}

function visitNode(node: Node, walk: Walk): void {
  if (node.isMissing) walk.out.opaque.push("the command is incomplete");
  const never = NEVER_ALLOWED[node.type];
  if (never !== undefined) walk.out.opaque.push(never);
  else if (node.type === "comment") return;
  else if (rereadByShell(node)) walk.out.opaque.push(REREAD[node.type] ?? "");
  else if (node.type === "command") {
    simpleCommand(node, walk);
    return;
  } else if (node.type === "file_redirect") {
    redirect(node, walk);
    return;
  } else if (!KNOWN.has(node.type)) {
    walk.out.opaque.push(`acai does not know the shell construct "${node.type}"`);
  }
  scanChildren(node, walk);
}

const REREAD: Readonly<Record<string, string>> = {
  command_substitution: "backquotes hold a backslash, which bash reads again as shell code",
  heredoc_body: "a here-document body holds backquotes, which bash runs as a command",
};

/** Text tree-sitter keeps as text but bash reads as code: escapes inside backquotes, backquotes in a here-doc. */
function rereadByShell(node: Node): boolean {
  if (node.type === "command_substitution")
    return node.text.startsWith("`") && node.text.includes("\\");
  if (node.type !== "heredoc_body" || !node.text.includes("`")) return false;
  const start = node.parent?.children.find((c) => c?.type === "heredoc_start")?.text ?? "";
  return !/['"\\]/.test(start);
}

function scanChildren(node: Node, walk: Walk): void {
  for (const child of node.namedChildren) if (child !== null) visit(child, walk);
}

const WRITE_OPERATORS = new Set([">", ">>", "&>", "&>>", ">|", ">&", "<>", "&>|"]);
const DUP_OPERATORS = new Set([">&", "<&"]);
const HARMLESS_TARGETS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"]);

/** `> file` and its kin are writes of the file; `2>&1` and `< file` are not. */
function redirect(node: Node, walk: Walk): void {
  scanChildren(node, walk);
  const operator = node.children.find((c) => c !== null && !c.isNamed)?.type ?? "";
  const destination = node.childForFieldName("destination");
  if (destination === null) return;
  const target = redirectTarget(destination);
  const after = destination.tree.rootNode.text.slice(
    destination.endIndex,
    destination.endIndex + 2,
  );
  if (after === "\\\n") {
    walk.out.opaque.push("a line continuation splits a redirection's file name");
    return;
  }
  if (DUP_OPERATORS.has(operator) && /^(?:\d+-?|-)$/.test(target.text)) return;
  if (!WRITE_OPERATORS.has(operator)) return;
  if (!target.literal) {
    walk.out.opaque.push(`it writes to a file named by an expansion (${shown(target.text)})`);
    return;
  }
  if (HARMLESS_TARGETS.has(target.text) || /^\/dev\/fd\/\d+$/.test(target.text)) return;
  walk.out.writes.push(target.text);
}

/** A redirection's file: `~/x` keeps its tilde (the caller knows the home folder). */
function redirectTarget(node: Node): Word {
  if (node.type === "word" && /^~(?:\/|$)/.test(node.text)) {
    const rest = bareWord(node.text.slice(1));
    return rest === undefined
      ? { text: node.text, literal: false }
      : { text: `~${rest}`, literal: true };
  }
  return wordOf(node);
}

/** One simple command: its words normalised, wrappers unwrapped, nested scripts parsed. */
function simpleCommand(node: Node, walk: Walk): void {
  const assignments: string[] = [];
  const words: Word[] = [];
  let previous: Node | undefined;
  for (const child of node.namedChildren) {
    if (child === null) continue;
    const joined = previous !== undefined && continues(node, previous, child);
    previous = child;
    if (child.type === "variable_assignment") {
      if (joined) walk.out.opaque.push("a line continuation joins an assignment to a word");
      assignments.push(child.text);
      scanChildren(child, walk);
    } else if (child.type === "file_redirect" || child.type === "herestring_redirect") {
      visit(child, walk);
    } else {
      const word = wordOf(child);
      const last = words.at(-1);
      // tree-sitter splits `tou\<newline>ch` in two; bash reads one word.
      if (joined && last !== undefined) words[words.length - 1] = joinWords(last, word);
      else if (joined) walk.out.opaque.push("a line continuation joins an assignment to a word");
      else words.push(word);
      visit(child, walk);
    }
  }
  judgeWords(words, assignments, node.text, walk);
}

/** A command's words as forms; what it runs from its arguments (`find -exec`) judged the same way. */
function judgeWords(words: Word[], assignments: string[], text: string, walk: Walk): void {
  noteFolderChange(words, walk.folders);
  const forms = commandForms(words, assignments, text);
  walk.out.commands.push(forms.command);
  walk.out.opaque.push(...forms.opaque);
  for (const script of forms.scripts) nested(script, walk);
  for (const run of forms.runs) judgeWords(run, [], run.map((w) => w.text).join(" "), walk);
  reachOf(words, forms.command, walk);
}

/** How many commands a runner's arguments may name before the line is not judged. */
const MAX_REACH = 64;

/**
 * What a runner (`ionice touch x`, `su -c 'touch x'`, shell/runners.ts) may
 * run: caught by deny and ask rules as the runner's own forms; its writes
 * judged. Not recursive: the suffixes of its words hold every runner inside it.
 */
function reachOf(words: Word[], command: SimpleCommand, walk: Walk): void {
  const reach = runnerReach(words);
  if (reach.commands.length + reach.scripts.length > MAX_REACH) {
    walk.out.opaque.push(`it names more than ${MAX_REACH} commands it may run`);
    return;
  }
  const catches = (forms: readonly string[]) => {
    for (const form of forms) if (!command.catchForms.includes(form)) command.catchForms.push(form);
  };
  const scripts = [...reach.scripts];
  for (const run of reach.commands) {
    const forms = commandForms(run, [], run.map((w) => w.text).join(" "));
    catches(forms.command.catchForms);
    scripts.push(...forms.scripts);
  }
  if (scripts.length > 0 && walk.depth + 1 > MAX_DEPTH) {
    walk.out.opaque.push(`scripts are nested more than ${MAX_DEPTH} deep`);
    return;
  }
  for (const script of scripts) {
    const inner = walk.again(script, walk.depth + 1);
    for (const c of inner.commands) catches(c.catchForms);
    walk.out.writes.push(...inner.writes);
  }
}

/** Whether only a backslash-newline stands between two parts of a command. */
function continues(command: Node, before: Node, after: Node): boolean {
  const base = command.startIndex;
  return command.text.slice(before.endIndex - base, after.startIndex - base) === "\\\n";
}

function joinWords(a: Word, b: Word): Word {
  return a.literal && b.literal
    ? { text: a.text + b.text, literal: true }
    : { text: a.text + b.text, literal: false };
}

/** A script inside the line (`bash -c '…'`, `eval …`): its commands count as the line's. */
function nested(script: string, walk: Walk): void {
  if (walk.depth + 1 > MAX_DEPTH) {
    walk.out.opaque.push(`scripts are nested more than ${MAX_DEPTH} deep`);
    return;
  }
  const inner = walk.again(script, walk.depth + 1);
  walk.out.commands.push(...inner.commands);
  walk.out.writes.push(...inner.writes);
  walk.out.opaque.push(...inner.opaque);
}
