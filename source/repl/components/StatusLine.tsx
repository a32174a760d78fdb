import { Text } from "ink";
import { costUsd, formatUsd } from "../../models/pricing.js";
import type { PermissionMode } from "../../permissions/rules.js";
import { formatDuration, formatTokens, modelLabel } from "../format.js";
import type { ViewState } from "../state.js";
import { Elapsed } from "./Elapsed.js";

/** Below this many columns the labels go and the model moves to the end. */
const NARROW = 60;

/**
 * permission mode · model · turn elapsed, tokens and cost (running, else the last turn) ·
 * session tokens and cost. Cost only where the model's price is known.
 * One line, cut at the end; in a narrow pane the numbers come first. The
 * mode is what Shift-Tab cycles.
 */
export function StatusLine({
  view,
  busy,
  queued,
  width = 80,
  mode,
}: {
  view: ViewState;
  busy: boolean;
  queued: number;
  width?: number;
  mode?: PermissionMode;
}) {
  const narrow = width < NARROW;
  const model = modelLabel(view.model) || "…";
  const turn = view.turn;
  const parts: string[] = [];
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
      `${narrow ? "" : "last turn "}${formatDuration(last.elapsedMs)} ↑${formatTokens(last.usage.inputTokens)} ↓${formatTokens(last.usage.outputTokens)}${cost}`,
    );
  }
  const sessionCost =
    view.sessionCostUsd !== null && (view.price || view.sessionCostUsd > 0)
      ? ` ${formatUsd(view.sessionCostUsd)}`
      : "";
  parts.push(
    `${narrow ? "Σ " : "session "}${formatTokens(view.totals.totalTokens)} tok${sessionCost}`,
  );
  if (queued > 0) parts.push(`${queued} queued`);
  if (narrow) parts.push(model);
  if (busy && !narrow) parts.push("Esc aborts");
  const elapsed = turn ? <Elapsed since={turn.startedAt} /> : null;
  if (narrow) {
    return (
      <Text dimColor wrap="truncate-end">
        {mode ? `${mode} · ` : ""}
        {elapsed}
        {elapsed ? " · " : ""}
        {parts.join(" · ")}
      </Text>
    );
  }
  return (
    <Text dimColor wrap="truncate-end">
      {mode ? `${mode} mode (Shift-Tab) · ` : ""}
      {model}
      {elapsed ? " · turn " : ""}
      {elapsed}
      {` · ${parts.join(" · ")}`}
    </Text>
  );
}
