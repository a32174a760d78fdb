import { anySignal } from "./abort.js";
import type { SessionEndReason } from "./event-data.js";
import type { AgentEvent } from "./events.js";
import { RAISES } from "./raises.js";
import type { SessionContext } from "./session-context.js";
import { runTurn } from "./turn.js";
import type { LastTurn, Verdict } from "./verdicts.js";

/** Where a started session ends: the turns it ran and its signal (a last turn needs both). */
export interface EndingSession {
  turns: number;
  signal: AbortSignal;
}

/**
 * `session_end` with the session's totals, after a warning if the transcript
 * could not be written. Its verdict may ask for one last turn (`LastTurn`:
 * agent-relay's `onSessionEnd` inject), run after it unless the session was
 * aborted or never started (`ending` left out); the end reason stays.
 */
export async function* endSession(
  session: SessionContext,
  reason: SessionEndReason,
  ending?: EndingSession,
): AsyncGenerator<AgentEvent, void, Verdict | undefined> {
  const { transcript } = session;
  const failure = transcript.error;
  if (failure) {
    yield* session.emit({
      type: "warning",
      message: `Could not write the transcript ${transcript.file}: ${failure.message}`,
      source: "transcript",
    });
  }
  const verdict = yield* session.emit({
    type: RAISES.session_end,
    reason,
    totals: session.counter.totals(session.now()),
  });
  const last = verdict?.action === "continue" ? verdict.lastTurn : undefined;
  if (last === undefined || ending === undefined || ending.signal.aborted) return;
  if (!(last.withinMs > 0) || last.prompt.trim() === "") return;
  yield* lastTurn(session, last, ending);
}

/** The last turn, cut after `withinMs` (a warning says so); a stop in it changes nothing more. */
async function* lastTurn(
  session: SessionContext,
  last: LastTurn,
  ending: EndingSession,
): AsyncGenerator<AgentEvent, void, Verdict | undefined> {
  const budget = new AbortController();
  const timer = setTimeout(() => budget.abort(), last.withinMs);
  try {
    yield* runTurn(session, {
      turn: ending.turns + 1,
      prompt: last.prompt,
      signal: anySignal([ending.signal, budget.signal]),
    });
  } finally {
    clearTimeout(timer);
  }
  if (budget.signal.aborted && !ending.signal.aborted) {
    yield* session.emit({
      type: "warning",
      message: `the last turn (what session_end hooks injected) was cut after ${last.withinMs} ms, the session-end budget (hookDefaults.sessionEndBudgetMs)`,
      source: "session_end",
    });
  }
}
