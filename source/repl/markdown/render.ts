import { stripControls } from "../../terminal/inert-text.js";
import { type Fence, fenceCloses, fenceOpens } from "../format.js";
import { chunkToWidth, sliceToWidth, textWidth } from "../text-width.js";
import { highlightLine } from "./highlight.js";
import { type InlineOptions, parseInline } from "./inline.js";
import { dim, type Row, type Span } from "./spans.js";
import { renderTable, tableEnd } from "./table.js";
import { wrapSpans } from "./wrap.js";

export type { Row } from "./spans.js";

export interface RenderOptions extends InlineOptions {
  width: number;
  /** The code block this text starts inside (a streamed message is rendered line by line). */
  fence?: Fence;
}

const CODE_GUTTER = "  │ ";
const TAB = "    ";

/**
 * Assistant Markdown as terminal rows: headings bold, lists with bullets and
 * hanging indents, quotes, rules, tables aligned, fenced code indented under
 * its language. Model text: control sequences are stripped first.
 */
export function renderMarkdown(text: string, options: RenderOptions): Row[] {
  const lines = stripControls(text).replace(/\t/g, TAB).split("\n");
  const rows: Row[] = [];
  let fence = options.fence;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (fence) {
      if (fenceCloses(line, fence)) {
        fence = undefined;
        rows.push([dim("  └")]);
      } else rows.push(...codeRows(line, options.width, fence.lang));
      continue;
    }
    const opened = fenceOpens(line);
    if (opened) {
      fence = opened;
      rows.push([dim(opened.lang ? `  ┌ ${opened.lang}` : "  ┌")]);
      continue;
    }
    const end = tableEnd(lines, i);
    if (end !== undefined) {
      rows.push(...renderTable(lines.slice(i, end), options.width, options));
      i = end - 1;
      continue;
    }
    rows.push(...blockRows(line, options));
  }
  return rows;
}

/** A line of a code block under its gutter, highlighted when its language is known, cut at the width. */
function codeRows(line: string, width: number, lang: string): Row[] {
  const room = Math.max(1, width - textWidth(CODE_GUTTER));
  const spans = highlightLine(lang, line) ?? [{ text: line }];
  return cutSpans(spans, room).map((row) => [dim(CODE_GUTTER), ...row]);
}

/** Spans cut into rows of `room` columns, every character kept (code keeps its indentation). */
function cutSpans(spans: readonly Span[], room: number): Row[] {
  const rows: Row[] = [[]];
  let used = 0;
  for (const span of spans) {
    let rest = span.text;
    while (rest !== "") {
      const fits = sliceToWidth(rest, room - used);
      // A character wider than what is left starts the next row (or fills an empty one).
      const piece = fits !== "" ? fits : used === 0 ? (chunkToWidth(rest, room)[0] ?? rest) : "";
      if (piece !== "") {
        rows[rows.length - 1]?.push({ ...span, text: piece });
        used += textWidth(piece);
        rest = rest.slice(piece.length);
      }
      if (rest !== "") {
        rows.push([]);
        used = 0;
      }
    }
  }
  return rows;
}

const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;
const RULE = /^\s{0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^\s*>\s?(.*)$/;
const LIST = /^(\s*)([-*+]|\d{1,9}[.)])\s+(?:\[([ xX])\]\s+)?(.*)$/;

/** One line outside code blocks and tables. */
function blockRows(line: string, options: RenderOptions): Row[] {
  const { width } = options;
  if (line.trim() === "") return [[]];
  const heading = HEADING.exec(line);
  if (heading) return wrapSpans(parseInline(heading[2] ?? "", options, { bold: true }), width);
  if (RULE.test(line)) return [[dim("─".repeat(Math.min(width, 40)))]];
  const quote = QUOTE.exec(line);
  if (quote) {
    const inner = parseInline(quote[1] ?? "", options, { italic: true });
    return wrapSpans(inner, width, [dim("│ ")]);
  }
  const item = LIST.exec(line);
  if (item) return listRows(item, options);
  const indent = " ".repeat(/^\s*/.exec(line)?.[0].length ?? 0);
  const prefix: Span[] = indent ? [{ text: indent }] : [];
  return wrapSpans(parseInline(line.trim(), options), width, prefix);
}

function listRows(item: RegExpExecArray, options: RenderOptions): Row[] {
  const [, indent = "", marker = "", task, body = ""] = item;
  const bullet = /^\d/.test(marker) ? marker : "•";
  const box = task === undefined ? "" : task === " " ? "☐ " : "☑ ";
  const first = `${indent}${bullet} ${box}`;
  return wrapSpans(
    parseInline(body, options),
    options.width,
    [{ text: first }],
    [{ text: " ".repeat(textWidth(first)) }],
  );
}
