import { chunkToWidth, sliceToWidth, textWidth } from "../text-width.js";
import { type Row, type Span, spansLength } from "./spans.js";

/** A word: the styled pieces between two runs of white space. */
type Word = Span[];

interface Token {
  /** The white space before the word, as written (dropped at a row break). */
  space: Span | undefined;
  word: Word;
}

/**
 * Word-wraps styled spans to `width` columns, like format.ts `wrapWords`: the
 * space a row breaks at goes, a word longer than a row is cut. Every row
 * starts with a prefix: `first` on the first, `rest` on the others (a list
 * bullet and its hanging indent). Counts terminal columns (text-width.ts).
 */
export function wrapSpans(
  spans: readonly Span[],
  width: number,
  first: readonly Span[] = [],
  rest: readonly Span[] = first,
): Row[] {
  const rows: Row[] = [];
  let row: Row = [...first];
  let used = spansLength(first);
  let empty = true;
  const room = (prefix: readonly Span[]) => Math.max(1, width - spansLength(prefix));
  const breakRow = () => {
    rows.push(row);
    row = [...rest];
    used = spansLength(rest);
    empty = true;
  };
  for (const { space, word } of tokens(spans)) {
    const size = spansLength(word);
    const gap = empty || !space ? 0 : textWidth(space.text);
    if (!empty && used + gap + size > width) breakRow();
    else if (gap > 0 && space) {
      row.push(space);
      used += gap;
    }
    let pieces = word;
    while (spansLength(pieces) > width - used && spansLength(pieces) > 0 && empty) {
      const [head, tail] = cut(pieces, room(rows.length === 0 ? first : rest));
      row.push(...head);
      breakRow();
      pieces = tail;
    }
    row.push(...pieces);
    used += spansLength(pieces);
    if (pieces.length > 0) empty = false;
  }
  if (!empty || rows.length === 0) rows.push(row);
  return rows.map(merge);
}

function sameStyle(a: Span, b: Span): boolean {
  return (
    a.bold === b.bold &&
    a.italic === b.italic &&
    a.code === b.code &&
    a.dim === b.dim &&
    a.strike === b.strike &&
    a.underline === b.underline &&
    a.tone === b.tone
  );
}

/** Neighbouring pieces of one style as one span (fewer nodes to render). */
function merge(row: Row): Row {
  const out: Row = [];
  for (const span of row) {
    const last = out[out.length - 1];
    if (last && sameStyle(last, span))
      out[out.length - 1] = { ...last, text: last.text + span.text };
    else out.push(span);
  }
  return out;
}

function tokens(spans: readonly Span[]): Token[] {
  const out: Token[] = [];
  let space: Span | undefined;
  let word: Word = [];
  const end = () => {
    if (word.length > 0) out.push({ space, word });
    word = [];
    space = undefined;
  };
  for (const span of spans) {
    for (const part of span.text.split(/(\s+)/)) {
      if (part === "") continue;
      if (/^\s+$/.test(part)) {
        end();
        space = { ...span, text: part };
      } else {
        word.push({ ...span, text: part });
      }
    }
  }
  end();
  return out;
}

/** The first `n` columns of a word, and the rest. */
function cut(word: Word, n: number): [Word, Word] {
  const head: Word = [];
  const tail: Word = [];
  let left = n;
  for (const span of word) {
    const size = textWidth(span.text);
    if (left >= size) {
      head.push(span);
      left -= size;
    } else if (left > 0) {
      // A character wider than what is left of the row still goes first: every row takes one.
      const fitted = sliceToWidth(span.text, left) || (chunkToWidth(span.text, left)[0] ?? "");
      head.push({ ...span, text: fitted });
      if (fitted.length < span.text.length)
        tail.push({ ...span, text: span.text.slice(fitted.length) });
      left = 0;
    } else {
      tail.push(span);
    }
  }
  return [head, tail];
}
