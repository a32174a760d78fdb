/**
 * Text from tools, hooks and models is untrusted: written to a terminal as is,
 * an escape sequence in it can retitle the window (OSC 0), recolour or clear
 * the screen, rewrite lines (`\r`), or worse on some terminals. What acai
 * prints of it goes through here first.
 *
 * Removed: every C0 control character but `\n` and `\t` (so `\r`, BEL, BS and
 * ESC), DEL, every C1 control character (U+0080–U+009F), and whole escape
 * sequences — `ESC [ … final` and C1 CSI (CSI), `ESC ] … BEL|ST` and the other
 * string sequences (OSC, DCS, SOS, PM, APC), two- and three-byte `ESC x`.
 * An unterminated string sequence ends at a line break, which is kept, so a
 * stray `ESC ]` cannot swallow the rest of the output.
 */

type State = "text" | "esc" | "csi" | "string" | "string-esc";

const ESC = 0x1b;
const BEL = 0x07;
const LF = 0x0a;
const TAB = 0x09;
const C1_CSI = 0x9b;
const C1_ST = 0x9c;
/** C1 introducers of string sequences: DCS, SOS, OSC, PM, APC. */
const C1_STRINGS = new Set([0x90, 0x98, 0x9d, 0x9e, 0x9f]);
/** After ESC: `P` DCS, `X` SOS, `]` OSC, `^` PM, `_` APC. */
const ESC_STRINGS = new Set(["P", "X", "]", "^", "_"]);

/** Any character the filter may have to act on; text without one passes untouched. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

function isControl(code: number): boolean {
  return (code < 0x20 && code !== LF && code !== TAB) || (code >= 0x7f && code <= 0x9f);
}

/**
 * Streaming filter: a sequence split across chunks (streamed model text) is
 * still recognised; `push` returns what can be shown of each chunk.
 */
export class ControlStripper {
  private state: State = "text";

  push(chunk: string): string {
    if (this.state === "text" && !CONTROL.test(chunk)) return chunk;
    let out = "";
    let kept = 0; // start of the run of plain text not yet copied to `out`
    for (let i = 0; i < chunk.length; i++) {
      const code = chunk.charCodeAt(i);
      if (this.state === "text") {
        if (!isControl(code)) continue;
        out += chunk.slice(kept, i);
        kept = i + 1;
        if (code === ESC) this.state = "esc";
        else if (code === C1_CSI) this.state = "csi";
        else if (C1_STRINGS.has(code)) this.state = "string";
        continue;
      }
      const next = this.step(code, chunk[i] ?? "");
      if (next === "reprocess") {
        // A malformed sequence ends before this character, which is taken as text.
        this.state = "text";
        i--;
      }
      kept = i + 1;
    }
    return out + (this.state === "text" ? chunk.slice(kept) : "");
  }

  /** Advances inside a sequence; "reprocess" when the character is not part of it. */
  private step(code: number, char: string): "eaten" | "reprocess" {
    switch (this.state) {
      case "esc":
        if (char === "[") this.state = "csi";
        else if (ESC_STRINGS.has(char)) this.state = "string";
        else if (code >= 0x20 && code <= 0x2f)
          this.state = "esc"; // intermediate byte: ESC ( B
        else if (code >= 0x30 && code <= 0x7e)
          this.state = "text"; // final byte: ESC c, ESC 7
        else if (code === ESC) this.state = "esc";
        else return "reprocess";
        return "eaten";
      case "csi":
        if (code >= 0x40 && code <= 0x7e) this.state = "text";
        else if (code < 0x20 || code > 0x7e) return "reprocess";
        return "eaten";
      case "string":
        if (code === BEL || code === C1_ST) this.state = "text";
        else if (code === ESC) this.state = "string-esc";
        else if (code === LF) return "reprocess";
        return "eaten";
      case "string-esc":
        if (char === "\\") {
          this.state = "text";
          return "eaten";
        }
        // ESC inside a string ends it and starts a new sequence.
        this.state = "esc";
        return this.step(code, char);
      case "text":
        return "reprocess";
      default:
        return this.state satisfies never;
    }
  }
}

/** `text` without control characters and escape sequences (see the module comment). */
export function stripControls(text: string): string {
  if (!CONTROL.test(text)) return text;
  return new ControlStripper().push(text);
}

/**
 * Characters a terminal would act on or not show at all: C0 controls
 * (newline and tab included: a newline in a one-line field can forge the next
 * line of a review), DEL, C1 controls, Unicode format characters (bidi
 * embeddings, overrides and isolates like U+202E, zero-width spaces and
 * joiners, soft hyphen, BOM, tag characters), line and paragraph separators,
 * variation selectors and the Hangul fillers, which render as blank.
 */
const INVISIBLE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: variation selectors are matched alone on purpose
  /[\p{Cc}\p{Cf}\u2028\u2029\u115f\u1160\u3164\uffa0\u180b-\u180f\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/u;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, "gu");
/** The same, but a line break is kept (multi-line text such as a hook's output). */
const INVISIBLE_BUT_NEWLINE = new RegExp(`(?!\\n)${INVISIBLE.source}`, "gu");

const NAMED_ESCAPES: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** The visible spelling of one invisible character: `\r`, `\x1b`, `\u202e`, `\u{e0041}`. */
function visibleEscape(char: string): string {
  const named = NAMED_ESCAPES[char];
  if (named !== undefined) return named;
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, "0")}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, "0")}`;
  return `\\u{${code.toString(16)}}`;
}

/**
 * Text a project controls (hook names, commands, matchers, descriptions,
 * file names, reasons, settings values), made inert for the terminal: every
 * control character, escape sequence and invisible formatting character is
 * shown as a visible escape instead of being interpreted or hidden, so
 * `echo pwned #\r\x1b[2K npm run lint` reads as exactly that. Unlike
 * `stripControls`, nothing is removed: what the user reviews is what runs.
 * One line out for one line in (newlines show as `\n`); backslashes are kept
 * as they are, so regular expressions read naturally.
 */
export function inertText(text: string): string {
  return text.replace(INVISIBLE_ALL, visibleEscape);
}

/** `inertText` for multi-line text (a hook's output, a description): line breaks are kept. */
export function inertLines(text: string): string {
  return text.replace(INVISIBLE_BUT_NEWLINE, visibleEscape);
}

/**
 * What JSON.stringify leaves raw but a terminal may act on or hide: DEL, C1
 * controls and invisible characters. C0 is excluded: JSON.stringify escapes it
 * inside strings, and outside them it is the layout's own line breaks.
 */
const JSON_RAW_INVISIBLE = new RegExp(`(?![\\u0000-\\u001f])${INVISIBLE.source}`, "gu");

/** `\uXXXX` for each UTF-16 unit of `char` (a surrogate pair for astral characters). */
function jsonEscape(char: string): string {
  let out = "";
  for (let i = 0; i < char.length; i++)
    out += `\\u${char.charCodeAt(i).toString(16).padStart(4, "0")}`;
  return out;
}

/**
 * `JSON.stringify` for output that may reach a terminal (`--json` of the hooks
 * commands): the same JSON, but DEL, C1 controls and invisible format
 * characters are written as `\uXXXX` escapes too (JSON.stringify escapes only
 * C0). A JSON reader sees the same value.
 */
export function jsonForTerminal(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(JSON_RAW_INVISIBLE, jsonEscape);
}
