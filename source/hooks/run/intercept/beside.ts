/**
 * Observe-only events raised beside the loop by the session rather than
 * emitted by the agent (`message_sent`: the relay sent a message). Like the
 * notification side channel: the event is yielded to the consumer with the
 * next activity, its hooks (observers and async ones alike) run beside the
 * loop, session end waits for them within its budget, and their context
 * reaches the model with the next request.
 */
import type { AgentEvent } from "../../../agent/events.js";
import { HOOK_EVENT_OF } from "../../contract/events/names.js";
import { compareHooks, plan } from "../plan.js";
import { runBeside } from "./background.js";
import type { RunContext } from "./run-context.js";

/** The agent events a session may raise beside the loop. */
export type BesideEvent = Extract<AgentEvent, { type: "message_sent" }>;

/** Raises `event` (yielded to the consumer after `wake`) and starts its hooks; resolves when they are done. */
export function raiseBeside(ctx: RunContext, event: BesideEvent, wake: () => void): Promise<void> {
  if (ctx.stopAll.signal.aborted) return Promise.resolve();
  ctx.pendingActivity.push(event);
  wake();
  const hookEvent = HOOK_EVENT_OF[event.type];
  const planned = hookEvent === undefined ? undefined : plan(ctx.index, hookEvent, event);
  if (hookEvent === undefined || planned === undefined) return Promise.resolve();
  const hooks = [...planned.observers, ...planned.async].sort(compareHooks);
  return runBeside(ctx, {
    event: hookEvent,
    agentEvent: event,
    hooks,
    into: (activity) => {
      ctx.pendingActivity.push(activity);
      wake();
    },
  });
}
