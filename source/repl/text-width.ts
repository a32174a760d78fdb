/**
 * Terminal widths: how many columns a string takes (`string-width`: wide CJK
 * characters and emoji take two, combining marks none), and cutting a string
 * to a number of columns without splitting a character. Every width the REPL
 * lays out goes through here, never `.length`.
 */
import stringWidth, { standsAlone } from "./string-width.js";

let graphemes: Intl.Segmenter | undefined;

/** `text`'s characters (grapheme clusters); by code point where each stands alone. */
function charactersOf(text: string): Iterable<string> {
  if (standsAlone(text)) return text;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return [...graphemes.segment(text)].map((s) => s.segment);
}

/** Columns `text` takes on a terminal (one line; no control sequences expected). */
export function textWidth(text: string): number {
  return stringWidth(text);
}

/** The longest start of `text` that fits in `columns`, whole characters only. */
export function sliceToWidth(text: string, columns: number): string {
  if (textWidth(text) <= columns) return text;
  let used = 0;
  let out = "";
  for (const segment of charactersOf(text)) {
    const w = stringWidth(segment);
    if (used + w > columns) break;
    used += w;
    out += segment;
  }
  return out;
}

/** `text` cut into rows of at most `columns` (at least one character a row). */
export function chunkToWidth(text: string, columns: number): string[] {
  const rows: string[] = [];
  let row = "";
  let used = 0;
  for (const segment of charactersOf(text)) {
    const w = stringWidth(segment);
    if (used + w > columns && row !== "") {
      rows.push(row);
      row = "";
      used = 0;
    }
    row += segment;
    used += w;
  }
  if (row !== "" || rows.length === 0) rows.push(row);
  return rows;
}

/** `text` padded with spaces to `columns` (never cut). */
export function padToWidth(text: string, columns: number): string {
  return text + " ".repeat(Math.max(0, columns - textWidth(text)));
}
