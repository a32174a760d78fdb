import { Text, useAnimation } from "ink";
import { formatDuration } from "../format.js";
import { useTheme } from "../theme.js";

/** Time since `since`, refreshed while shown. */
export function Elapsed({ since, interval = 200 }: { since: number; interval?: number }) {
  useAnimation({ interval });
  const { now } = useTheme();
  return <Text dimColor>{formatDuration(Math.max(0, now() - since))}</Text>;
}
