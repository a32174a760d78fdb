/**
 * The abort signals a persistent hook's requests come with (hooks.md §5: an
 * abort reaches every running hook at once), listened to once per signal
 * rather than once per request: a chain asks one process after another with
 * the same signal, and adding and removing a listener for each request was
 * on the path from one hook's answer to the next hook's request.
 *
 * A signal no request waits with any more is let go when the next signal
 * comes (a turn's signal once its turn is over): a signal made by
 * `AbortSignal.any` is kept alive by the signals it follows for as long as it
 * has a listener, so listeners are not left on it for the whole session.
 */
export class AbortWatch {
  private readonly listening = new Map<AbortSignal, () => void>();
  private readonly onAbort: (signal: AbortSignal) => void;
  private readonly inUse: (signal: AbortSignal) => boolean;

  /** `onAbort`: a watched signal aborted; `inUse`: whether a request still waits with a signal. */
  constructor(onAbort: (signal: AbortSignal) => void, inUse: (signal: AbortSignal) => boolean) {
    this.onAbort = onAbort;
    this.inUse = inUse;
  }

  watch(signal: AbortSignal | undefined): void {
    if (signal === undefined || this.listening.has(signal)) return;
    for (const [old, listener] of this.listening) {
      if (this.inUse(old)) continue;
      old.removeEventListener("abort", listener);
      this.listening.delete(old);
    }
    const listener = (): void => {
      this.listening.delete(signal);
      this.onAbort(signal);
    };
    signal.addEventListener("abort", listener, { once: true });
    this.listening.set(signal, listener);
  }
}
