/**
 * A gate the session raises beside the loop (before_message_send,
 * config_change): its gate hooks chain as any gate's, its async and
 * observe-only ones run beside the loop, their activity goes out with the
 * run's next events (after `wake`), and the session waits for the chain's end.
 * send-gate.ts and config-gate.ts read that end as their verdicts.
 */
import type { AgentEvent } from "../../agent/events.js";
import type { HookEventName } from "../contract/definition.js";
import { HOOK_EVENT_OF } from "../contract/events/names.js";
import type { ChainResult } from "./chain.js";
import { runChain } from "./chain.js";
import { backgroundEntry, runBeside, track } from "./intercept/background.js";
import { chainOptions } from "./intercept/handle-event.js";
import type { RunContext } from "./intercept/run-context.js";
import { compareHooks, plan } from "./plan.js";

/** How a gate raised beside the loop ended. */
export type BesideGateEnd =
  /** No gate hook is there to judge it (none configured, or none matched). */
  | { kind: "open" }
  /** The run is ending: nothing judges it any more. */
  | { kind: "ending" }
  /** Its hooks could not run. */
  | { kind: "failed"; error: string }
  /** `last`: the last hook of the chain that answered (the chain ends at one that blocks). */
  | { kind: "chain"; result: ChainResult; last?: string };

/** Runs `event`'s hooks beside the loop; resolves with how its chain ended. */
export async function runBesideGate(
  ctx: RunContext,
  event: AgentEvent,
  wake: () => void,
): Promise<BesideGateEnd> {
  const hookEvent = HOOK_EVENT_OF[event.type];
  if (hookEvent === undefined) return { kind: "open" };
  if (ctx.stopAll.signal.aborted) return { kind: "ending" };
  const planned = plan(ctx.index, hookEvent, event);
  if (planned === undefined) return { kind: "open" };
  const into = (activity: (typeof ctx.pendingActivity)[number]): void => {
    ctx.pendingActivity.push(activity);
    wake();
  };
  const beside = [...planned.observers, ...planned.async].sort(compareHooks);
  if (beside.length > 0)
    void runBeside(ctx, { event: hookEvent, agentEvent: event, hooks: beside, into });
  if (planned.chain.length === 0) return { kind: "open" };
  let last: string | undefined;
  const done = chainBeside(ctx, hookEvent, event, planned.chain, (activity) => {
    if (activity.type === "hook_end") last = activity.hook.name;
    into(activity);
  });
  try {
    const result = await done;
    return last === undefined ? { kind: "chain", result } : { kind: "chain", result, last };
  } catch (error) {
    return { kind: "failed", error: (error as Error).message };
  }
}

function chainBeside(
  ctx: RunContext,
  hookEvent: HookEventName,
  event: AgentEvent,
  hooks: Parameters<typeof runChain>[0]["hooks"],
  into: (activity: RunContext["pendingActivity"][number]) => void,
): Promise<ChainResult> {
  const { askUser, assumeYes } = ctx.options;
  const chain = runChain({
    ...chainOptions(ctx, hookEvent, event),
    hooks,
    ...(askUser === undefined ? {} : { askUser }),
    ...(assumeYes === undefined ? {} : { assumeYes }),
  });
  const done = (async (): Promise<ChainResult> => {
    for (;;) {
      const step = await chain.next();
      if (step.done) return step.value;
      into(step.value);
    }
  })();
  void track(
    ctx,
    backgroundEntry(ctx),
    done.then(
      () => undefined,
      () => undefined,
    ),
  );
  return done;
}
