/**
 * Runs a gate's chain (hooks.md §4–§5): the hooks one after another in plan
 * order, each seeing the values the ones before it replaced and matched again
 * against them (a hook that rewrites a command cannot slip it past a guard
 * further down). Each answer is folded by `step` (step.ts); this runner only
 * runs hooks, asks the user, and turns the fold into activity events as they
 * happen. The generator's return value is the folded result.
 */
import type { AgentEvent } from "../agent/events.js";
import {
  type AskRequest,
  type AskUser,
  type HookActivityEvent,
  hookEnd,
  hookRef,
  hookWarning,
  outcomeOf,
} from "./activity.js";
import type { Decision } from "./decision.js";
import type { HookDefinition, HookEventName } from "./definition.js";
import type { GateState } from "./gate-state.js";
import type { HookRunRecord } from "./run.js";
import {
  type ChainEnd,
  type ChainState,
  type Gate,
  type Stepped,
  settleAsk,
  startChain,
  step,
  type ValidateToolInput,
} from "./step.js";

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

/** What chains and observers share. */
export interface FoldOptions {
  event: HookEventName;
  agentEvent: AgentEvent;
  /** In plan order (already restricted to the event; matchers are checked here). */
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

export interface ChainResult {
  end: ChainEnd;
  /** Only the values hooks replaced are set. */
  state: GateState;
  context: string[];
  /** A hook answered agent-relay's `suppress` and the event honours it. */
  suppressed?: true;
  /** before_tool: the hooks' say on the permission (see `ChainState.permission`). */
  permission?: ChainState["permission"];
}

const ABORTED: ChainEnd = { kind: "block", reason: "aborted" };

function resultOf(state: ChainState, end: ChainEnd): ChainResult {
  return {
    end,
    state: state.replaced,
    context: [...state.context],
    ...(state.suppressed ? { suppressed: true as const } : {}),
    ...(state.permission === undefined ? {} : { permission: state.permission }),
  };
}

/** Gating events: in order, chained, first block wins. */
export async function* runChain(
  options: ChainOptions,
): AsyncGenerator<HookActivityEvent | NotificationEvent, ChainResult, undefined> {
  const gate: Gate = {
    event: options.event,
    agentEvent: options.agentEvent,
    contextCapChars: options.contextCapChars,
    ...(options.validateToolInput === undefined
      ? {}
      : { validateToolInput: options.validateToolInput }),
  };
  let state = startChain(gate);
  for (const hook of options.hooks) {
    if (options.signal.aborted) return resultOf(state, ABORTED);
    if (!options.matches(hook, state.replaced)) continue;
    yield { type: "hook_start", hook: hookRef(hook), event: gate.event, startedAt: options.now() };
    const record = await options.run(hook, state.replaced, options.signal);
    if (record.decision.action === "failed" && record.aborted) {
      // Cut by the abort: a tool whose check did not finish does not run.
      options.onRun?.(hook, record, record.decision, record.decision);
      yield endOf(hook, gate.event, record, record.decision, record.decision.error);
      return resultOf(state, ABORTED);
    }
    let stepped: Stepped = step(state, hook, record.decision);
    if (stepped.end?.kind === "ask") {
      const notification = options.onAsk?.(stepped.end.request);
      if (notification) yield notification;
      stepped = settleAsk(stepped, await resolveAsk(options, stepped.end.request));
    }
    state = stepped.state;
    options.onRun?.(hook, record, stepped.answered, stepped.effective);
    yield endOf(hook, gate.event, record, stepped.answered, stepped.detail);
    for (const note of stepped.notes) yield hookWarning(hook, note);
    // settleAsk has replaced an `ask` end by the user's answer.
    if (stepped.end !== undefined && stepped.end.kind !== "ask")
      return resultOf(state, stepped.end);
  }
  return resultOf(state, { kind: "continue" });
}

function endOf(
  hook: HookDefinition,
  event: HookEventName,
  record: HookRunRecord,
  answered: Decision,
  detail: string | undefined,
): HookActivityEvent {
  const outcome = outcomeOf(answered.action, record);
  return hookEnd(hook, event, outcome, record.durationMs, detail, answered.message);
}

/** Who answers an `ask`: `--yes`, else the user; headless with no one to ask, denied. */
export async function resolveAsk(
  options: Pick<ChainOptions, "assumeYes" | "askUser" | "signal">,
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
