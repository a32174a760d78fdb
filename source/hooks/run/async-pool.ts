/**
 * The async-hook pool (hooks.md §5): at most `maxRunning` async hooks run at
 * once; the rest wait, first in first out, in a queue of at most `queueLimit`;
 * a hook that finds the queue full is dropped (never started), and the caller
 * says so. Without it, 50 async hooks × 12 tool calls start 600 processes at
 * once and run acai out of file descriptors.
 */

export const DEFAULT_MAX_ASYNC_HOOKS = 8;
export const DEFAULT_ASYNC_QUEUE_LIMIT = 256;

export interface AsyncPoolLimits {
  /** Async hooks running at once (at least 1). */
  maxRunning: number;
  /** Async hooks waiting for a slot (0: none wait, a hook with no free slot is dropped). */
  queueLimit: number;
}

/** What became of a submitted task. */
type Admission = "started" | "queued" | "dropped";

interface Submitted {
  admission: Admission;
  /** Settles when the task has run (at once when it was dropped). Never rejects. */
  done: Promise<void>;
}

export interface AsyncPool {
  /**
   * Starts `task` now if a slot is free, else queues it, else drops it (the
   * task is then never called). A task that rejects frees its slot like one
   * that resolves; the rejection goes to `onError`.
   */
  submit(task: () => Promise<void>): Submitted;
  readonly running: number;
  readonly queued: number;
  readonly limits: Readonly<AsyncPoolLimits>;
}

export function createAsyncPool(
  limits: AsyncPoolLimits,
  onError: (error: unknown) => void = () => {},
): AsyncPool {
  const maxRunning = Math.max(1, Math.floor(limits.maxRunning));
  const queueLimit = Math.max(0, Math.floor(limits.queueLimit));
  let running = 0;
  /** Starters of queued tasks; `head` is the next one (an array used as a FIFO, compacted now and then). */
  let queue: (() => void)[] = [];
  let head = 0;

  const next = (): void => {
    if (head >= queue.length) return;
    const start = queue[head] as () => void;
    queue[head] = noop;
    head++;
    if (head > 1024 && head * 2 > queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
    start();
  };

  const launch = (task: () => Promise<void>, settle: () => void): void => {
    running++;
    let promise: Promise<void>;
    try {
      promise = task();
    } catch (error) {
      promise = Promise.reject(error);
    }
    promise.catch(onError).finally(() => {
      running--;
      settle();
      next();
    });
  };

  return {
    submit(task) {
      if (running < maxRunning && head >= queue.length) {
        return { admission: "started", done: new Promise((settle) => launch(task, settle)) };
      }
      if (queue.length - head >= queueLimit) return { admission: "dropped", done: DONE };
      const done = new Promise<void>((settle) => queue.push(() => launch(task, settle)));
      return { admission: "queued", done };
    },
    get running() {
      return running;
    },
    get queued() {
      return queue.length - head;
    },
    limits: { maxRunning, queueLimit },
  };
}

const DONE: Promise<void> = Promise.resolve();

function noop(): void {}

const RAISE = "raise hookDefaults.maxAsyncHooks or hookDefaults.asyncQueueLimit to keep more";

function busy(limits: Readonly<AsyncPoolLimits>): string {
  return `${limits.maxRunning} async hooks were running and ${limits.queueLimit} waiting`;
}

/** The audit error of one hook dropped because the queue was full. */
export function droppedMessage(hookName: string, limits: Readonly<AsyncPoolLimits>): string {
  return `async hook "${hookName}" was not run: ${busy(limits)} (${RAISE})`;
}

/** Names shown in one warning; the rest are counted (each has its audit line). */
const NAMES_SHOWN = 10;

/** The one warning for the hooks of an event dropped because the queue was full. */
export function droppedWarning(
  hookNames: readonly string[],
  event: string,
  limits: Readonly<AsyncPoolLimits>,
): string {
  if (hookNames.length === 1) return `${droppedMessage(hookNames[0] as string, limits)}`;
  const shown = hookNames.slice(0, NAMES_SHOWN).map((name) => `"${name}"`);
  const more = hookNames.length - shown.length;
  const names = more > 0 ? `${shown.join(", ")} and ${more} more` : shown.join(", ");
  return `${hookNames.length} async hooks of ${event} were not run: ${names}; ${busy(limits)} (${RAISE}; each is in the audit log)`;
}

/** The error recorded for a queued hook the session ended (or an abort cut) before a slot was free. */
export function notStartedMessage(why: "session end" | "abort"): string {
  return why === "session end"
    ? "not started: the session ended while it waited for a free async slot"
    : "not started: aborted while it waited for a free async slot";
}
