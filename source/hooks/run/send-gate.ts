/**
 * The gate before this agent sends a message to another (`before_message_send`,
 * OpenClaw's `message-sending`): raised by the session beside the loop, where
 * the relay message is sent (beside-gate.ts). Its gate hooks chain as any
 * gate's (a rewrite is seen by the next hook and by message_sent), its async
 * and observe-only ones run beside the loop; the session waits for the verdict
 * before sending. Fails closed: a block, a stop (a block here: the run goes
 * on), an ask nobody allowed, a hook that fails closed, or a run that is
 * ending keeps the message unsent.
 */
import type { AgentEvent } from "../../agent/events.js";
import { type BesideGateEnd, runBesideGate } from "./beside-gate.js";
import type { ChainResult } from "./chain.js";
import type { RunContext } from "./intercept/run-context.js";

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
  return sendVerdictOf(await runBesideGate(ctx, event, wake), event.message.content);
}

function sendVerdictOf(end: BesideGateEnd, content: string): SendVerdict {
  switch (end.kind) {
    case "open":
      return { send: true, content };
    case "ending":
      return { send: false, reason: "the session is ending" };
    case "failed":
      return { send: false, reason: `its hooks could not run (${end.error})` };
    case "chain":
      return verdictOf(end.result, content, end.last);
    default:
      return end satisfies never;
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
