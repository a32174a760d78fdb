import { stripControls } from "../../terminal/inert-text.js";
import { type Fence, fenceCloses, fenceOpens } from "../format.js";
import { chunkToWidth, textWidth } from "../text-width.js";
import { type InlineOptions, parseInline } from "./inline.js";
import { dim, type Row, type Span } from "./spans.js";
import { renderTable, tableEnd } from "./table.js";
import { wrapSpans } from "./wrap.js";

export type { Row, Span } from "./spans.js";

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
      } else rows.push(...codeRows(line, options.width));
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

function codeRows(line: string, width: number): Row[] {
  const room = Math.max(1, width - textWidth(CODE_GUTTER));
  return chunkToWidth(line, room).map((part) => [dim(CODE_GUTTER), { text: part }]);
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
