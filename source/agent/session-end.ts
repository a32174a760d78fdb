import type { SessionEndReason } from "./event-data.js";
import type { AgentEvent } from "./events.js";
import { RAISES } from "./raises.js";
import type { SessionContext } from "./session-context.js";
import type { Verdict } from "./verdicts.js";

/** `session_end` with the session's totals, after a warning if the transcript could not be written. */
export async function* endSession(
  session: SessionContext,
  reason: SessionEndReason,
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
  yield* session.emit({
    type: RAISES.session_end,
    reason,
    totals: session.counter.totals(session.now()),
  });
}
