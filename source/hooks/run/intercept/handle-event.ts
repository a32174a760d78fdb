/**
 * One agent event's hooks, from its plan: start the async ones, then run the
 * chain (gates) or the observers (observe-only events), and answer the agent
 * (`verdictOf`: from a chain's result to the verdict). `chainOptions` is what
 * every gate's chain in a run shares (also the permission_request gate's,
 * permission.ts). Beside them: a `pattern` event's built-in handler, and the
 * subagent's mark on the activity of an event raised inside a subagent.
 */
import type { AgentEvent } from "../../../agent/events.js";
import { RAISES } from "../../../agent/raises.js";
import { fromSubagent, type SubagentMark } from "../../../agent/subagent-events.js";
import type { Verdict } from "../../../agent/verdicts.js";
import type { PatternNamespace, PatternReply } from "../../../patterns/namespaces.js";
import { capText } from "../../contract/decision.js";
import type { HookEventName } from "../../contract/definition.js";
import { eventRow } from "../../contract/events/table.js";
import type { GateState } from "../../contract/gate-state.js";
import type { HookActivityEvent, InterceptedEvent } from "../activity.js";
import { type ChainOptions, type ChainResult, chainBatches } from "../chain.js";
import { runObservers } from "../observe.js";
import { matcherNow, type Plan } from "../plan.js";
import { backgroundEntry, type StartAsyncHooks, track } from "./background.js";
import type { Notifications } from "./beside.js";
import type { RunContext } from "./run-context.js";

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
  if (planned.chain.length > 0) {
    // Its hooks answer one per turn of the loop: their audit lines go out together.
    const release = ctx.audit.hold();
    // Its batches are taken apart here, not in a generator of its own (runChain's): each
    // event passes through every generator between the chain and the consumer.
    const batches = chainBatches(gateOptions(ctx, parts, agentEvent, planned));
    let result: ChainResult | undefined;
    try {
      for (let step = await batches.next(); ; step = await batches.next()) {
        if (step.done) {
          result = step.value;
          break;
        }
        for (const activity of step.value) yield activity;
      }
    } finally {
      if (result === undefined) await batches.return(undefined as unknown as ChainResult);
      release();
    }
    const gated = verdictOf(event, agentEvent, result, carried, parts.retries, ctx.maxRetries);
    if (gated.warning) yield gated.warning;
    verdict = gated.verdict;
  } else if (planned.observers.length > 0)
    verdict = yield* observe(ctx, event, agentEvent, planned);
  else verdict = carriedVerdict(carried);
  if (ctx.pendingActivity.length > 0) yield* ctx.pendingActivity.splice(0);
  return verdict;
}

/** A gate's chain: what every chain of the run shares, and this event's hooks and questions. */
function gateOptions(
  ctx: RunContext,
  parts: EventParts,
  agentEvent: AgentEvent,
  planned: Plan,
): ChainOptions {
  const { options } = ctx;
  return {
    ...chainOptions(ctx, planned.event, agentEvent),
    hooks: planned.chain,
    ...(options.askUser === undefined ? {} : { askUser: options.askUser }),
    ...(options.assumeYes === undefined ? {} : { assumeYes: options.assumeYes }),
    onAsk: parts.notifications.onAsk,
  };
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
    matches: matcherNow(ctx.index, event, agentEvent),
    run: ctx.runnerFor(event, agentEvent),
    together: ctx.persistent.together,
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

/**
 * From a chain's result to the agent's verdict, in one place: a continue
 * carries what hooks replaced (only what the event's row lets them change, see
 * step.ts) and the context; `retry` is bounded per model request by
 * `maxRetries` — past it the request goes ahead with a warning.
 */
/** Consecutive retries of one model request (`turn:step`). */
export interface RetryCount {
  key: string;
  count: number;
}

export function newRetryCount(): RetryCount {
  return { key: "", count: 0 };
}

/** Context raised beside the loop, delivered with a plain continue. */
export function carriedVerdict(carried: readonly string[]): Verdict | undefined {
  return carried.length > 0 ? { action: "continue", context: [...carried] } : undefined;
}

/** What hooks changed around the model, as the agent's verdict for this event reads it. */
function modelVerdict(agentEvent: AgentEvent, state: GateState): Partial<Verdict> {
  const out: Extract<Verdict, { action: "continue" }> = { action: "continue" };
  if (state.request !== undefined) out.request = state.request;
  if (state.response !== undefined) {
    // before_model: an answer in place of the model; after_model: the response's new text.
    if (agentEvent.type === "model_request") out.response = state.response;
    else out.text = state.response.text;
  }
  if (state.dropToolCalls !== undefined) out.dropToolCalls = state.dropToolCalls;
  if (state.followUp !== undefined) out.followUp = state.followUp;
  const { action: _continue, ...changes } = out;
  return changes;
}

export function verdictOf(
  event: HookEventName,
  agentEvent: AgentEvent,
  result: ChainResult,
  carried: readonly string[],
  retries: RetryCount,
  maxRetries: number,
): { verdict: Verdict; warning?: HookActivityEvent } {
  const context = [...carried, ...result.context];
  const withContext = context.length > 0 ? { context } : {};
  const end = result.end;
  if (end.kind !== "retry") retries.count = 0;
  switch (end.kind) {
    case "block": {
      // Claude Code's wording for a settings hook's exit-2 block, which prompts and models may look for.
      const modelText =
        end.exitCode2Command !== undefined && agentEvent.type === RAISES.before_tool
          ? `PreToolUse:${agentEvent.toolName} hook error: [${end.exitCode2Command}]: ${end.reason}`
          : undefined;
      return {
        verdict: {
          action: "block",
          reason: end.reason,
          ...(modelText === undefined ? {} : { modelText }),
          ...(end.clearContext === true ? { clearContext: true } : {}),
          ...withContext,
        },
      };
    }
    case "stop":
      return { verdict: { action: "stop", reason: end.reason } };
    case "allow": {
      const state = result.state;
      const input = "toolInput" in state ? (state.checkedToolInput ?? state.toolInput) : undefined;
      return {
        verdict: { action: "allow", ...(input === undefined ? {} : { input }), ...withContext },
      };
    }
    case "retry": {
      const key =
        agentEvent.type === RAISES.before_model ? `${agentEvent.turn}:${agentEvent.step}` : "";
      if (retries.key === key) retries.count++;
      else {
        retries.key = key;
        retries.count = 1;
      }
      // The answering hook's own bound (A3S `max_retries`), else the session's.
      const bound = end.maxRetries ?? maxRetries;
      if (retries.count <= bound) {
        return { verdict: { action: "retry", afterMs: end.afterMs, ...withContext } };
      }
      retries.count = 0;
      return {
        verdict: { action: "continue", ...withContext },
        warning: {
          type: "hook_warning",
          hook: end.hook,
          message: `hook "${end.hook.name}" asked to retry ${event} more than ${bound} times in a row; going ahead`,
        },
      };
    }
    case "defer":
      return { verdict: { action: "defer", reason: end.reason, ...withContext } };
    case "continue": {
      const verdict: Verdict = { action: "continue", ...withContext };
      const state = result.state;
      if ("toolInput" in state) verdict.input = state.checkedToolInput ?? state.toolInput;
      if (state.prompt !== undefined) verdict.prompt = state.prompt;
      if (state.output !== undefined) verdict.output = state.output;
      Object.assign(verdict, modelVerdict(agentEvent, state));
      if (result.suppressed) verdict.suppress = true;
      if (result.permission !== undefined) verdict.permission = result.permission;
      return { verdict };
    }
    default:
      return end satisfies never;
  }
}

/**
 * A `pattern` event's built-in handler (source/patterns/namespaces.ts), run
 * before the namespace's hooks: its reply leads the verdict's context (the
 * hooks' answers follow it), a problem it reports is a warning. A built-in
 * that throws is a warning naming it, never a crash.
 */
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

/**
 * The hooks of an event raised inside a subagent: their activity
 * (`hook_start`, `hook_end`, `hook_warning`) carries the subagent's mark too,
 * so a consumer (stream-json) can tell whose hooks ran.
 */
export function markedLike<R>(
  agentEvent: AgentEvent,
  activity: AsyncGenerator<InterceptedEvent, R, undefined>,
): AsyncGenerator<InterceptedEvent, R, undefined> {
  // The main agent's own events: the activity as it is, without a generator around it.
  return fromSubagent(agentEvent) ? marked(agentEvent, activity) : activity;
}

async function* marked<R>(
  agentEvent: AgentEvent & SubagentMark & { agentId: string },
  activity: AsyncGenerator<InterceptedEvent, R, undefined>,
): AsyncGenerator<InterceptedEvent, R, undefined> {
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
