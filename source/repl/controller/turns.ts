import type { IncomingMessage } from "../../agent/event-data.js";
import { IdleReminders } from "../../session/idle-reminders.js";
import { inertText } from "../../terminal/inert-text.js";
import { PromptQueue } from "../prompt-queue.js";
import type { TurnInput } from "../types.js";
import type { IdleNotifier } from "./idle.js";
import type { UiStore } from "./store.js";

export interface TurnsOptions {
  store: UiStore;
  idle: IdleNotifier;
}

/**
 * The prompts of the running session: the queue the agent pulls turns from,
 * one AbortController per submitted prompt (Esc and Ctrl-C abort the running
 * one), and the prompts typed before a session was ready.
 */
export class Turns {
  readonly #store: UiStore;
  readonly #idle: IdleNotifier;
  #queue: PromptQueue<TurnInput> | undefined;
  readonly #aborts = new Map<TurnInput, AbortController>();
  #current: AbortController | undefined;
  /** Prompts submitted while a session was starting. */
  #early: string[] = [];
  /** What idle hooks injected, as turns: never the same reminder twice while the agent stays idle. */
  #reminders = new IdleReminders<TurnInput>();

  constructor(options: TurnsOptions) {
    this.#store = options.store;
    this.#idle = options.idle;
  }

  /** The open queue, if a session is running. */
  get queue(): PromptQueue<TurnInput> | undefined {
    return this.#queue;
  }

  /** A new session's queue: taking a prompt starts a turn, waiting on it arms the idle clock. */
  open(): PromptQueue<TurnInput> {
    const queue = new PromptQueue<TurnInput>({
      onTake: (item) => {
        this.#reminders.taken(item);
        this.#current = this.#aborts.get(item);
        this.#aborts.delete(item);
        this.#idle.clear();
        this.#store.set({ busy: true, queued: this.#queue?.size ?? 0 });
      },
      onWait: () => {
        this.#reminders.settled();
        this.#current = undefined;
        this.#store.set({ busy: false });
        this.#idle.arm();
      },
    });
    this.#queue = queue;
    this.#reminders = new IdleReminders<TurnInput>();
    return queue;
  }

  /** The session ended: nothing is running or queued any more. */
  reset(): void {
    this.#current = undefined;
    this.#aborts.clear();
    this.#queue = undefined;
  }

  /** A prompt line: to the running session, kept for the next one while it starts, else refused. */
  send(line: string): void {
    const queue = this.#queue;
    if (queue && !queue.closed) {
      this.#push(queue, line);
      return;
    }
    const { phase } = this.#store.getState();
    if (phase === "starting" || phase === "switching") {
      // Typed before the session is ready: sent as soon as it is.
      this.#early.push(line);
      this.#store.item({ kind: "banner", tone: "dim", text: `queued: ${firstLine(line)}` });
      return;
    }
    this.#store.item({ kind: "error", text: "No session is running; the prompt was not sent." });
  }

  /** A message from another agent: the next prompt of the running session (queued while a turn runs). */
  message(message: IncomingMessage): void {
    const queue = this.#queue;
    if (!queue || queue.closed) return; // Not settled: it stays for the next agent of this name.
    const abort = new AbortController();
    const input: TurnInput = { prompt: message.text, message, signal: abort.signal };
    this.#aborts.set(input, abort);
    queue.push(input);
    if (this.#aborts.has(input)) {
      this.#store.set({ queued: queue.size });
      this.#store.item({
        kind: "banner",
        tone: "dim",
        text: inertText(`queued: message from ${message.from}`),
      });
    }
  }

  /**
   * An async hook's wake-up (`asyncRewake`): a turn of the running session
   * like a typed prompt — after the prompts queued before it, Esc aborts it —
   * and returned to the session; undefined when no queue takes it.
   */
  wake(prompt: string): TurnInput | undefined {
    const queue = this.#queue;
    if (!queue || queue.closed) return undefined;
    const abort = new AbortController();
    const input: TurnInput = { prompt, signal: abort.signal };
    this.#aborts.set(input, abort);
    queue.push(input);
    if (this.#aborts.has(input)) {
      this.#store.set({ queued: queue.size });
      this.#store.item({ kind: "banner", tone: "dim", text: "queued: an async hook's wake-up" });
    }
    return input;
  }

  /**
   * What idle hooks injected (agent-relay's onIdle): while the agent waits
   * for a prompt, a turn of its own (true: taken, also when it is a repeat,
   * dropped); while a turn runs, false — it goes with the next model request —
   * unless it repeats the idle turn before this one (dropped).
   */
  idle(text: string): boolean {
    const queue = this.#queue;
    if (!queue || queue.closed) return false;
    // A turn runs: the next model request takes it, unless it repeats the idle turn just run.
    if (!queue.waiting) return this.#reminders.repeats(text);
    const abort = new AbortController();
    const turn = this.#reminders.turnFor(text, queue.queued, (prompt) => ({
      prompt,
      signal: abort.signal,
    }));
    if (turn === undefined) return true;
    this.#aborts.set(turn, abort);
    this.#store.item({
      kind: "banner",
      tone: "dim",
      text: inertText(`idle hook: ${firstLine(text)}`),
    });
    queue.push(turn);
    return true;
  }

  /** Sends what was typed while the session started (already announced as queued). */
  flushEarly(queue: PromptQueue<TurnInput>): void {
    for (const line of this.#early.splice(0)) this.#push(queue, line, false);
  }

  /** A command for the agent (`/compact`), queued like a prompt. */
  sendCommand(command: "compact", argument: string): void {
    const queue = this.#queue;
    if (!queue || queue.closed) {
      this.#store.item({ kind: "error", text: "No session is running." });
      return;
    }
    const abort = new AbortController();
    const input: TurnInput = { prompt: argument, signal: abort.signal, command };
    this.#aborts.set(input, abort);
    queue.push(input);
    this.#store.item({ kind: "banner", tone: "dim", text: "Compacting the conversation…" });
  }

  /** Aborts the running turn; false when none runs. */
  abortTurn(): boolean {
    const turn = this.#current;
    if (!this.#store.getState().busy || !turn) return false;
    if (!turn.signal.aborted) {
      turn.abort();
      this.#store.dispatch({ type: "aborting" });
    }
    return true;
  }

  /** Aborts the running turn, if any, without a word (session switch, exit). */
  abortCurrent(): void {
    this.#current?.abort();
  }

  #push(queue: PromptQueue<TurnInput>, line: string, announce = true): void {
    const abort = new AbortController();
    const input: TurnInput = { prompt: line, signal: abort.signal };
    this.#aborts.set(input, abort);
    queue.push(input);
    // Still in the map: the agent did not take it at once, a turn is running.
    if (this.#aborts.has(input)) {
      this.#store.set({ queued: queue.size });
      if (announce)
        this.#store.item({ kind: "banner", tone: "dim", text: `queued: ${firstLine(line)}` });
    }
  }
}

function firstLine(line: string): string {
  return line.split("\n")[0] ?? "";
}
