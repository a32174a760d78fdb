/**
 * Runs a gate's chain (hooks.md §4–§5): the hooks' answers folded one after
 * another in plan order, each hook seeing the values the ones before it
 * replaced and matched again against them (a hook that rewrites a command
 * cannot slip it past a guard further down). Persistent hooks and plugins
 * that declare `ask_ahead` are asked several at once (ask-ahead.ts); the fold
 * stays in order. Each answer is folded by `step` (step.ts); this runner
 * only runs hooks, asks the user (resolve-ask.ts), and turns the fold into
 * activity events as they happen (a checklist gate gathers its blocks,
 * checklist.ts). The generator's return value is the folded result.
 */
import type { AgentEvent } from "../../agent/events.js";
import type { Decision } from "../contract/decision.js";
import type { HookDefinition, HookEventName } from "../contract/definition.js";
import { eventRow } from "../contract/events/table.js";
import type { GateState } from "../contract/gate-state.js";
import {
  type AskRequest,
  type AskUser,
  type HookActivityEvent,
  hookEnd,
  hookStart,
  hookWarning,
  outcomeOf,
} from "./activity.js";
import { type Asked, askWindow } from "./ask-ahead.js";
import { ABORTED, BlockList } from "./checklist.js";
import type { ValidateToolInput } from "./modify.js";
import { resolveAsk } from "./resolve-ask.js";
import type { HookRunRecord } from "./run.js";
import {
  type ChainEnd,
  type ChainState,
  type Gate,
  type Stepped,
  settleAsk,
  startChain,
  step,
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
type OnHookRun = (
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
  /** before_tool's `defer` is honoured (see `Gate.deferrable`). */
  deferrable?: boolean;
  askUser?: AskUser;
  assumeYes?: boolean;
  /**
   * Told of every `ask` before it is answered, whoever answers it (the
   * `notification` hooks); the notification it returns is yielded at once.
   */
  onAsk?: (request: AskRequest) => NotificationEvent | undefined;
  /**
   * A hook asked ahead whose answer the chain does not use (an earlier one
   * ended the chain or changed the values): its run, still going or done,
   * for the audit log — the caller keeps the run open until it settles.
   */
  onUnused?: (hook: HookDefinition, record: Promise<HookRunRecord>) => void;
  /** Asks the hooks of a window together: their requests written back to back (persistent/outbox.ts). */
  together?: <T>(ask: () => T) => T;
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

function resultOf(state: ChainState, end: ChainEnd): ChainResult {
  return {
    end,
    state: state.replaced,
    context: [...state.context],
    ...(state.suppressed ? { suppressed: true as const } : {}),
    ...(state.permission === undefined ? {} : { permission: state.permission }),
  };
}

/** What a chain yields at a time: activity events, in order, each batch as it is ready. */
export type ChainActivity = HookActivityEvent | NotificationEvent;

/**
 * Gating events: in order, chained, first block wins — except on a checklist
 * gate (the row's `blocks: "all"`: before_stop, subagent_stop), where every
 * hook runs and the block carries every reason, in order. One event at a
 * time (`chainBatches` is the same chain yielding its activity in batches).
 */
export function runChain(
  options: ChainOptions,
): AsyncGenerator<ChainActivity, ChainResult, undefined> {
  return eachActivity(chainBatches(options));
}

/** A chain's batches one event at a time, in order. */
async function* eachActivity(
  batches: AsyncGenerator<readonly ChainActivity[], ChainResult, undefined>,
): AsyncGenerator<ChainActivity, ChainResult, undefined> {
  let done = false;
  try {
    for (;;) {
      const step = await batches.next();
      if (step.done) {
        done = true;
        return step.value;
      }
      for (const event of step.value) yield event;
    }
  } finally {
    if (!done) await batches.return(undefined as unknown as ChainResult);
  }
}

/**
 * The chain (`runChain`), its activity yielded in batches: the events of the
 * answers already in, together, and what is pending before the chain waits
 * for an answer that is not in yet or asks the user. Each hook's `hook_start`
 * reaches the consumer before the chain waits for its answer; the order is
 * the one-event-at-a-time order. Twenty hooks asked ahead whose answers are
 * in pass their forty events up as one batch rather than one at a time
 * through every generator between the chain and the consumer.
 *
 * Once an answer is folded and the chain goes on, the next hooks are asked
 * before that answer's activity is yielded and its audit line made: in a
 * chain asked one after another, the time from an answer to the next request
 * is what acai adds to every hook. The consumer still sees each hook's
 * `hook_end` before the next one's `hook_start`.
 */
export async function* chainBatches(
  options: ChainOptions,
): AsyncGenerator<readonly ChainActivity[], ChainResult, undefined> {
  const gate: Gate = {
    event: options.event,
    agentEvent: options.agentEvent,
    contextCapChars: options.contextCapChars,
    ...(options.validateToolInput === undefined
      ? {}
      : { validateToolInput: options.validateToolInput }),
    ...(options.deferrable === true ? { deferrable: true } : {}),
  };
  let state = startChain(gate);
  const checklist = eventRow(options.event).blocks === "all" ? new BlockList() : undefined;
  let batch: ChainActivity[] = [];
  let window = nextWindow(options, 0, state.replaced);
  while (window !== undefined) {
    if (window === "aborted") break;
    const asked = window;
    window = undefined;
    for (let k = 0; k < asked.length; k++) {
      const { hook, index, startedAt, settled } = asked[k] as Asked;
      batch.push(hookStart(hook, gate.event, startedAt));
      let record = settled;
      if (record === undefined) {
        yield batch;
        batch = [];
        record = await (asked[k] as Asked).record;
      }
      let folded = foldOne(gate, state, hook, record);
      if ("asking" in folded) {
        if (batch.length > 0) yield batch;
        batch = [];
        folded = yield* askThenFold(options, gate, hook, record, folded.asking);
      }
      const taken = checklist?.takes(hook, folded.end) === true;
      const end = taken ? undefined : folded.end;
      const changed = !taken && folded.state.replaced !== state.replaced;
      state = folded.state;
      if (end !== undefined || changed) {
        // Asked ahead of an answer that ended the chain or changed what the rest must see.
        for (const unused of asked.slice(k + 1)) options.onUnused?.(unused.hook, unused.record);
      }
      if (end === undefined && (changed || k === asked.length - 1)) {
        window = nextWindow(options, index + 1, state.replaced);
      }
      options.onRun?.(hook, record, folded.answered, folded.effective);
      for (const event of folded.events) batch.push(event);
      if (end !== undefined) {
        yield batch;
        return resultOf(state, checklist?.over(end) ?? end);
      }
      if (changed) break;
    }
  }
  if (batch.length > 0) yield batch;
  if (window === "aborted") return resultOf(state, ABORTED);
  return resultOf(state, checklist?.over({ kind: "continue" }) ?? { kind: "continue" });
}

/**
 * The hooks to ask next: the window (ask-ahead.ts) from the first hook at or
 * after `from` that matches the values as they stand; none left, or the
 * chain's abort.
 */
function nextWindow(
  options: ChainOptions,
  from: number,
  state: GateState,
): Asked[] | "aborted" | undefined {
  for (let next = from; next < options.hooks.length; next++) {
    if (options.signal.aborted) return "aborted";
    if (options.matches(options.hooks[next] as HookDefinition, state)) {
      const { together } = options;
      return together === undefined
        ? askWindow(options, next, state)
        : together(() => askWindow(options, next, state));
    }
  }
  return undefined;
}

/**
 * One hook's answer folded in: the chain's state after it, how the chain goes
 * on, the activity to yield, and the answer as its audit line takes it
 * (`answered`, `effective`: see OnHookRun).
 */
interface Folded {
  state: ChainState;
  end?: ChainEnd;
  events: HookActivityEvent[];
  answered: Decision;
  effective: Decision;
}

/**
 * One hook's answer folded in, at once — or, when it asks the user, what the
 * question needs (`askThenFold`). A function, not a generator: a chain of
 * hooks asked one after another pays for it once per hook.
 */
function foldOne(
  gate: Gate,
  state: ChainState,
  hook: HookDefinition,
  record: HookRunRecord,
): Folded | { asking: Stepped } {
  if (record.decision.action === "failed" && record.aborted) {
    // Cut by the abort: a tool whose check did not finish does not run.
    const { decision } = record;
    const events = [endOf(hook, gate.event, record, decision, decision.error)];
    return { state, end: ABORTED, events, answered: decision, effective: decision };
  }
  const stepped: Stepped = step(state, hook, record.decision);
  if (stepped.end?.kind === "ask") return { asking: stepped };
  return settled(gate, hook, record, stepped);
}

/** An `ask` answered: the notification first, then the user's (or `--yes`'s) answer folded in. */
async function* askThenFold(
  options: ChainOptions,
  gate: Gate,
  hook: HookDefinition,
  record: HookRunRecord,
  stepped: Stepped,
): AsyncGenerator<readonly NotificationEvent[], Folded, undefined> {
  if (stepped.end?.kind !== "ask") return settled(gate, hook, record, stepped);
  const notification = options.onAsk?.(stepped.end.request);
  if (notification) yield [notification];
  const answer = await resolveAsk(options, stepped.end.request);
  return settled(gate, hook, record, settleAsk(stepped, answer));
}

function settled(
  gate: Gate,
  hook: HookDefinition,
  record: HookRunRecord,
  stepped: Stepped,
): Folded {
  const { answered, effective } = stepped;
  const events = [endOf(hook, gate.event, record, answered, stepped.detail)];
  for (const note of stepped.notes) events.push(hookWarning(hook, note));
  // settleAsk has replaced an `ask` end by the user's answer.
  const end = stepped.end?.kind === "ask" ? undefined : stepped.end;
  const folded = { state: stepped.state, events, answered, effective };
  return end === undefined ? folded : { ...folded, end };
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
