/**
 * The hooks of an event raised inside a subagent: their activity
 * (`hook_start`, `hook_end`, `hook_warning`) carries the subagent's mark too,
 * so a consumer (stream-json) can tell whose hooks ran.
 */
import { type AgentEvent, fromSubagent } from "../../../agent/events.js";
import type { InterceptedEvent } from "../activity.js";

export async function* markedLike<R>(
  agentEvent: AgentEvent,
  activity: AsyncGenerator<InterceptedEvent, R, undefined>,
): AsyncGenerator<InterceptedEvent, R, undefined> {
  if (!fromSubagent(agentEvent)) return yield* activity;
  const mark = {
    agentId: agentEvent.agentId,
    ...(agentEvent.agentType === undefined ? {} : { agentType: agentEvent.agentType }),
  };
  try {
    for (;;) {
      const next = await activity.next();
      if (next.done) return next.value;
      yield fromSubagent(next.value) ? next.value : { ...next.value, ...mark };
    }
  } finally {
    // Closed early (the consumer's return()): the hooks' own cleanup runs.
    await activity.return(undefined as R);
  }
}
