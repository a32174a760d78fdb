import { Box, Text } from "ink";
import { inertText } from "../../terminal/inert-text.js";
import type { EditPreview } from "../edit-preview.js";
import { oneLine } from "../format.js";
import { type ColorName, useTheme } from "../theme.js";

const MARK = { add: "+ ", del: "- ", same: "  ", gap: "  " } as const;

/** The diff of a Write or Edit in its permission prompt: removed lines red, added green, each cut to the width. */
export function DiffView({ preview, width }: { preview: EditPreview; width: number }) {
  const { c } = useTheme();
  const room = Math.max(10, width - 2);
  return (
    <Box flexDirection="column">
      <Text dimColor wrap="truncate-end">
        {inertText(preview.file)}
        {preview.note ? ` · ${preview.note}` : ""}
      </Text>
      {preview.lines.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a diff's lines never move
        <Text key={index} wrap="truncate-end" {...colorOf(line.kind, c)}>
          {MARK[line.kind]}
          {oneLine(line.text, room) || " "}
        </Text>
      ))}
      {preview.hidden > 0 ? <Text dimColor>… {preview.hidden} more diff lines</Text> : null}
    </Box>
  );
}

function colorOf(
  kind: EditPreview["lines"][number]["kind"],
  c: (name: ColorName) => ColorName | undefined,
): { color?: ColorName; dimColor?: boolean } {
  const color = kind === "add" ? c("green") : kind === "del" ? c("red") : undefined;
  if (kind === "same" || kind === "gap") return { dimColor: true };
  return color === undefined ? {} : { color };
}
