import { Box, Text } from "ink";
import { inertText } from "../../terminal/inert-text.js";
import { formatDuration } from "../format.js";
import type { SubagentView } from "../subagents.js";
import { useTheme } from "../theme.js";
import { Elapsed } from "./Elapsed.js";
import { Spinner } from "./Spinner.js";

/** Lines of a running subagent shown live (its latest; the rest are behind `/expand N` once it ends). */
const LIVE_LINES = 3;

/**
 * A subagent nested under its Task call, collapsed: while it runs, its header,
 * its latest lines and running tools; once done, one summary line.
 */
export function SubagentBlock({ view, width }: { view: SubagentView; width: number }) {
  const { c } = useTheme();
  const indent = "  ".repeat(Math.max(1, view.depth));
  const done = view.stopReason !== undefined;
  const header = `${inertText(view.agentType)} · ${inertText(view.description)}`;
  if (done) {
    const ok = view.stopReason === "end_turn";
    return (
      <Text wrap="truncate-end">
        {indent}
        <Text color={c(ok ? "green" : "yellow")}>↳</Text> <Text bold>subagent</Text> {header}{" "}
        <Text dimColor>
          {ok ? "done" : view.stopReason} {formatDuration(view.durationMs ?? 0)}, {view.toolCalls}{" "}
          tool call{view.toolCalls === 1 ? "" : "s"}
          {view.seq !== undefined ? ` (/expand ${view.seq})` : ""}
        </Text>
      </Text>
    );
  }
  const recent = view.lines.slice(-LIVE_LINES);
  const hidden = view.lines.length - recent.length + view.dropped;
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end">
        {indent}
        <Text color={c("cyan")}>↳</Text> <Text bold>subagent</Text> {header}{" "}
        <Elapsed since={view.startedAt} />
      </Text>
      {hidden > 0 ? (
        <Text dimColor wrap="truncate-end">
          {indent}
          {"  "}… {hidden} earlier
        </Text>
      ) : null}
      {recent.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the latest lines, replaced as a whole
        <Text key={index} dimColor wrap="truncate-end">
          {indent}
          {"  "}
          {line.kind === "tool" ? "✓ " : line.kind === "failed" ? "✗ " : ""}
          {inertText(line.text)}
        </Text>
      ))}
      {view.running.map((tool) => (
        <Text key={tool.toolCallId} wrap="truncate-end">
          {indent}
          {"  "}
          <Spinner /> {inertText(tool.label)}
        </Text>
      ))}
    </Box>
  );
}
