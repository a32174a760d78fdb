/**
 * Where a JSON text goes wrong. V8's JSON.parse messages do not always give a
 * position ("Unexpected token 'x', ... is not valid JSON"), so a small scanner
 * finds the offset of the first error, which we turn into line and column.
 */

export interface JsonErrorLocation {
  line: number;
  column: number;
  offset: number;
}

export function parseJsonWithLocation(
  text: string,
): { ok: true; value: unknown } | { ok: false; reason: string; location: JsonErrorLocation } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const offset = findJsonErrorOffset(text);
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      reason: describeError(message, text, offset),
      location: { offset, ...lineColumn(text, offset) },
    };
  }
}

function describeError(v8Message: string, text: string, offset: number): string {
  // V8 messages with a position are descriptive ("Expected ',' or '}' after property value").
  const positioned = /^(.*) in JSON at position \d+/.exec(v8Message);
  if (positioned?.[1]) return positioned[1];
  const ch = text[offset];
  if (ch === undefined) return "unexpected end of file";
  const shown = ch === "\n" ? "line break" : ch.trim() === "" ? "whitespace" : `'${ch}'`;
  return `unexpected ${shown}`;
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

class ScanError extends Error {
  constructor(readonly offset: number) {
    super("scan");
  }
}

/** Offset of the first character that makes `text` invalid JSON (text.length for a premature end). */
export function findJsonErrorOffset(text: string): number {
  const scanner = new JsonScanner(text);
  try {
    scanner.scan();
    return text.length;
  } catch (error) {
    if (error instanceof ScanError) return error.offset;
    throw error;
  }
}

/** A JSON validator that throws `ScanError` at the first character that is wrong. */
class JsonScanner {
  private i = 0;

  constructor(private readonly text: string) {}

  /**
   * Iterative, with the open containers on a stack: a file 100,000 `[` deep is
   * scanned, not recursed into (a recursive scanner overflows the call stack).
   */
  scan(): void {
    const open: ("}" | "]")[] = [];
    for (;;) {
      this.ws();
      const ch = this.text[this.i];
      if (ch === "{" || ch === "[") {
        const close = ch === "{" ? "}" : "]";
        this.i++;
        this.ws();
        if (this.text[this.i] !== close) {
          open.push(close);
          if (close === "}") this.key();
          continue; // the first element's value
        }
        this.i++;
      } else this.scalar(ch);
      if (this.afterValue(open) === "done") return;
    }
  }

  /** After a value: closes every container that ends here, or goes on after a comma. */
  private afterValue(open: ("}" | "]")[]): "done" | "next" {
    for (;;) {
      const close = open[open.length - 1];
      this.ws();
      if (close === undefined) {
        if (this.i < this.text.length) this.fail();
        return "done";
      }
      if (this.text[this.i] === ",") {
        this.i++;
        if (close === "}") this.key();
        return "next";
      }
      if (this.text[this.i] !== close) this.fail();
      this.i++;
      open.pop();
    }
  }

  private fail(): never {
    throw new ScanError(this.i);
  }

  private ws(): void {
    while (this.i < this.text.length && " \t\n\r".includes(this.text[this.i] ?? "")) this.i++;
  }

  private literal(word: string): void {
    for (const ch of word) {
      if (this.text[this.i] !== ch) this.fail();
      this.i++;
    }
  }

  private string(): void {
    if (this.text[this.i] !== '"') this.fail();
    this.i++;
    for (;;) {
      const ch = this.text[this.i];
      if (ch === undefined) this.fail();
      if (ch === '"') {
        this.i++;
        return;
      }
      if (ch === "\\") this.escape();
      else if (ch.charCodeAt(0) < 0x20) this.fail();
      else this.i++;
    }
  }

  /** A backslash and what follows it: one of `"\\/bfnrt`, or `u` and four hex digits. */
  private escape(): void {
    this.i++;
    const esc = this.text[this.i];
    if (esc === "u") {
      this.i++;
      for (let k = 0; k < 4; k++) {
        if (!/[0-9a-fA-F]/.test(this.text[this.i] ?? "")) this.fail();
        this.i++;
      }
    } else if (esc !== undefined && '"\\/bfnrt'.includes(esc)) this.i++;
    else this.fail();
  }

  private number(): void {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(
      this.text.slice(this.i, this.i + 400),
    );
    if (!match) this.fail();
    this.i += match[0].length;
  }

  /** `"key":` of an object member, up to the value. */
  private key(): void {
    this.ws();
    this.string();
    this.ws();
    if (this.text[this.i] !== ":") this.fail();
    this.i++;
  }

  private scalar(ch: string | undefined): void {
    if (ch === '"') this.string();
    else if (ch === "t") this.literal("true");
    else if (ch === "f") this.literal("false");
    else if (ch === "n") this.literal("null");
    else this.number();
  }
}
