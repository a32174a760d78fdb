/** What every gate's chain in an intercepted run shares (handle-event.ts, permission.ts). */
import type { AgentEvent } from "../../../agent/events.js";
import type { HookEventName } from "../../contract/definition.js";
import type { ChainOptions } from "../chain.js";
import { matchesNow } from "../plan.js";
import { backgroundEntry, track } from "./background.js";
import type { RunContext } from "./run-context.js";

export function chainOptions(
  ctx: RunContext,
  event: HookEventName,
  agentEvent: AgentEvent,
): Omit<ChainOptions, "hooks"> {
  const { options } = ctx;
  return {
    event,
    agentEvent,
    matches: (hook, state) => matchesNow(ctx.index, event, agentEvent, hook, state),
    run: ctx.runnerFor(event, agentEvent),
    signal: ctx.hookSignal(event),
    contextCapChars: ctx.cap,
    now: ctx.now,
    onRun: (hook, rec, answered, effective) => ctx.audit.record(hook, rec, answered, effective),
    // Tracked beside the loop: the interceptor's close waits for it (the run's abort
    // ends it at once), so its audit line is written before the log closes.
    onUnused: (hook, pending) => {
      void track(
        ctx,
        backgroundEntry(ctx),
        pending.then((rec) => ctx.audit.recordUnused(hook, rec)),
      );
    },
    ...(options.validateToolInput === undefined
      ? {}
      : { validateToolInput: options.validateToolInput }),
  };
}
