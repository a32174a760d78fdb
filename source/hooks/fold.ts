/**
 * Folding hook answers into one outcome (hooks.md §4–§5).
 *
 * Gating events (`runChain`): hooks run one after another in plan order; each
 * sees the input as modified by the ones before it; matchers of later hooks are
 * checked against the modified input (a hook that rewrites a command cannot slip
 * it past a guard further down); the first block / stop / retry ends the chain;
 * `skip` ends it and goes on; context is collected from every hook that ran.
 *
 * Observe-only events (`runObservers`): all matching hooks run at once; they can
 * add context; blocks, modifications and the like are ignored with a warning,
 * except a `stop` on `after_agent`, which ends the session (see `ObservedMode`).
 *
 * Both are generators of activity events (`hook_start`, `hook_end`,
 * `hook_warning`) so the consumer sees hooks at work as it happens; the
 * generator's return value is the folded result.
 */
import type { AgentEvent } from "../agent/events.js";
import type { AskRequest, AskUser, HookActivityEvent, HookOutcome, HookRef } from "./activity.js";
import {
  ANSWER_TEXT_CAPS,
  applyFailurePolicy,
  capText,
  type Decision,
  failed,
} from "./decision.js";
import type { HookDefinition, HookEventName } from "./definition.js";
import { applyMergePatch } from "./merge-patch.js";
import type { GateState } from "./payload.js";
import type { HookRunRecord } from "./run.js";

export const DEFAULT_CONTEXT_CAP_CHARS = 10_000;

export type ToolInputValidation = { ok: true; value?: unknown } | { ok: false; error: string };
export type ValidateToolInput = (toolName: string, input: unknown) => ToolInputValidation;

/** Runs one hook with the current state; never throws (failures are decisions). */
export type RunHook = (
  hook: HookDefinition,
  state: GateState,
  signal: AbortSignal,
) => Promise<HookRunRecord>;

/**
 * Called once per hook run: `answered` is the hook's answer after validation (an
 * invalid modification becomes a failure), `effective` what took effect after the
 * failure policy.
 */
export type OnHookRun = (
  hook: HookDefinition,
  record: HookRunRecord,
  answered: Decision,
  effective: Decision,
) => void;

export interface FoldOptions {
  event: HookEventName;
  agentEvent: AgentEvent;
  /** Candidates in plan order (already restricted to the event; matchers are checked here). */
  hooks: readonly HookDefinition[];
  matches: (hook: HookDefinition, state: GateState) => boolean;
  run: RunHook;
  signal: AbortSignal;
  contextCapChars: number;
  now: () => number;
  onRun?: OnHookRun;
}

/** What acai needs the user for, as the loop's consumers see it (yielded beside hook activity). */
export type NotificationEvent = Extract<AgentEvent, { type: "notification" }>;

export interface ChainOptions extends FoldOptions {
  validateToolInput?: ValidateToolInput;
  askUser?: AskUser;
  assumeYes?: boolean;
  /**
   * Told of every `ask` before it is answered, whoever answers it (the
   * `notification` hooks); the notification it returns is yielded at once.
   */
  onAsk?: (request: AskRequest) => NotificationEvent | undefined;
}

export type ChainEnd =
  | { kind: "continue" }
  | { kind: "block"; reason: string }
  | { kind: "retry"; afterMs: number; hook: HookRef }
  | { kind: "stop"; reason: string };

export interface ChainResult {
  end: ChainEnd;
  /** Only the values hooks replaced are set. */
  state: GateState;
  context: string[];
}

export function hookRef(hook: HookDefinition): HookRef {
  return { id: hook.id, name: hook.name, scope: hook.scope, sourceKind: hook.sourceKind };
}

export { capText };

function outcomeOf(decision: Decision, record: HookRunRecord): HookOutcome {
  if (decision.action !== "failed") return decision.action;
  if (record.aborted) return "aborted";
  if (record.timedOut) return "timeout";
  return "failed";
}

function endEvent(
  hook: HookDefinition,
  event: HookEventName,
  outcome: HookOutcome,
  durationMs: number,
  detail: string | undefined,
  message: string | undefined,
): HookActivityEvent {
  return {
    type: "hook_end",
    hook: hookRef(hook),
    event,
    outcome,
    durationMs,
    ...(detail === undefined ? {} : { detail }),
    ...(message === undefined ? {} : { message }),
  };
}

function warning(hook: HookDefinition, message: string): HookActivityEvent {
  return { type: "hook_warning", hook: hookRef(hook), message };
}

/** Context of one answer, capped; a cut is also reported as a warning. */
function takeContext(
  hook: HookDefinition,
  decision: Decision,
  cap: number,
  context: string[],
  activity: HookActivityEvent[],
): void {
  if (decision.context === undefined || decision.context === "") return;
  if (decision.context.length > cap) {
    activity.push(
      warning(
        hook,
        `hook "${hook.name}" gave ${decision.context.length} characters of context; cut at ${cap}`,
      ),
    );
  }
  context.push(capText(decision.context, cap));
}

interface Applied {
  decision: Decision;
  state: GateState;
  notes: string[];
  /**
   * Set when the hook's new tool input fails the tool's schema: the call is
   * refused whatever the hook's failure policy (the original input never runs).
   */
  refusal?: string;
}

/** Checks a modified tool input; a validator that throws counts as a schema error. */
function checkToolInput(
  options: ChainOptions,
  toolName: string,
  input: unknown,
): ToolInputValidation {
  try {
    return options.validateToolInput?.(toolName, input) ?? { ok: true };
  } catch (error) {
    return { ok: false, error: `the input could not be checked (${(error as Error).message})` };
  }
}

function refusalReason(hook: HookDefinition, toolName: string, error: string): string {
  return `hook "${hook.name}" replaced the input of this ${toolName} call with one that fails the tool's schema (${capText(error, ANSWER_TEXT_CAPS.error, "error")}); the call is refused and did not run`;
}

/** Applies a `modify` to the state for this event; an invalid tool input makes it a failure. */
function applyModification(
  hook: HookDefinition,
  options: ChainOptions,
  decision: Decision,
  state: GateState,
): Applied {
  if (decision.action !== "modify") return { decision, state, notes: [] };
  const next: GateState = { ...state };
  const notes: string[] = [];
  const ignored: string[] = [];
  const ev = options.agentEvent;
  if (decision.input !== undefined || decision.inputPatch !== undefined) {
    if (ev.type === "tool_call_start") {
      let input = "toolInput" in state ? state.toolInput : ev.input;
      if (decision.input !== undefined) input = decision.input;
      if (decision.inputPatch !== undefined) input = applyMergePatch(input, decision.inputPatch);
      const check = checkToolInput(options, ev.toolName, input);
      if (!check.ok) {
        return {
          decision: failed(`its new input for ${ev.toolName} is invalid: ${check.error}`, {
            ...(decision.log === undefined ? {} : { log: decision.log }),
          }),
          state,
          notes,
          refusal: refusalReason(hook, ev.toolName, check.error),
        };
      }
      next.toolInput = input;
    } else ignored.push(decision.input !== undefined ? "input" : "input_patch");
  }
  if (decision.prompt !== undefined) {
    if (ev.type === "user_prompt") next.prompt = decision.prompt;
    else ignored.push("prompt");
  }
  if (decision.output !== undefined) {
    if (ev.type === "tool_call_end") next.output = decision.output;
    else ignored.push("output");
  }
  if (ignored.length > 0) {
    notes.push(
      `hook "${hook.name}" answered modify with ${ignored.join(", ")}, which ${options.event} cannot change; ignored`,
    );
  }
  return { decision, state: next, notes };
}

function askRequest(
  hook: HookDefinition,
  options: ChainOptions,
  decision: Decision,
  state: GateState,
): AskRequest {
  const ev = options.agentEvent;
  return {
    hook: hookRef(hook),
    event: options.event,
    reason: decision.reason ?? `hook "${hook.name}" asks for confirmation`,
    ...(ev.type === "tool_call_start"
      ? { toolName: ev.toolName, toolInput: "toolInput" in state ? state.toolInput : ev.input }
      : {}),
  };
}

async function resolveAsk(
  options: ChainOptions,
  request: AskRequest,
): Promise<{ allowed: boolean; reason: string }> {
  const asked = request.reason;
  if (options.assumeYes) return { allowed: true, reason: asked };
  if (!options.askUser) {
    return {
      allowed: false,
      reason: `${asked} — denied: no one can answer in a non-interactive run (use --yes to allow)`,
    };
  }
  try {
    const allowed = await options.askUser(request, options.signal);
    return allowed
      ? { allowed: true, reason: asked }
      : { allowed: false, reason: `${asked} — denied by the user` };
  } catch {
    return { allowed: false, reason: `${asked} — denied (the question could not be asked)` };
  }
}

/** Gating events: in order, chained, first block wins. */
export async function* runChain(
  options: ChainOptions,
): AsyncGenerator<HookActivityEvent | NotificationEvent, ChainResult, undefined> {
  let state: GateState = {};
  const context: string[] = [];
  const cap = options.contextCapChars;
  for (const hook of options.hooks) {
    if (options.signal.aborted)
      return { end: { kind: "block", reason: "aborted" }, state, context };
    if (!options.matches(hook, state)) continue;
    yield {
      type: "hook_start",
      hook: hookRef(hook),
      event: options.event,
      startedAt: options.now(),
    };
    const record = await options.run(hook, state, options.signal);
    const activity: HookActivityEvent[] = [];
    const applied = applyModification(hook, options, record.decision, state);
    for (const note of applied.notes) activity.push(warning(hook, note));
    const answered = applied.decision;
    const outcome = outcomeOf(answered, record);

    if (answered.action === "failed" && record.aborted) {
      options.onRun?.(hook, record, answered, answered);
      yield endEvent(hook, options.event, outcome, record.durationMs, answered.error, undefined);
      return { end: { kind: "block", reason: "aborted" }, state, context };
    }

    const effective: Decision =
      applied.refusal === undefined
        ? applyFailurePolicy(hook, answered)
        : { action: "block", reason: applied.refusal };
    let detail: string | undefined = answered.reason;
    let end: ChainEnd | undefined;
    if (answered.action === "failed") {
      detail = answered.error;
      if (applied.refusal !== undefined) activity.push(warning(hook, applied.refusal));
      else if (hook.failure === "open") {
        activity.push(
          warning(
            hook,
            `hook "${hook.name}" failed: ${answered.error} (failure policy "open": going on)`,
          ),
        );
      }
    }
    switch (effective.action) {
      case "continue":
        break;
      case "modify":
        state = applied.state;
        break;
      case "block":
        end = {
          kind: "block",
          reason: capText(effective.reason ?? `blocked by hook "${hook.name}"`, cap, "reason"),
        };
        break;
      case "skip":
        end = { kind: "continue" };
        break;
      case "stop":
        end = { kind: "stop", reason: effective.reason ?? `hook "${hook.name}" ended the session` };
        break;
      case "retry":
        if (options.event === "before_model") {
          end = { kind: "retry", afterMs: effective.retryAfterMs, hook: hookRef(hook) };
        } else {
          activity.push(
            warning(
              hook,
              `hook "${hook.name}" answered retry, which only before_model supports; ignored`,
            ),
          );
        }
        break;
      case "ask": {
        const request = askRequest(hook, options, effective, state);
        const notification = options.onAsk?.(request);
        if (notification) yield notification;
        const asked = await resolveAsk(options, request);
        detail = asked.reason;
        if (!asked.allowed) end = { kind: "block", reason: asked.reason };
        break;
      }
      case "failed":
        break; // applyFailurePolicy never returns failed
      default:
        effective satisfies never;
    }
    takeContext(hook, answered, cap, context, activity);
    options.onRun?.(hook, record, answered, effective);
    yield endEvent(hook, options.event, outcome, record.durationMs, detail, answered.message);
    yield* activity;
    if (end) return { end, state, context };
  }
  return { end: { kind: "continue" }, state, context };
}

/**
 * How an observed answer is taken. Observe-only events and async hooks can
 * only observe: a block, stop, modify, ask or retry is ignored with a warning
 * (never shown as if it had acted). The one exception is `stop` from a sync
 * `after_agent` hook (`canStop`): the turn is over, ending the session is
 * meaningful, so it is honoured.
 */
export interface ObservedMode {
  kind: "observe" | "async";
  canStop?: boolean;
}

const IGNORED_WHEN_OBSERVED: ReadonlySet<Decision["action"]> = new Set([
  "block",
  "stop",
  "modify",
  "ask",
  "retry",
]);

function ignoredWhenObserved(decision: Decision, mode: ObservedMode): boolean {
  if (decision.action === "stop" && mode.canStop) return false;
  return IGNORED_WHEN_OBSERVED.has(decision.action);
}

/** What an observed (observe-only or async) run leaves: activity to show and capped context. */
export function settleObserved(
  hook: HookDefinition,
  event: HookEventName,
  record: HookRunRecord,
  cap: number,
  mode: ObservedMode = { kind: "observe" },
): { activity: HookActivityEvent[]; context?: string } {
  const decision = record.decision;
  const notes: HookActivityEvent[] = [];
  const found: string[] = [];
  takeContext(hook, decision, cap, found, notes);
  if (decision.action === "failed" && !record.aborted) {
    notes.push(warning(hook, `hook "${hook.name}" failed: ${decision.error}`));
  }
  let outcome = outcomeOf(decision, record);
  if (ignoredWhenObserved(decision, mode)) {
    outcome = "continue";
    const why =
      mode.kind === "async"
        ? "async hooks cannot block, stop or modify"
        : `${event} is an observe-only event${event === "after_agent" ? " (only stop is honoured there)" : ""}`;
    notes.push(
      warning(
        hook,
        `hook "${hook.name}" answered ${decision.action}${decision.reason ? ` (${decision.reason})` : ""}: ${decision.action} is ignored on ${event}; ${why}`,
      ),
    );
  }
  const detail = decision.action === "failed" ? decision.error : decision.reason;
  const activity = [
    endEvent(hook, event, outcome, record.durationMs, detail, decision.message),
    ...notes,
  ];
  return found[0] === undefined ? { activity } : { activity, context: found[0] };
}

/** The effect of an observed answer: failures, plain continue, and a `stop` where `canStop`. */
export function observedEffect(
  decision: Decision,
  mode: ObservedMode = { kind: "observe" },
): Decision {
  if (decision.action === "failed") return decision;
  if (decision.action === "stop" && mode.canStop) return decision;
  return { action: "continue" };
}

export interface ObserveResult {
  /** In plan order, whatever order the hooks finished in. */
  context: string[];
  /** Only with `canStop`: the first hook (in plan order) that answered stop. */
  stop?: { reason: string; hook: HookRef };
}

export interface ObserveOptions extends FoldOptions {
  /** `after_agent`: a `stop` answer is honoured (see `ObservedMode`). */
  canStop?: boolean;
}

/** Observe-only events: every matching hook at once; only context, warnings (and a `stop` where `canStop`) come out. */
export async function* runObservers(
  options: ObserveOptions,
): AsyncGenerator<HookActivityEvent, ObserveResult, undefined> {
  const mode: ObservedMode = { kind: "observe", canStop: options.canStop ?? false };
  const hooks = options.hooks.filter((hook) => options.matches(hook, {}));
  const pending = new Map<number, Promise<{ index: number; record: HookRunRecord }>>();
  for (const [index, hook] of hooks.entries()) {
    if (options.signal.aborted) break;
    yield {
      type: "hook_start",
      hook: hookRef(hook),
      event: options.event,
      startedAt: options.now(),
    };
    pending.set(
      index,
      options.run(hook, {}, options.signal).then((record) => ({ index, record })),
    );
  }
  const contexts: (string | undefined)[] = [];
  const stops: (ObserveResult["stop"] | undefined)[] = [];
  while (pending.size > 0) {
    const { index, record } = await Promise.race(pending.values());
    pending.delete(index);
    const hook = hooks[index]!;
    const settled = settleObserved(hook, options.event, record, options.contextCapChars, mode);
    contexts[index] = settled.context;
    const effective = observedEffect(record.decision, mode);
    if (effective.action === "stop") {
      stops[index] = {
        reason: effective.reason ?? `hook "${hook.name}" ended the session`,
        hook: hookRef(hook),
      };
    }
    options.onRun?.(hook, record, record.decision, effective);
    yield* settled.activity;
  }
  const stop = stops.find((s) => s !== undefined);
  return {
    context: contexts.filter((c): c is string => c !== undefined),
    ...(stop === undefined ? {} : { stop }),
  };
}
