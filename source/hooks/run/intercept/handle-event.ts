/**
 * One agent event's hooks, from its plan: start the async ones, then run the
 * chain (gates) or the observers (observe-only events), and answer the agent.
 * `chainOptions` is what every gate's chain in a run shares (also the
 * permission_request gate's, permission.ts).
 */
import { type AgentEvent, fromSubagent } from "../../../agent/events.js";
import type { Verdict } from "../../../agent/verdicts.js";
import type { HookEventName } from "../../contract/definition.js";
import { eventRow } from "../../contract/events/table.js";
import type { InterceptedEvent } from "../activity.js";
import { type ChainOptions, runChain } from "../chain.js";
import { runObservers } from "../observe.js";
import { matchesNow, type Plan } from "../plan.js";
import type { StartAsyncHooks } from "./async-hooks.js";
import { backgroundEntry, track } from "./background.js";
import type { Notifications } from "./notifications.js";
import type { RunContext } from "./run-context.js";
import { carriedVerdict, type RetryCount, verdictOf } from "./verdict.js";

export interface EventParts {
  startAsync: StartAsyncHooks;
  notifications: Notifications;
  retries: RetryCount;
}

export async function* handleEvent(
  ctx: RunContext,
  parts: EventParts,
  agentEvent: AgentEvent,
  planned: Plan,
  carried: readonly string[],
): AsyncGenerator<InterceptedEvent, Verdict | undefined, undefined> {
  const { event } = planned;
  if (planned.async.length > 0) yield* parts.startAsync(planned.async, event, agentEvent);
  let verdict: Verdict | undefined;
  if (planned.chain.length > 0) verdict = yield* gate(ctx, parts, agentEvent, planned, carried);
  else if (planned.observers.length > 0) verdict = yield* observe(ctx, event, agentEvent, planned);
  else verdict = carriedVerdict(carried);
  if (ctx.pendingActivity.length > 0) yield* ctx.pendingActivity.splice(0);
  return verdict;
}

async function* gate(
  ctx: RunContext,
  parts: EventParts,
  agentEvent: AgentEvent,
  planned: Plan,
  carried: readonly string[],
): AsyncGenerator<InterceptedEvent, Verdict, undefined> {
  const { event } = planned;
  const { options } = ctx;
  const result = yield* runChain({
    ...chainOptions(ctx, event, agentEvent),
    hooks: planned.chain,
    ...(options.askUser === undefined ? {} : { askUser: options.askUser }),
    ...(options.assumeYes === undefined ? {} : { assumeYes: options.assumeYes }),
    onAsk: parts.notifications.onAsk,
  });
  const { verdict, warning } = verdictOf(
    event,
    agentEvent,
    result,
    carried,
    parts.retries,
    ctx.maxRetries,
  );
  if (warning) yield warning;
  return verdict;
}

/** Observe-only: context waits for the next before_model; only a honoured `stop` answers the agent. */
async function* observe(
  ctx: RunContext,
  event: HookEventName,
  agentEvent: AgentEvent,
  planned: Plan,
): AsyncGenerator<InterceptedEvent, Verdict | undefined, undefined> {
  const observed = yield* runObservers({
    event,
    agentEvent,
    hooks: planned.observers,
    matches: () => true,
    run: ctx.runnerFor(event, agentEvent),
    signal: ctx.hookSignal(event),
    contextCapChars: ctx.cap,
    now: ctx.now,
    onRun: (hook, rec, answered, effective) => ctx.audit.record(hook, rec, answered, effective),
    canStop: eventRow(event).honours.includes("stop"),
  });
  ctx.pendingContext.push(...observed.context);
  return observed.stop ? { action: "stop", reason: observed.stop.reason } : undefined;
}

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
    // A subagent's call cannot wait for --resume (its conversation is not resumed).
    ...(options.deferrable === true && !fromSubagent(agentEvent) ? { deferrable: true } : {}),
  };
}
