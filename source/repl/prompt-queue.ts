/**
 * An async queue the REPL pushes submitted prompts into and the agent pulls
 * turns from. It reports when the consumer takes an item (a turn begins) and
 * when it waits on an empty queue (the agent is idle, the prompt is back).
 */
export interface PromptQueueEvents<T> {
  onTake?: (item: T) => void;
  onWait?: () => void;
}

export class PromptQueue<T> implements AsyncIterable<T> {
  readonly #items: T[] = [];
  #waiter: ((result: IteratorResult<T, undefined>) => void) | undefined;
  #closed = false;
  readonly #events: PromptQueueEvents<T>;

  constructor(events: PromptQueueEvents<T> = {}) {
    this.#events = events;
  }

  get closed(): boolean {
    return this.#closed;
  }

  get size(): number {
    return this.#items.length;
  }

  /** The items not taken yet, in order. */
  get queued(): readonly T[] {
    return this.#items;
  }

  /** True while the consumer is waiting for the next item. */
  get waiting(): boolean {
    return this.#waiter !== undefined;
  }

  push(item: T): boolean {
    if (this.#closed) return false;
    const waiter = this.#waiter;
    if (waiter) {
      this.#waiter = undefined;
      this.#events.onTake?.(item);
      waiter({ value: item, done: false });
    } else {
      this.#items.push(item);
    }
    return true;
  }

  /** Ends the iteration once queued items are consumed; queued items are dropped when `drop` is set. */
  close(drop = false): void {
    if (this.#closed) return;
    this.#closed = true;
    if (drop) this.#items.length = 0;
    const waiter = this.#waiter;
    if (waiter && this.#items.length === 0) {
      this.#waiter = undefined;
      waiter({ value: undefined, done: true });
    }
  }

  next(): Promise<IteratorResult<T, undefined>> {
    const item = this.#items.shift();
    if (item !== undefined) {
      this.#events.onTake?.(item);
      return Promise.resolve({ value: item, done: false });
    }
    if (this.#closed) return Promise.resolve({ value: undefined, done: true });
    if (this.#waiter) return Promise.reject(new Error("PromptQueue: concurrent next() calls"));
    return new Promise((resolve) => {
      this.#waiter = resolve;
      this.#events.onWait?.();
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<T, undefined> {
    return {
      next: () => this.next(),
      return: async () => {
        this.close(true);
        return { value: undefined, done: true };
      },
    };
  }
}
