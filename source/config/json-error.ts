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

export function lineColumn(text: string, offset: number): { line: number; column: number } {
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
  let i = 0;
  const fail = (): never => {
    throw new ScanError(i);
  };
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i] ?? "")) i++;
  };
  const literal = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) fail();
      i++;
    }
  };
  const string = () => {
    if (text[i] !== '"') fail();
    i++;
    for (;;) {
      const ch = text[i];
      if (ch === undefined) fail();
      if (ch === '"') {
        i++;
        return;
      }
      if (ch === "\\") {
        i++;
        const esc = text[i];
        if (esc === "u") {
          i++;
          for (let k = 0; k < 4; k++) {
            if (!/[0-9a-fA-F]/.test(text[i] ?? "")) fail();
            i++;
          }
        } else if (esc !== undefined && '"\\/bfnrt'.includes(esc)) i++;
        else fail();
      } else if ((ch?.charCodeAt(0) ?? 0) < 0x20) fail();
      else i++;
    }
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!match) fail();
    i += match?.[0].length ?? 0;
  };
  /** `"key":` of an object member, up to the value. */
  const key = () => {
    ws();
    string();
    ws();
    if (text[i] !== ":") fail();
    i++;
  };
  const scalar = (ch: string | undefined) => {
    if (ch === '"') string();
    else if (ch === "t") literal("true");
    else if (ch === "f") literal("false");
    else if (ch === "n") literal("null");
    else number();
  };
  // Iterative, with the open containers on a stack: a file 100,000 `[` deep is
  // scanned, not recursed into (a recursive scanner overflows the call stack).
  const open: ("}" | "]")[] = [];
  try {
    for (;;) {
      ws();
      const ch = text[i];
      if (ch === "{" || ch === "[") {
        const close = ch === "{" ? "}" : "]";
        i++;
        ws();
        if (text[i] !== close) {
          open.push(close);
          if (close === "}") key();
          continue; // the first element's value
        }
        i++;
      } else scalar(ch);
      // After a value: close every container that ends here, or go on after a comma.
      for (;;) {
        const close = open[open.length - 1];
        if (close === undefined) {
          ws();
          if (i < text.length) fail();
          return text.length;
        }
        ws();
        if (text[i] === ",") {
          i++;
          if (close === "}") key();
          break;
        }
        if (text[i] !== close) fail();
        i++;
        open.pop();
      }
    }
  } catch (error) {
    if (error instanceof ScanError) return error.offset;
    throw error;
  }
}
