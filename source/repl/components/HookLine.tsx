import { Text } from "ink";
import type { HookOutcome } from "../../hooks/activity.js";
import { formatDuration } from "../format.js";
import type { Item } from "../state.js";
import { type ColorName, useTheme } from "../theme.js";

const OUTCOME: Record<HookOutcome, { verb: string; color: ColorName }> = {
  continue: { verb: "said", color: "gray" },
  skip: { verb: "skipped the rest", color: "gray" },
  block: { verb: "blocked", color: "red" },
  modify: { verb: "modified", color: "magenta" },
  ask: { verb: "asked", color: "yellow" },
  retry: { verb: "asked to retry", color: "yellow" },
  stop: { verb: "stopped the session", color: "red" },
  failed: { verb: "failed", color: "red" },
  timeout: { verb: "timed out", color: "red" },
  aborted: { verb: "was aborted", color: "yellow" },
};

/** One line per notable hook decision: who, what, on which event, why. */
export function HookLine({ item }: { item: Extract<Item, { kind: "hook" }> }) {
  const { c } = useTheme();
  const o = OUTCOME[item.outcome];
  return (
    <Text wrap="wrap">
      <Text color={c(o.color)}>⚑ hook </Text>
      <Text bold>{item.name}</Text> <Text color={c(o.color)}>{o.verb}</Text>{" "}
      <Text dimColor>{item.event}</Text>
      {item.detail ? `: ${item.detail}` : ""}
      <Text dimColor> ({formatDuration(item.durationMs)})</Text>
      {item.message ? `\n  ${item.message}` : ""}
    </Text>
  );
}
