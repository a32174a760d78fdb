import type { Span, Style } from "./spans.js";

/**
 * Inline Markdown to styled spans: `code`, **bold**, *italic*, ~~strike~~,
 * [text](url) (the text, then the url dimmed), <https://autolinks>, and
 * backslash escapes. A marker without its closing partner stays literal, so a
 * half-streamed line reads as typed.
 */
export interface InlineOptions {
  /** Without color inline code keeps its backticks (nothing else would set it apart). */
  color: boolean;
}

const ESCAPABLE = /[\\`*_{}[\]()#+\-.!|~<>]/;

export function parseInline(text: string, options: InlineOptions, base: Style = {}): Span[] {
  const out: Span[] = [];
  let literal = "";
  const flush = () => {
    if (literal) out.push({ ...base, text: literal });
    literal = "";
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i] ?? "";
    const next = text[i + 1] ?? "";
    if (ch === "\\" && ESCAPABLE.test(next)) {
      literal += next;
      i += 2;
      continue;
    }
    const found = inlineAt(text, i, options, base);
    if (found) {
      flush();
      out.push(...found.spans);
      i = found.end;
      continue;
    }
    const run = ch === "`" ? runLength(text, i, ch) : 1;
    literal += text.slice(i, i + run);
    i += run;
  }
  flush();
  return out;
}

interface Found {
  spans: Span[];
  end: number;
}

function inlineAt(text: string, i: number, options: InlineOptions, base: Style): Found | undefined {
  switch (text[i]) {
    case "`":
      return codeSpan(text, i, options, base);
    case "*":
    case "_":
    case "~":
      return emphasis(text, i, options, base);
    case "[":
      return link(text, i, i, options, base);
    case "!":
      return text[i + 1] === "[" ? link(text, i + 1, i, options, base) : undefined;
    case "<":
      return autolink(text, i, base);
    default:
      return undefined;
  }
}

function runLength(text: string, at: number, ch: string): number {
  let n = 0;
  while (text[at + n] === ch) n++;
  return n;
}

function codeSpan(text: string, i: number, options: InlineOptions, base: Style): Found | undefined {
  const run = runLength(text, i, "`");
  const fence = "`".repeat(run);
  let from = i + run;
  for (;;) {
    const close = text.indexOf(fence, from);
    if (close === -1) return undefined;
    if (runLength(text, close, "`") !== run) {
      from = close + runLength(text, close, "`");
      continue;
    }
    let inner = text.slice(i + run, close);
    if (/^ .*\S.* $/.test(inner)) inner = inner.slice(1, -1);
    if (!inner) return undefined;
    const shown = options.color ? inner : `${fence}${inner}${fence}`;
    return { spans: [{ ...base, code: true, text: shown }], end: close + run };
  }
}

const WORD = /[\p{L}\p{N}]/u;

function emphasis(text: string, i: number, options: InlineOptions, base: Style): Found | undefined {
  const ch = text[i] ?? "";
  const run = Math.min(runLength(text, i, ch), 3);
  if (ch === "~" && run !== 2) return undefined;
  const after = text[i + run] ?? "";
  if (after === "" || /\s/.test(after)) return undefined;
  // snake_case and 2*3*4 are not emphasis.
  if (ch !== "~" && WORD.test(text[i - 1] ?? "") && (ch === "_" || run === 1)) return undefined;
  const marker = ch.repeat(run);
  let from = i + run + 1;
  for (;;) {
    const close = text.indexOf(marker, from);
    if (close === -1) return undefined;
    const before = text[close - 1] ?? "";
    const follow = text[close + run] ?? "";
    const wordAfter = ch === "_" && WORD.test(follow);
    if (/\s/.test(before) || follow === ch || wordAfter) {
      from = close + 1;
      continue;
    }
    const style: Style =
      ch === "~"
        ? { strike: true }
        : run === 1
          ? { italic: true }
          : run === 2
            ? { bold: true }
            : { bold: true, italic: true };
    const inner = text.slice(i + run, close);
    return { spans: parseInline(inner, options, { ...base, ...style }), end: close + run };
  }
}

function link(
  text: string,
  open: number,
  start: number,
  options: InlineOptions,
  base: Style,
): Found | undefined {
  const close = text.indexOf("](", open + 1);
  if (close === -1 || text.slice(open + 1, close).includes("]")) return undefined;
  const end = text.indexOf(")", close + 2);
  if (end === -1) return undefined;
  const url = (
    text
      .slice(close + 2, end)
      .trim()
      .split(/\s+/)[0] ?? ""
  ).replace(/^<|>$/g, "");
  const label = text.slice(open + 1, close);
  if (!url) return undefined;
  const spans = label.trim()
    ? parseInline(label, options, { ...base, underline: true })
    : [{ ...base, underline: true, text: url }];
  if (label.trim() && label.trim() !== url) spans.push({ ...base, dim: true, text: ` (${url})` });
  if (start !== open) spans.unshift({ ...base, dim: true, text: "image: " });
  return { spans, end: end + 1 };
}

function autolink(text: string, i: number, base: Style): Found | undefined {
  const match = /^<((?:https?|mailto):[^\s<>]+)>/.exec(text.slice(i));
  if (!match?.[1]) return undefined;
  return { spans: [{ ...base, underline: true, text: match[1] }], end: i + match[0].length };
}
