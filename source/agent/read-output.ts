import { scanPatterns } from "../patterns/scan.js";
import type { StepRef } from "./event-refs.js";
import type { AgentEvent } from "./events.js";
import { RAISES } from "./raises.js";
import type { SessionContext } from "./session-context.js";
import type { TurnState } from "./turn-state.js";
import type { Verdict } from "./verdicts.js";

/**
 * The step's complete message: `output`, then one `pattern` event per
 * `@namespace:target message` line (source/patterns/scan.ts). Returns
 * whether a pattern was answered (context queued for the next request).
 */
export async function* readOutput(
  session: SessionContext,
  state: TurnState,
  step: number,
  text: string,
): AsyncGenerator<AgentEvent, boolean, Verdict | undefined> {
  if (text.trim() === "") return false;
  const at: StepRef = { turn: state.turn, promptId: state.promptId, step };
  yield* session.emit({ type: RAISES.output, ...at, text });
  const { maxPatterns } = session.limits;
  const scanned = scanPatterns(text, maxPatterns === undefined ? {} : { maxPatterns });
  let answered = false;
  for (const found of scanned.patterns) {
    const verdict = yield* session.emit({ type: RAISES.pattern, ...at, ...found });
    if (verdict?.context?.some((c) => c.trim() !== "")) answered = true;
  }
  if (scanned.skipped > 0) {
    yield* session.emit({
      type: "warning",
      message: `${scanned.skipped} more @namespace: pattern line(s) in one message were not read (at most ${scanned.patterns.length} per message)`,
      source: "pattern",
    });
  }
  return answered;
}
