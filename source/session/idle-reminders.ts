/**
 * agent-relay's `onIdle` inject as a turn of its own (a waiting REPL, a
 * listening agent), never stacked: the same text while such a turn is still
 * queued is dropped, and so is the same text again after the idle turn it
 * started until another turn has run to its end — a reminder does not come
 * back while the agent stays idle. One rule for every consumer of idle turns.
 */
export class IdleReminders<T extends { prompt: string }> {
  /** The text of the last idle turn, until another turn has run. */
  #last: string | undefined;
  /** Another turn was taken and has not finished yet. */
  #otherRunning = false;
  readonly #turns = new WeakSet<T>();

  /**
   * The turn to queue for `text` (made by `make`), or undefined when it would
   * repeat: empty, one of `queued` already, or the last idle turn's text.
   */
  turnFor(text: string, queued: Iterable<T>, make: (prompt: string) => T): T | undefined {
    if (text.trim() === "" || this.repeats(text)) return undefined;
    for (const turn of queued) if (this.#turns.has(turn) && turn.prompt === text) return undefined;
    const turn = make(text);
    this.#turns.add(turn);
    return turn;
  }

  /** True when `text` is the last idle turn's and no other turn has run since. */
  repeats(text: string): boolean {
    return text === this.#last;
  }

  /** A turn was taken: an idle turn's text is remembered; another turn counts once it ends. */
  taken(turn: T): void {
    this.settled();
    if (this.#turns.has(turn)) this.#last = turn.prompt;
    else this.#otherRunning = true;
  }

  /** The turn taken last is over (the agent waits again). */
  settled(): void {
    if (this.#otherRunning) this.#last = undefined;
    this.#otherRunning = false;
  }
}
