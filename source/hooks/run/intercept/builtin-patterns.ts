/**
 * A `pattern` event's built-in handler (source/patterns/namespaces.ts), run
 * before the namespace's hooks: its reply leads the verdict's context (the
 * hooks' answers follow it), a problem it reports is a warning. A built-in
 * that throws is a warning naming it, never a crash.
 */
import type { AgentEvent } from "../../../agent/events.js";
import { RAISES } from "../../../agent/raises.js";
import type { Verdict } from "../../../agent/verdicts.js";
import type { PatternNamespace, PatternReply } from "../../../patterns/namespaces.js";
import { capText } from "../../contract/decision.js";
import type { InterceptedEvent } from "../activity.js";
import type { RunContext } from "./run-context.js";

type PatternEvent = Extract<AgentEvent, { type: "pattern" }>;

/** The built-in that handles this event's namespace, if any. */
export function builtinFor(ctx: RunContext, ev: AgentEvent): PatternNamespace | undefined {
  if (ev.type !== RAISES.pattern) return undefined;
  return ctx.options.patternNamespaces?.get(ev.namespace);
}

/** Runs the built-in; yields its warning; returns its context, capped as a hook's. */
export async function* runBuiltin(
  ctx: RunContext,
  builtin: PatternNamespace,
  ev: PatternEvent,
): AsyncGenerator<InterceptedEvent, string | undefined, undefined> {
  let reply: PatternReply;
  try {
    reply = await builtin.handle(
      {
        namespace: ev.namespace,
        target: ev.target,
        message: ev.message,
        sessionId: ctx.session.sessionId,
        ...(ctx.session.agentName === undefined ? {} : { agentName: ctx.session.agentName }),
      },
      ctx.stopAll.signal,
    );
  } catch (error) {
    reply = { warning: `@${builtin.name}: failed (${(error as Error).message})` };
  }
  if (reply.warning !== undefined)
    yield { type: "warning", message: reply.warning, source: "pattern" };
  return reply.context === undefined || reply.context === ""
    ? undefined
    : capText(reply.context, ctx.cap);
}

/** The hooks' verdict with the built-in's context put first. */
export function withBuiltinContext(verdict: Verdict | undefined, context: string): Verdict {
  if (verdict === undefined) return { action: "continue", context: [context] };
  if (verdict.action === "stop") return verdict;
  return { ...verdict, context: [context, ...(verdict.context ?? [])] };
}
