/**
 * The timeouts of one persistent hook process's requests (hooks.md §5: a
 * timeout per request), on one timer rather than one per request: all of a
 * hook's requests have the same timeout, so the oldest request waiting is the
 * first to pass it. Made by the first request, kept while requests come
 * (unref'd while none waits, so it keeps nothing alive), and when it fires
 * it either moves on to the oldest request still waiting or says that one is
 * past its timeout — never before the request's own timeout. Setting and
 * clearing a timer for each request was on the path from one hook's answer
 * to the next hook's request.
 */
export class RequestTimeout {
  private timer: NodeJS.Timeout | undefined;
  private readonly ms: number;
  /** When the oldest request still waiting was sent (`performance.now()`), if one is. */
  private readonly oldestSentAt: () => number | undefined;
  private readonly onPast: () => void;

  constructor(ms: number, oldestSentAt: () => number | undefined, onPast: () => void) {
    this.ms = ms;
    this.oldestSentAt = oldestSentAt;
    this.onPast = onPast;
  }

  /** A request was sent. */
  sent(): void {
    if (this.timer === undefined) this.timer = setTimeout(() => this.fire(), this.ms);
    else this.timer.ref();
  }

  /** No request waits. */
  idle(): void {
    this.timer?.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private fire(): void {
    this.timer = undefined;
    const sentAt = this.oldestSentAt();
    if (sentAt === undefined) return;
    const left = sentAt + this.ms - performance.now();
    if (left > 0) this.timer = setTimeout(() => this.fire(), Math.ceil(left));
    else this.onPast();
  }
}
