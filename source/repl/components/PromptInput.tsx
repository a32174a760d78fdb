import { Box, Text } from "ink";
import type { EditorState } from "../editor.js";
import { useTheme } from "../theme.js";

const MAX_VISIBLE_LINES = 8;

/** The prompt being typed, with its cursor. Long input shows only the lines around the cursor. */
export function PromptInput({
  editor,
  active,
  placeholder,
}: {
  editor: EditorState;
  active: boolean;
  placeholder?: string;
}) {
  const { c } = useTheme();
  const lines = editor.value.split("\n");
  let cursorLine = 0;
  let cursorColumn = editor.cursor;
  for (const line of lines) {
    if (cursorColumn <= line.length) break;
    cursorColumn -= line.length + 1;
    cursorLine++;
  }
  const first = Math.max(
    0,
    Math.min(cursorLine - MAX_VISIBLE_LINES + 1, lines.length - MAX_VISIBLE_LINES),
  );
  const shown = lines.slice(first, first + MAX_VISIBLE_LINES);
  const below = lines.length - first - shown.length;
  const marker = (
    <Text color={c(active ? "blue" : "gray")} bold={active}>
      {"› "}
    </Text>
  );
  if (editor.value === "" && placeholder) {
    return (
      <Box>
        {marker}
        {active ? <Text inverse> </Text> : null}
        <Text dimColor>{placeholder}</Text>
      </Box>
    );
  }
  return (
    <Box flexDirection="column">
      {first > 0 ? <Text dimColor> … {first} more lines above</Text> : null}
      {shown.map((line, i) => {
        const index = first + i;
        const prefix = index === 0 ? marker : <Text>{"  "}</Text>;
        if (!active || index !== cursorLine) {
          return (
            <Box key={index}>
              {prefix}
              <Text wrap="wrap">{line || " "}</Text>
            </Box>
          );
        }
        const at = line[cursorColumn] ?? " ";
        return (
          <Box key={index}>
            {prefix}
            <Text wrap="wrap">
              {line.slice(0, cursorColumn)}
              <Text inverse>{at}</Text>
              {line.slice(cursorColumn + 1)}
            </Text>
          </Box>
        );
      })}
      {below > 0 ? <Text dimColor> … {below} more lines below</Text> : null}
    </Box>
  );
}
