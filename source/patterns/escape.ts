/**
 * agent-relay's escape, as the user sees it: a line that starts (after
 * blanks) with `\@namespace:` is printed as `@namespace:` — literal text,
 * never routed — and `\\@relay:X` prints `\@relay:X` (one backslash goes).
 * Only where a pattern could be: at the start of a line, outside fenced code
 * blocks (code is shown as written). The scanner (scan.ts) never reads an
 * escaped line as a pattern; this module only changes what is shown.
 *
 * `unescapePatterns` does a whole text; `createUnescaper` does a stream of
 * deltas, holding back only the start of a line while it could still become
 * an escaped pattern (at most a few dozen characters).
 */
import { type Fence, nextFence } from "./scan.js";

/** An escaped pattern at the start of a line: blanks, backslashes, `@ns:`. */
const ESCAPED = /^([ \t]*)\\(\\*@[A-Za-z][A-Za-z0-9_-]{0,63}:)/;
/** What an escaped pattern's line start may still become while it streams in. */
const MAYBE = /^[ \t]*(?:\\+(?:@(?:[A-Za-z][A-Za-z0-9_-]{0,63})?)?)?$/;

function unescapeLine(line: string): string {
  return line.replace(ESCAPED, "$1$2");
}

export function unescapePatterns(text: string): string {
  if (!text.includes("\\")) return text;
  let open: Fence | undefined;
  return text
    .split("\n")
    .map((line) => {
      const shown = open === undefined ? unescapeLine(line) : line;
      open = nextFence(open, line.replace(/\r$/, ""));
      return shown;
    })
    .join("\n");
}

export interface Unescaper {
  /** The text to show for `delta` (some may be held back until the line start is known). */
  push(delta: string): string;
  /** What is still held back (the stream ended). */
  flush(): string;
}

/** A streaming `unescapePatterns`: the concatenated outputs equal it on the concatenated input. */
export function createUnescaper(): Unescaper {
  let open: Fence | undefined;
  /** The current line so far (for the fence state once it ends). */
  let line = "";
  /** The start of the current line, not shown yet: it may still be an escaped pattern. */
  let held = "";
  let deciding = true;
  const take = (char: string): string => {
    if (char === "\n") {
      const out = held + char;
      open = nextFence(open, line.replace(/\r$/, ""));
      line = "";
      held = "";
      deciding = true;
      return out;
    }
    line += char;
    if (!deciding) return char;
    held += char;
    if (open === undefined && MAYBE.test(held)) return "";
    deciding = false;
    const out = open === undefined ? unescapeLine(held) : held;
    held = "";
    return out;
  };
  return {
    push(delta) {
      let out = "";
      let i = 0;
      while (i < delta.length) {
        if (!deciding) {
          // The line is decided: pass it through up to its end in one piece.
          const end = delta.indexOf("\n", i);
          const stop = end === -1 ? delta.length : end;
          line += delta.slice(i, stop);
          out += delta.slice(i, stop);
          i = stop;
          if (end === -1) break;
        }
        out += take(delta[i] as string);
        i++;
      }
      return out;
    },
    flush() {
      const out = held;
      held = "";
      return out;
    },
  };
}
