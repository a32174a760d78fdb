/**
 * The gate before this agent sends a message to another (`before_message_send`,
 * OpenClaw's `message-sending`): raised by the session beside the loop, where
 * the relay message is sent. Its gate hooks chain as any gate's (a rewrite is
 * seen by the next hook and by message_sent), its async and observe-only ones
 * run beside the loop; the session waits for the verdict before sending. Fails
 * closed: a block, a stop (a block here: the run goes on), an ask nobody
 * allowed, a hook that fails closed, or a run that is ending keeps the
 * message unsent.
 */
import type { AgentEvent } from "../../agent/events.js";
import { HOOK_EVENT_OF } from "../contract/events/names.js";
import type { ChainResult } from "./chain.js";
import { runChain } from "./chain.js";
import { backgroundEntry, runBeside, track } from "./intercept/background.js";
import { chainOptions } from "./intercept/handle-event.js";
import type { RunContext } from "./intercept/run-context.js";
import { compareHooks, plan } from "./plan.js";

export type SendGateEvent = Extract<AgentEvent, { type: "before_message_send" }>;

/** Send (this content), or not (why; `hook`: the one whose answer ended the chain, when one did). */
export type SendVerdict =
  | { send: true; content: string }
  | { send: false; reason: string; hook?: string };

/** Runs `event`'s hooks beside the loop (their activity goes out after `wake`); resolves with the verdict. */
export async function gateSend(
  ctx: RunContext,
  event: SendGateEvent,
  wake: () => void,
): Promise<SendVerdict> {
  const open: SendVerdict = { send: true, content: event.message.content };
  const hookEvent = HOOK_EVENT_OF[event.type];
  if (hookEvent === undefined) return open;
  if (ctx.stopAll.signal.aborted) return { send: false, reason: "the session is ending" };
  const planned = plan(ctx.index, hookEvent, event);
  if (planned === undefined) return open;
  const into = (activity: (typeof ctx.pendingActivity)[number]): void => {
    ctx.pendingActivity.push(activity);
    wake();
  };
  const beside = [...planned.observers, ...planned.async].sort(compareHooks);
  if (beside.length > 0)
    void runBeside(ctx, { event: hookEvent, agentEvent: event, hooks: beside, into });
  if (planned.chain.length === 0) return open;
  const { askUser, assumeYes } = ctx.options;
  const chain = runChain({
    ...chainOptions(ctx, hookEvent, event),
    hooks: planned.chain,
    ...(askUser === undefined ? {} : { askUser }),
    ...(assumeYes === undefined ? {} : { assumeYes }),
  });
  /** The last hook of the chain that answered: the chain ends at the one that cancels. */
  let last: string | undefined;
  const done = (async (): Promise<ChainResult> => {
    for (;;) {
      const step = await chain.next();
      if (step.done) return step.value;
      if (step.value.type === "hook_end") last = step.value.hook.name;
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
  try {
    return verdictOf(await done, event.message.content, last);
  } catch (error) {
    return { send: false, reason: `its hooks could not run (${(error as Error).message})` };
  }
}

function verdictOf(result: ChainResult, content: string, last: string | undefined): SendVerdict {
  const end = result.end;
  switch (end.kind) {
    case "block":
    case "stop":
    case "defer":
      // "aborted": the run ended under the chain, no hook decided.
      return last === undefined || end.reason === "aborted"
        ? { send: false, reason: end.reason }
        : { send: false, reason: end.reason, hook: last };
    case "continue":
    case "allow":
    case "retry":
      return { send: true, content: result.state.prompt ?? content };
    default:
      return end satisfies never;
  }
}
