import { Box, Text } from "ink";
import { inertText } from "../../terminal/inert-text.js";
import { formatClock } from "../format.js";
import type { HooksSnapshot } from "../hooks-snapshot.js";
import { useTheme } from "../theme.js";

/** `/hooks`: every loaded hook with source, events, matcher, trust and last decision; broken ones with why. */
export function HooksPanel({ snapshot }: { snapshot: HooksSnapshot }) {
  const { c } = useTheme();
  return (
    <Box flexDirection="column">
      <Text bold>
        Hooks ({snapshot.rows.length} loaded
        {snapshot.broken.length ? `, ${snapshot.broken.length} broken` : ""}
        {snapshot.projectHooksEnabled
          ? ""
          : snapshot.projectHooksExist
            ? ", project hooks off"
            : ", none in this project"}
        )
      </Text>
      {snapshot.rows.length === 0 ? <Text dimColor> no hooks loaded</Text> : null}
      {snapshot.rows.map((row) => (
        <Box key={row.id} flexDirection="column" marginLeft={1}>
          <Text wrap="wrap">
            <Text bold>{inertText(row.name)}</Text>{" "}
            <Text dimColor>
              {row.scope}/{row.sourceKind}
            </Text>{" "}
            <Text color={c(row.trust === "trusted" ? "green" : "yellow")}>{row.trust}</Text>
          </Text>
          <Text wrap="wrap" dimColor>
            {"  "}events {row.events.join(",")} · matcher {inertText(row.matcher)}
          </Text>
          <Text wrap="truncate-start" dimColor>
            {"  "}
            {inertText(row.file)}
          </Text>
          <Text wrap="wrap">
            {"  "}last:{" "}
            {row.last
              ? `${row.last.outcome} on ${row.last.event} at ${formatClock(row.last.at)}${row.last.detail ? ` (${inertText(row.last.detail)})` : ""}`
              : "not run yet"}
          </Text>
        </Box>
      ))}
      {snapshot.broken.map((b) => (
        <Box key={`${b.file}:${b.name ?? ""}`} flexDirection="column" marginLeft={1}>
          <Text wrap="wrap">
            <Text color={c("red")}>✗ broken</Text>{" "}
            <Text bold>{inertText(b.name ?? "(unnamed)")}</Text> <Text dimColor>{b.scope}</Text>
          </Text>
          <Text wrap="wrap">
            {"  "}
            {inertText(b.file)}: {inertText(b.reason)}
          </Text>
        </Box>
      ))}
    </Box>
  );
}
