import type { TurnInput } from "../../agent/types.js";

export interface TrackedPrompts {
  /** The same prompts, handed to `Agent.run()` in place of the originals. */
  prompts: AsyncIterable<TurnInput>;
  /** The abort signal of the turn the agent is running, if its prompt carried one. */
  current: () => AbortSignal | undefined;
}

/**
 * Wraps the prompts of a run so the hook interceptor knows which turn is
 * running without the agent knowing of hooks: the agent takes a prompt only
 * when the previous turn is over, so the last prompt taken is the current turn.
 * `next()` and `return()` are forwarded as they are (no generator in between:
 * an async generator's `return()` would wait for a pending `next()`).
 */
export function trackTurnSignals(
  source: Iterable<TurnInput> | AsyncIterable<TurnInput>,
): TrackedPrompts {
  let current: AbortSignal | undefined;
  let iterator: Iterator<TurnInput> | AsyncIterator<TurnInput> | undefined;
  const open = (): Iterator<TurnInput> | AsyncIterator<TurnInput> => {
    iterator ??=
      Symbol.asyncIterator in source
        ? source[Symbol.asyncIterator]()
        : (source as Iterable<TurnInput>)[Symbol.iterator]();
    return iterator;
  };
  const wrapped: AsyncIterator<TurnInput> = {
    async next() {
      current = undefined;
      const step = await open().next();
      current = step.done ? undefined : step.value.signal;
      return step;
    },
    async return(value?: unknown) {
      current = undefined;
      if (iterator?.return === undefined) return { done: true, value: undefined };
      return await iterator.return(value);
    },
  };
  return { prompts: { [Symbol.asyncIterator]: () => wrapped }, current: () => current };
}
