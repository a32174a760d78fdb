/**
 * A two-column table of keys and what they do (`/help`), as terminal lines:
 * the key column as wide as its widest key (text-width.ts), the descriptions
 * wrapped under their own column. A key too wide for a third of the pane
 * takes its own line and its description goes below it, indented, so no
 * text ever wraps into the other column.
 */
import { wrapWords } from "./format.js";
import { padToWidth, textWidth } from "./text-width.js";

const GAP = 2;
/** A narrower description column than this is unreadable: every description goes below its key. */
const MIN_TEXT = 20;
const HANGING = 4;

export function keyTableLines(
  table: ReadonlyArray<readonly [string, string]>,
  width: number,
): string[] {
  const limit = Math.floor(width / 3);
  const fitting = table.map(([key]) => textWidth(key)).filter((w) => w <= limit);
  const keyColumn = Math.max(0, ...fitting) + GAP;
  const textRoom = width - keyColumn;
  const lines: string[] = [];
  for (const [key, text] of table) {
    if (textWidth(key) + GAP > keyColumn || textRoom < MIN_TEXT) {
      lines.push(...wrapWords(key, width).split("\n"));
      const below = wrapWords(text, Math.max(1, width - HANGING)).split("\n");
      lines.push(...below.map((line) => `${" ".repeat(HANGING)}${line}`));
      continue;
    }
    const rows = wrapWords(text, textRoom).split("\n");
    rows.forEach((row, index) => {
      lines.push(`${padToWidth(index === 0 ? key : "", keyColumn)}${row}`);
    });
  }
  return lines;
}
