import { Box, Text } from "ink";
import type { EditorState } from "../editor.js";
import { textWidth } from "../text-width.js";
import { useTheme } from "../theme.js";

const MAX_VISIBLE_ROWS = 8;
const MARKER_WIDTH = 2;

/** One screen row of the input: part of a logical line, maybe holding the cursor. */
export interface InputRow {
  text: string;
  /** Column of the cursor in this row, if it is here. */
  cursor?: number;
  /** The first row of the input (gets the `›` marker). */
  first: boolean;
}

/**
 * Cuts the input into rows of at most `width` columns (text-width.ts: a wide
 * character takes two), like a terminal line editor: hard breaks at the width
 * (no word wrap, so the cursor maps one to one), never inside a character, a
 * row of its own for the cursor when it sits just past a full row.
 */
export function inputRows(editor: EditorState, width: number): InputRow[] {
  const w = Math.max(1, width);
  const rows: InputRow[] = [];
  let offset = 0;
  for (const line of editor.value.split("\n")) {
    const len = line.length;
    const p =
      editor.cursor >= offset && editor.cursor <= offset + len ? editor.cursor - offset : -1;
    const pieces = rowSpans(line, w);
    for (const { start, end, full } of pieces) {
      const row: InputRow = { text: line.slice(start, end), first: rows.length === 0 };
      if (p >= start && (p < end || (p === len && !full))) row.cursor = p - start;
      rows.push(row);
    }
    if (p === len && len > 0 && pieces[pieces.length - 1]?.full) {
      rows.push({ text: "", cursor: 0, first: false });
    }
    offset += len + 1;
  }
  return rows;
}

/** Where one line's rows start and end (UTF-16 offsets), and whether a row is filled to the width. */
function rowSpans(line: string, w: number): { start: number; end: number; full: boolean }[] {
  const spans: { start: number; end: number; full: boolean }[] = [];
  let start = 0;
  let used = 0;
  for (const { segment, index } of graphemes.segment(line)) {
    const size = textWidth(segment);
    if (used + size > w && index > start) {
      spans.push({ start, end: index, full: true });
      start = index;
      used = 0;
    }
    used += size;
  }
  spans.push({ start, end: line.length, full: used >= w });
  return spans;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** The character (grapheme) at `index`, for the cursor block. */
function charAt(text: string, index: number): string | undefined {
  const [first] = graphemes.segment(text.slice(index));
  return first?.segment;
}

/** The prompt being typed, with its cursor. Long input shows only the rows around the cursor. */
export function PromptInput({
  editor,
  active,
  placeholder,
  width,
}: {
  editor: EditorState;
  active: boolean;
  placeholder?: string;
  width: number;
}) {
  const { c } = useTheme();
  const marker = (
    <Box flexShrink={0}>
      <Text color={c(active ? "blue" : "gray")} bold={active}>
        {"› "}
      </Text>
    </Box>
  );
  if (editor.value === "" && placeholder) {
    return (
      <Box>
        {marker}
        {active ? <Text inverse> </Text> : null}
        <Text dimColor wrap="truncate-end">
          {placeholder}
        </Text>
      </Box>
    );
  }
  const rows = inputRows(editor, width - MARKER_WIDTH);
  const cursorRow = Math.max(
    0,
    rows.findIndex((row) => row.cursor !== undefined),
  );
  const first = Math.max(
    0,
    Math.min(cursorRow - MAX_VISIBLE_ROWS + 1, rows.length - MAX_VISIBLE_ROWS),
  );
  const shown = rows.slice(first, first + MAX_VISIBLE_ROWS);
  const below = rows.length - first - shown.length;
  return (
    <Box flexDirection="column">
      {first > 0 ? <Text dimColor> … {first} more lines above</Text> : null}
      {shown.map((row, i) => {
        const prefix = row.first ? marker : <Text>{"  "}</Text>;
        const cursor = active ? row.cursor : undefined;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions
          <Box key={first + i}>
            {prefix}
            {cursor === undefined ? (
              <Text wrap="truncate-end">{row.text || " "}</Text>
            ) : (
              <Text wrap="truncate-end">
                {row.text.slice(0, cursor)}
                <Text inverse>{charAt(row.text, cursor) ?? " "}</Text>
                {row.text.slice(cursor + (charAt(row.text, cursor)?.length ?? 1))}
              </Text>
            )}
          </Box>
        );
      })}
      {below > 0 ? <Text dimColor> … {below} more lines below</Text> : null}
    </Box>
  );
}
