import { Text } from "ink";
import { costUsd, formatUsd } from "../../models/pricing.js";
import { formatDuration, formatTokens } from "../format.js";
import type { ViewState } from "../state.js";
import { Elapsed } from "./Elapsed.js";

/**
 * model · turn elapsed, tokens and cost (running, else the last turn) ·
 * session tokens and cost. Cost only where the model's price is known.
 */
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
    const cost = view.price ? ` ${formatUsd(costUsd(turn.usage, view.price))}` : "";
    parts.push(
      `↑${formatTokens(turn.usage.inputTokens)} ↓${formatTokens(turn.usage.outputTokens)}${cost}`,
    );
    if (turn.aborting) parts.push("aborting…");
  } else if (view.lastTurn) {
    const last = view.lastTurn;
    const cost = last.costUsd !== undefined ? ` ${formatUsd(last.costUsd)}` : "";
    parts.push(
      `last turn ${formatDuration(last.elapsedMs)} ↑${formatTokens(last.usage.inputTokens)} ↓${formatTokens(last.usage.outputTokens)}${cost}`,
    );
  }
  const sessionCost =
    view.sessionCostUsd !== null && (view.price || view.sessionCostUsd > 0)
      ? ` ${formatUsd(view.sessionCostUsd)}`
      : "";
  parts.push(`session ${formatTokens(view.totals.totalTokens)} tok${sessionCost}`);
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
