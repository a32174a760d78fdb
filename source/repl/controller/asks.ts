import type { AskRequest, AskUser } from "../../hooks/run/activity.js";
import { summarizeToolInput } from "../format.js";
import type { UiStore } from "./store.js";

interface PendingAsk {
  request: AskRequest;
  resolve: (allowed: boolean) => void;
}

export interface HookQuestionsOptions {
  store: UiStore;
  /** While the session is ending, every question is denied without being shown. */
  exiting: () => boolean;
}

/**
 * Questions for the user — a tool call's permission, a hook's `ask` — one on
 * screen at a time, in order. A question whose turn is aborted leaves the
 * queue as denied.
 */
export class HookQuestions {
  readonly #store: UiStore;
  readonly #exiting: () => boolean;
  #asks: PendingAsk[] = [];

  constructor(options: HookQuestionsOptions) {
    this.#store = options.store;
    this.#exiting = options.exiting;
  }

  get pending(): boolean {
    return this.#asks.length > 0;
  }

  ask: AskUser = (request, signal) =>
    new Promise<boolean>((resolve) => {
      if (signal.aborted || this.#exiting()) {
        resolve(false);
        return;
      }
      const pending: PendingAsk = {
        request,
        resolve: (allowed) => {
          signal.removeEventListener("abort", onAbort);
          resolve(allowed);
        },
      };
      const onAbort = () => {
        this.#asks = this.#asks.filter((a) => a !== pending);
        this.#store.set({ ask: this.#asks[0]?.request ?? null });
        resolve(false);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#asks.push(pending);
      // The interceptor has run the notification hooks for this ask already (every mode does).
      if (this.#asks.length === 1) this.#store.set({ ask: request });
    });

  /** The user's answer to the question on screen; the next one (if any) takes its place. */
  answer(allowed: boolean): void {
    const pending = this.#asks.shift();
    if (!pending) return;
    const { hook, event, reason, toolName, toolInput } = pending.request;
    if (hook === undefined) {
      // A permission question: no hook line to wait for.
      const tool = `${toolName ?? event} ${summarizeToolInput(toolName ?? "", toolInput, 60)}`;
      this.#store.dispatch({
        type: "item",
        item: { kind: "ask", tool: tool.trim(), reason, allowed },
      });
    } else {
      // Shown below the hook's own line, once the hook has ended (its hook_end follows the answer).
      this.#store.dispatch({
        type: "answered",
        answer: { hookId: hook.id, event, item: { kind: "ask", name: hook.name, reason, allowed } },
      });
    }
    pending.resolve(allowed);
    this.#store.set({ ask: this.#asks[0]?.request ?? null });
  }

  /** Denies every waiting question; the caller clears `ask` in the state with its own update. */
  denyAll(): void {
    for (const ask of this.#asks) ask.resolve(false);
    this.#asks = [];
  }
}
