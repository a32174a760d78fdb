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
