import { type InlineOptions, parseInline } from "./inline.js";
import { dim, type Row, type Span, spansLength } from "./spans.js";
import { wrapSpans } from "./wrap.js";

type Align = "left" | "right" | "center";

const SEPARATOR_CELL = /^\s*:?-{1,}:?\s*$/;
const COLUMN_GAP = 3; // " │ "
const MIN_COLUMN = 3;

/** Cells of one table row: split at `|` (not `\|`), outer pipes dropped. */
function tableCells(line: string): string[] {
  const cells = line
    .trim()
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, "|"));
  if (cells[0] === "") cells.shift();
  if (cells.length > 0 && cells[cells.length - 1] === "" && line.trim().endsWith("|")) cells.pop();
  return cells;
}

function isSeparatorRow(line: string): boolean {
  if (!line.includes("-")) return false;
  const cells = tableCells(line);
  return cells.length > 0 && cells.every((cell) => SEPARATOR_CELL.test(cell));
}

/** Where a table starting at `i` ends (exclusive), or undefined when line `i` starts none. */
export function tableEnd(lines: readonly string[], i: number): number | undefined {
  const head = lines[i] ?? "";
  const sep = lines[i + 1];
  if (!head.includes("|") || sep === undefined || !isSeparatorRow(sep)) return undefined;
  let end = i + 2;
  while (end < lines.length && (lines[end] ?? "").includes("|") && (lines[end] ?? "").trim()) end++;
  return end;
}

function alignOf(cell: string): Align {
  const t = cell.trim();
  if (t.startsWith(":") && t.endsWith(":")) return "center";
  if (t.endsWith(":")) return "right";
  return "left";
}

/** Column widths that fit `room`: narrow columns keep their width, wide ones share the rest. */
function fitWidths(natural: number[], room: number): number[] {
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= room) return natural;
  const widths = [...natural];
  let open = natural.map((_, i) => i);
  let left = room;
  for (;;) {
    const share = Math.floor(left / Math.max(1, open.length));
    const fits = open.filter((i) => (natural[i] ?? 0) <= share);
    if (fits.length === 0) {
      for (const i of open) widths[i] = Math.max(MIN_COLUMN, share);
      return widths;
    }
    for (const i of fits) left -= natural[i] ?? 0;
    open = open.filter((i) => !fits.includes(i));
    if (open.length === 0) return widths;
  }
}

function pad(cell: Row, width: number, align: Align): Row {
  const gap = Math.max(0, width - spansLength(cell));
  const left = align === "right" ? gap : align === "center" ? Math.floor(gap / 2) : 0;
  const out: Row = [];
  if (left > 0) out.push({ text: " ".repeat(left) });
  out.push(...cell);
  if (gap - left > 0) out.push({ text: " ".repeat(gap - left) });
  return out;
}

/** A Markdown table with aligned columns, wrapped inside its cells when the pane is narrow. */
export function renderTable(
  lines: readonly string[],
  width: number,
  options: InlineOptions,
): Row[] {
  const [headLine = "", sepLine = "", ...bodyLines] = lines;
  const head = tableCells(headLine);
  const columns = head.length;
  const aligns = tableCells(sepLine).map(alignOf);
  const parse = (cells: string[], bold: boolean): Span[][] =>
    Array.from({ length: columns }, (_, c) =>
      parseInline(cells[c] ?? "", options, bold ? { bold: true } : {}),
    );
  const rows = [parse(head, true), ...bodyLines.map((line) => parse(tableCells(line), false))];
  const natural = Array.from({ length: columns }, (_, c) =>
    Math.max(1, ...rows.map((row) => spansLength(row[c] ?? []))),
  );
  const room = width - COLUMN_GAP * (columns - 1);
  if (room < columns * MIN_COLUMN) return lines.map((line) => [{ text: line }]);
  const widths = fitWidths(natural, room);
  const out: Row[] = [];
  rows.forEach((row, r) => {
    out.push(...tableRow(row, widths, aligns));
    if (r === 0) out.push([dim(widths.map((w) => "─".repeat(w)).join("─┼─"))]);
  });
  return out;
}

function tableRow(cells: Span[][], widths: number[], aligns: Align[]): Row[] {
  const wrapped = cells.map((cell, c) => wrapSpans(cell, widths[c] ?? MIN_COLUMN));
  const height = Math.max(...wrapped.map((w) => w.length));
  const out: Row[] = [];
  for (let line = 0; line < height; line++) {
    const row: Row = [];
    wrapped.forEach((cellRows, c) => {
      if (c > 0) row.push(dim(" │ "));
      const last = c === wrapped.length - 1;
      const cell = cellRows[line] ?? [];
      row.push(
        ...(last && (aligns[c] ?? "left") === "left"
          ? cell
          : pad(cell, widths[c] ?? 0, aligns[c] ?? "left")),
      );
    });
    out.push(row);
  }
  return out;
}
