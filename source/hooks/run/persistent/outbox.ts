/**
 * The requests a chain asks of several persistent hook processes at once
 * (asking ahead, ask-ahead.ts), written back to back. Each write wakes a
 * hook process; on a machine with few cores the woken processes share them
 * with acai, so what acai does between two writes is stretched by every
 * process already woken. Inside `together`, a request's bookkeeping is done
 * as it is asked and only its write is held; when the asking is over the
 * held requests are written one after another, then each one's after-write
 * step runs (its timeout counts from then). Outside `together`, a request is
 * written at once. Nothing changes in what is written or in what order.
 */
import type { LongLived } from "../../../process/long-lived.js";

interface Held {
  proc: LongLived | undefined;
  text: string;
  written: () => void;
}

export class Outbox {
  private held: Held[] | undefined;

  /** Runs `ask`; the requests it makes are written when it returns (or throws). */
  together<T>(ask: () => T): T {
    if (this.held !== undefined) return ask();
    const held: Held[] = [];
    this.held = held;
    try {
      return ask();
    } finally {
      this.held = undefined;
      for (const one of held) one.proc?.write(one.text);
      for (const one of held) one.written();
    }
  }

  /** Writes `text` to `proc` now, or when the asking it is part of is over; then `written`. */
  send(proc: LongLived | undefined, text: string, written: () => void): void {
    if (this.held !== undefined) {
      this.held.push({ proc, text, written });
      return;
    }
    proc?.write(text);
    written();
  }
}
