import { Box, Text } from "ink";
import { inertText } from "../../terminal/inert-text.js";
import type { Completion } from "../completion.js";
import { oneLine } from "../format.js";

const SHOWN = 6;

/** The candidates under the prompt, the chosen one inverted, a window of six around it. */
export function CompletionList({
  completion,
  index,
  width,
}: {
  completion: Completion;
  index: number;
  width: number;
}) {
  const first = Math.max(0, Math.min(index - SHOWN + 1, completion.items.length - SHOWN));
  const shown = completion.items.slice(first, first + SHOWN);
  const more = completion.items.length - first - shown.length;
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {shown.map((item, i) => (
        <Text key={item} inverse={first + i === index} wrap="truncate-end">
          {oneLine(inertText(item), width - 4)}
        </Text>
      ))}
      <Text dimColor>{more > 0 ? `… ${more} more · ` : ""}Tab completes · ↑↓ choose</Text>
    </Box>
  );
}
