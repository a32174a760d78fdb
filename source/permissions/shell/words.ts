/**
 * A shell word from tree-sitter-bash as the string bash would pass on, when
 * that is known without running anything: quotes removed (`"touch"`,
 * `t''ouch`), escapes undone (`\touch`, `tou\<newline>ch`, `$'\x74ouch'`).
 * A word holding an expansion, a substitution, a glob or a tilde is not
 * literal: its value depends on the run, so it never names a program.
 */
import type { Node } from "web-tree-sitter";

export interface Word {
  /** The value when literal, else the word as written. */
  text: string;
  literal: boolean;
}

/** A word as quoted in a reason: at most 80 characters, control characters escaped. */
export function shown(text: string): string {
  const flat = JSON.stringify(text).slice(1, -1);
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}

/** The word bash would see, or the source text marked not literal. */
export function wordOf(node: Node): Word {
  const value = literalValue(node);
  return value === undefined ? { text: node.text, literal: false } : { text: value, literal: true };
}

function literalValue(node: Node): string | undefined {
  switch (node.type) {
    case "word":
    case "command_name":
    case "number":
      return node.type === "command_name" ? childrenValue(node) : bareWord(node.text);
    case "raw_string":
      return node.text.slice(1, -1);
    case "string":
      return doubleQuoted(node);
    case "ansi_c_string":
      return ansiC(node.text.slice(2, -1));
    case "translated_string":
    case "concatenation":
      return childrenValue(node);
    default:
      return undefined;
  }
}

function childrenValue(node: Node): string | undefined {
  let out = "";
  for (const child of node.namedChildren) {
    if (child === null) return undefined;
    const value = literalValue(child);
    if (value === undefined) return undefined;
    out += value;
  }
  // A concatenation also holds unnamed pieces (`a"b"` has none, `a\ b` may).
  if (node.namedChildren.length === 0) return bareWord(node.text);
  return out;
}

/** An unquoted word: undefined when bash would expand it (globs, braces, tilde, `$`). */
export function bareWord(text: string): string | undefined {
  // `{}` and `{x}` stay as they are; `{a,b}` and `{1..3}` expand.
  if (/\{[^}]*(?:,|\.\.)[^}]*\}/.test(text)) return undefined;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === "\\") {
      const next = text[i + 1];
      i++;
      if (next === undefined) return undefined;
      if (next !== "\n") out += next;
      continue;
    }
    if ("*?[~$`'\"".includes(ch)) return undefined;
    out += ch;
  }
  return out;
}

/** `"…"`: only its own escapes; any expansion inside makes it not literal. */
function doubleQuoted(node: Node): string | undefined {
  let out = "";
  for (const child of node.namedChildren) {
    if (child === null || child.type !== "string_content") return undefined;
  }
  const inner = node.text.slice(1, -1);
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i] as string;
    if (ch === "$" || ch === "`") return undefined;
    if (ch === "\\") {
      const next = inner[i + 1];
      if (next !== undefined && '$`"\\\n'.includes(next)) {
        i++;
        if (next !== "\n") out += next;
        continue;
      }
    }
    out += ch;
  }
  return out;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** `$'…'`'s body decoded as bash does; undefined for an escape it cannot be sure of. */
export function ansiC(body: string): string | undefined {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const ch = body[i] as string;
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const next = body[i + 1];
    if (next === undefined) return undefined;
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      out += simple;
      i++;
      continue;
    }
    const coded = codedEscape(body, i + 1);
    if (coded === undefined) return undefined;
    out += coded.text;
    i += coded.length;
  }
  return out;
}

const CODED: readonly { lead: string; digits: RegExp; radix: number }[] = [
  { lead: "x", digits: /^[0-9a-fA-F]{1,2}/, radix: 16 },
  { lead: "u", digits: /^[0-9a-fA-F]{1,4}/, radix: 16 },
  { lead: "U", digits: /^[0-9a-fA-F]{1,8}/, radix: 16 },
];

/** `\xHH`, `\uHHHH`, `\UHHHHHHHH`, `\nnn`, `\cX` at `at` (after the backslash). */
function codedEscape(body: string, at: number): { text: string; length: number } | undefined {
  const lead = body[at] as string;
  const octal = /^[0-7]{1,3}/.exec(body.slice(at));
  if (octal) {
    return {
      text: String.fromCharCode(Number.parseInt(octal[0], 8) & 0xff),
      length: octal[0].length,
    };
  }
  if (lead === "c") {
    const control = body[at + 1];
    if (control === undefined) return undefined;
    return { text: String.fromCharCode(control.charCodeAt(0) & 0x1f), length: 2 };
  }
  for (const code of CODED) {
    if (lead !== code.lead) continue;
    const digits = code.digits.exec(body.slice(at + 1));
    if (!digits) return undefined;
    const point = Number.parseInt(digits[0], code.radix);
    if (point > 0x10ffff) return undefined;
    return { text: String.fromCodePoint(point), length: 1 + digits[0].length };
  }
  // Bash keeps an unknown escape as written.
  return { text: `\\${lead}`, length: 1 };
}
