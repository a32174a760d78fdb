import { Box, Text } from "ink";
import type { HookOutcome } from "../../hooks/run/activity.js";
import { inertLines, inertText } from "../../terminal/inert-text.js";
import { formatDuration, wrapWords } from "../format.js";
import type { Item } from "../state.js";
import { textWidth } from "../text-width.js";
import { type ColorName, useTheme } from "../theme.js";

const OUTCOME: Record<HookOutcome, { verb: string; color: ColorName }> = {
  continue: { verb: "said", color: "gray" },
  skip: { verb: "skipped the rest", color: "gray" },
  block: { verb: "blocked", color: "red" },
  modify: { verb: "modified", color: "magenta" },
  ask: { verb: "asked", color: "yellow" },
  allow: { verb: "allowed", color: "green" },
  retry: { verb: "asked to retry", color: "yellow" },
  defer: { verb: "deferred", color: "yellow" },
  stop: { verb: "stopped the session", color: "red" },
  failed: { verb: "failed", color: "red" },
  timeout: { verb: "timed out", color: "red" },
  aborted: { verb: "was aborted", color: "yellow" },
};

/**
 * One line per notable hook decision: who, what, on which event, why. When the
 * reason does not fit after the header it goes below it, indented and wrapped.
 */
export function HookLine({
  item,
  width = 80,
}: {
  item: Extract<Item, { kind: "hook" }>;
  width?: number;
}) {
  const { c } = useTheme();
  const o = OUTCOME[item.outcome];
  const duration = ` (${formatDuration(item.durationMs)})`;
  // Hook names, reasons and messages come from hooks (project code): shown inert.
  const name = inertText(item.name);
  const detail = item.detail === undefined ? undefined : inertLines(item.detail);
  const message = item.message === undefined ? undefined : inertLines(item.message);
  const header = `⚑ hook ${name} ${o.verb} ${item.event}`;
  const inline =
    detail !== undefined &&
    !detail.includes("\n") &&
    textWidth(header) + 2 + textWidth(detail) + textWidth(duration) <= width;
  const below = [detail && !inline ? detail : undefined, message]
    .filter((text): text is string => Boolean(text))
    .map((text) => indent(wrapWords(text, width - 2)));
  return (
    <Box flexDirection="column">
      <Text wrap="wrap">
        <Text color={c(o.color)}>⚑ hook </Text>
        <Text bold>{name}</Text> <Text color={c(o.color)}>{o.verb}</Text>{" "}
        <Text dimColor>{item.event}</Text>
        {inline ? `: ${detail}` : ""}
        <Text dimColor>{duration}</Text>
      </Text>
      {below.map((text, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: detail, then message
        <Text key={index} wrap="wrap">
          {text}
        </Text>
      ))}
    </Box>
  );
}

function indent(text: string): string {
  return text.replace(/^/gm, "  ");
}
