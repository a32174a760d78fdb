import { Box, Text } from "ink";
import { firstLines, formatDuration, summarizeToolInput } from "../format.js";
import type { ToolStatus, ToolView } from "../state.js";
import { textWidth } from "../text-width.js";
import { type ColorName, useTheme } from "../theme.js";
import { Elapsed } from "./Elapsed.js";
import { Spinner } from "./Spinner.js";

const STATUS: Record<ToolStatus, { mark: string; label: string; color: ColorName }> = {
  running: { mark: "…", label: "running", color: "cyan" },
  ok: { mark: "✓", label: "done", color: "green" },
  error: { mark: "✗", label: "failed", color: "red" },
  blocked: { mark: "⊘", label: "blocked", color: "yellow" },
  interrupted: { mark: "■", label: "interrupted", color: "yellow" },
};

const OUTPUT_LINES = 4;

/**
 * One tool call: name, short input, status, duration, the first lines of its
 * output. `waitingFor` replaces "running" while the call is not started yet
 * (a before_tool hook runs, or a hook's question waits for the user).
 */
export function ToolBlock({
  tool,
  width,
  waitingFor,
}: {
  tool: ToolView;
  width: number;
  waitingFor?: string;
}) {
  const { c } = useTheme();
  const status = STATUS[tool.status];
  const running = tool.durationMs === undefined;
  const meta = running
    ? `${tool.status === "running" && waitingFor ? waitingFor : status.label} [${tool.seq}]`
    : `${status.label} ${formatDuration(tool.durationMs ?? 0)} [${tool.seq}]`;
  const summary = summarizeToolInput(
    tool.toolName,
    tool.input,
    Math.max(10, width - textWidth(tool.toolName) - textWidth(meta) - 6),
  );
  const excerpt =
    tool.status === "running"
      ? { lines: [], hidden: 0 }
      : firstLines(tool.output ?? "", OUTPUT_LINES, width - 4);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        {tool.status === "running" ? (
          <Spinner />
        ) : (
          <Text color={c(status.color)}>{status.mark}</Text>
        )}{" "}
        <Text bold>{tool.toolName}</Text> {summary}{" "}
        <Text color={c(status.color)} dimColor={tool.status === "ok"}>
          {meta}
        </Text>
        {running ? (
          <>
            {" "}
            <Elapsed since={tool.startedAt} />
          </>
        ) : null}
      </Text>
      {excerpt.lines.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static lines of a finished block
        <Text key={index} dimColor={tool.status === "ok"} wrap="truncate-end">
          {index === 0 ? "  ⎿ " : "    "}
          {line}
        </Text>
      ))}
      {excerpt.hidden > 0 ? (
        <Text dimColor>
          {"    "}… +{excerpt.hidden} lines (/expand {tool.seq})
        </Text>
      ) : null}
    </Box>
  );
}
