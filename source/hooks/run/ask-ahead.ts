/**
 * Asking ahead (decision 0012): in a gate's chain, the persistent hooks and
 * plugins right after the hook the chain has reached that declare
 * `ask_ahead` are asked together with it, with the values as they stand,
 * instead of one after another. A request to
 * them is a line or a message, not a process start, so twenty of them cost
 * about one round trip instead of twenty. The chain still folds their answers
 * strictly in its order (chain.ts), so the decision is the one the sequential
 * chain gives: when an answer ends the chain, the answers after it are not
 * used; when one changes the values, the hooks after it are asked again with
 * the new ones. It is the hook's own choice because such a hook may be asked
 * about a call an earlier hook then blocks (the contract's "stops the chain"
 * is otherwise literal: later hooks are not asked). Spawned hooks are never
 * asked ahead: each would be a process started for an answer that may not
 * be used.
 */
import type { HookDefinition } from "../contract/definition.js";
import { canAskAhead } from "../contract/definition.js";
import type { GateState } from "../contract/gate-state.js";
import type { HookRunRecord } from "./run-record.js";

/** A hook asked in the current window: where it is in the chain, and its answer to come. */
export interface Asked {
  hook: HookDefinition;
  index: number;
  startedAt: number;
  record: Promise<HookRunRecord>;
  /** Its answer once it is in (the chain takes it without waiting a turn for it). */
  settled?: HookRunRecord;
}

export interface WindowOptions {
  hooks: readonly HookDefinition[];
  matches: (hook: HookDefinition, state: GateState) => boolean;
  run: (hook: HookDefinition, state: GateState, signal: AbortSignal) => Promise<HookRunRecord>;
  signal: AbortSignal;
  now: () => number;
}

/**
 * The hooks to ask now: `hooks[first]`, which the chain has reached (it
 * matches), and with it every matching hook after it that may be asked ahead,
 * up to the first that may not — all started at once with `state`. Whether
 * the first hook may be asked ahead does not matter: it is asked now anyway;
 * the flag is the consent of the ones asked before the hooks ahead of them
 * have answered.
 */
export function askWindow(options: WindowOptions, first: number, state: GateState): Asked[] {
  const { hooks } = options;
  const ask = (index: number): Asked => {
    const hook = hooks[index] as HookDefinition;
    const asked: Asked = {
      hook,
      index,
      startedAt: options.now(),
      record: options.run(hook, state, options.signal),
    };
    asked.record.then(
      (record) => {
        asked.settled = record;
      },
      () => {}, // the chain's own wait on it gets the failure
    );
    return asked;
  };
  const asked = [ask(first)];
  for (let index = first + 1; index < hooks.length; index++) {
    const hook = hooks[index] as HookDefinition;
    if (!canAskAhead(hook)) break;
    if (options.matches(hook, state)) asked.push(ask(index));
  }
  return asked;
}
