import { systemReminder } from "../../agent/history.js";
import type { TurnInput } from "../../agent/types.js";

/** What became of an `asyncRewake` hook's wake-up (rewake()). */
export type RewakeOutcome =
  /** A turn of its own comes next (after the running one, before the next prompt). */
  | "queued"
  /** The run's prompts are over (`acai -p` after its last turn): not delivered. */
  | "ended"
  /** `MAX_REWAKES_IN_A_ROW` wake-ups with no prompt between them: not delivered. */
  | "capped";

/** Wake-up turns in a row without a prompt of the user's between them (hooks waking each other). */
export const MAX_REWAKES_IN_A_ROW = 5;

export interface TrackedPrompts {
  /** The same prompts, handed to `Agent.run()` in place of the originals, with wake-up turns between them. */
  prompts: AsyncIterable<TurnInput>;
  /** The abort signal of the turn the agent is running, if its prompt carried one. */
  current: () => AbortSignal | undefined;
  /**
   * An `asyncRewake` hook exited 2 (Claude Code's wake-up): its text becomes
   * a turn of its own, as a system reminder, taken before the next prompt —
   * at once when the agent is waiting for one.
   */
  rewake: (hookName: string, text: string) => RewakeOutcome;
}

/**
 * Wraps the prompts of a run so the hook interceptor knows which turn is
 * running without the agent knowing of hooks: the agent takes a prompt only
 * when the previous turn is over, so the last prompt taken is the current turn.
 * Wake-up turns (`rewake`) are handed out first; a prompt that arrived
 * meanwhile waits for the next `next()`. `return()` is forwarded as it is (no
 * generator in between: an async generator's `return()` would wait for a
 * pending `next()`).
 */
export function trackTurnSignals(
  source: Iterable<TurnInput> | AsyncIterable<TurnInput>,
  /**
   * Where wake-up turns go instead, when the source is a queue of its own
   * (the REPL's: a wake-up is then a turn like any other, with its own abort
   * signal, after the prompts queued before it): queues the turn and returns
   * it, or undefined when the queue takes no more.
   */
  deliver?: (prompt: string) => TurnInput | undefined,
): TrackedPrompts {
  let current: AbortSignal | undefined;
  let iterator: Iterator<TurnInput> | AsyncIterator<TurnInput> | undefined;
  let ended = false;
  let inARow = 0;
  const wakes: TurnInput[] = [];
  /** Wake-up turns handed to `deliver`: taken from the source, they are not the user's prompts. */
  const delivered = new WeakSet<TurnInput>();
  let pending: Promise<IteratorResult<TurnInput>> | undefined;
  let woken: (() => void) | undefined;
  const open = (): Iterator<TurnInput> | AsyncIterator<TurnInput> => {
    iterator ??=
      Symbol.asyncIterator in source
        ? source[Symbol.asyncIterator]()
        : (source as Iterable<TurnInput>)[Symbol.iterator]();
    return iterator;
  };
  /** The source's next prompt, or a wake-up that came first (the prompt then stays pending). */
  const nextOf = async (): Promise<IteratorResult<TurnInput>> => {
    pending ??= Promise.resolve(open().next());
    const wake = new Promise<"wake">((resolve) => {
      woken = () => resolve("wake");
    });
    const first = await Promise.race([pending, wake]);
    woken = undefined;
    if (first === "wake") return { done: false, value: wakes.shift() as TurnInput };
    pending = undefined;
    if (first.done) ended = true;
    else if (!delivered.has(first.value)) inARow = 0;
    return first;
  };
  const wrapped: AsyncIterator<TurnInput> = {
    async next() {
      current = undefined;
      const wake = wakes.shift();
      const step = wake !== undefined ? { done: false as const, value: wake } : await nextOf();
      current = step.done ? undefined : step.value.signal;
      return step;
    },
    async return(value?: unknown) {
      current = undefined;
      ended = true;
      if (iterator?.return === undefined) return { done: true, value: undefined };
      return await iterator.return(value);
    },
  };
  return {
    prompts: { [Symbol.asyncIterator]: () => wrapped },
    current: () => current,
    rewake(hookName, text) {
      if (ended) return "ended";
      if (inARow >= MAX_REWAKES_IN_A_ROW) return "capped";
      const prompt = wakeText(hookName, text);
      if (deliver !== undefined) {
        const turn = deliver(prompt);
        if (turn === undefined) return "ended";
        delivered.add(turn);
        inARow++;
        return "queued";
      }
      inARow++;
      wakes.push({ prompt });
      woken?.();
      return "queued";
    },
  };
}

/** The wake-up turn's prompt: the hook's text as a system reminder, as Claude Code gives it. */
function wakeText(hookName: string, text: string): string {
  const said = text.trim() === "" ? "(it gave no text)" : text;
  return systemReminder(`The async hook "${hookName}" exited 2 and woke you with:\n${said}`);
}
