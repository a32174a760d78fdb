import type { PreparedSession } from "../../session/types.js";
import type { ReplNotification, ReplOptions } from "../types.js";
import { errorText, type UiStore } from "./store.js";

export interface IdleNotifierOptions {
  store: UiStore;
  /** How long the prompt waits before the `idle_prompt` notification. */
  delayMs: number;
  now: () => number;
  /** The running session, if any: its notification hooks run. */
  session: () => PreparedSession | undefined;
  /** Replaces the session's hooks (tests). */
  notify?: ReplOptions["notify"];
  /** No idle notification once the user asked to leave. */
  exiting: () => boolean;
}

/** The idle clock of the prompt: armed when the agent waits for input, cleared when a turn starts. */
export class IdleNotifier {
  readonly #o: IdleNotifierOptions;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: IdleNotifierOptions) {
    this.#o = options;
  }

  arm(): void {
    this.clear();
    if (this.#o.exiting()) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#notify({ message: "acai is waiting for your input", notificationType: "idle_prompt" });
    }, this.#o.delayMs);
    this.#timer.unref?.();
  }

  clear(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Any key at the prompt: the user is here, restart the clock if it runs. */
  activity(): void {
    if (this.#timer) this.arm();
  }

  /** The session's notification hooks (or the injected `notify`); their activity is shown. */
  #notify(notification: ReplNotification): void {
    const { store, now } = this.#o;
    const session = this.#o.session();
    if (!session) return;
    const injected = this.#o.notify;
    Promise.resolve()
      .then(async () => {
        if (injected) {
          await injected(session, notification);
          return;
        }
        const activity = await session.notify(notification.message, notification.notificationType);
        // Shown only if the session is still the one the hooks ran for.
        if (this.#o.session() !== session) return;
        for (const event of activity) store.dispatch({ type: "event", event, at: now() });
      })
      .catch((error: unknown) =>
        store.item({ kind: "warning", text: `notification hooks failed: ${errorText(error)}` }),
      );
  }
}
