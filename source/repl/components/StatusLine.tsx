import { Text } from "ink";
import { formatDuration, formatTokens } from "../format.js";
import type { ViewState } from "../state.js";
import { Elapsed } from "./Elapsed.js";

/** model · tokens (turn / session) · elapsed. */
export function StatusLine({
  view,
  busy,
  queued,
}: {
  view: ViewState;
  busy: boolean;
  queued: number;
}) {
  const parts: string[] = [view.model || "…"];
  const turn = view.turn;
  if (turn) {
    parts.push(
      `↑${formatTokens(turn.usage.inputTokens)} ↓${formatTokens(turn.usage.outputTokens)}`,
    );
    if (turn.aborting) parts.push("aborting…");
  } else if (view.lastTurn) {
    parts.push(
      `last turn ${formatDuration(view.lastTurn.elapsedMs)} ↑${formatTokens(view.lastTurn.usage.inputTokens)} ↓${formatTokens(view.lastTurn.usage.outputTokens)}`,
    );
  }
  parts.push(`session ${formatTokens(view.totals.totalTokens)} tok`);
  if (queued > 0) parts.push(`${queued} queued`);
  if (busy) parts.push("Esc aborts");
  return (
    <Text dimColor wrap="truncate-end">
      {parts[0]}
      {turn ? (
        <>
          {" · turn "}
          <Elapsed since={turn.startedAt} />
        </>
      ) : null}
      {parts.length > 1 ? ` · ${parts.slice(1).join(" · ")}` : ""}
    </Text>
  );
}
