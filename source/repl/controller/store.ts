import type { AskRequest } from "../../hooks/run/activity.js";
import type { PermissionMode } from "../../permissions/rules.js";
import type { UntrustedHookInfo } from "../../session/types.js";
import type { AskChoice } from "../ask-choices.js";
import type { EditPreview } from "../edit-preview.js";
import { type Action, initialViewState, type NewItem, reduce, type ViewState } from "../state.js";

export interface AskView {
  choices: AskChoice[];
  preview?: EditPreview;
}

type Phase = "trust" | "starting" | "ready" | "switching" | "exiting" | "done";

/** Everything the App renders, as one immutable snapshot. */
export interface UiState {
  view: ViewState;
  phase: Phase;
  /** A turn is running (the agent took a prompt and has not asked for the next one). */
  busy: boolean;
  ask: AskRequest | null;
  /** How the question on screen may be answered, and the diff of a Write or Edit. */
  askView: AskView | null;
  /** The permission mode the running session checks tool calls in (Shift-Tab cycles it). */
  mode: PermissionMode | null;
  /** Untrusted project hooks waiting for the user's choice. */
  trust: UntrustedHookInfo[] | null;
  /** The rest of the review (root, changes, settings), inert lines; empty when none. */
  trustReview: string[];
  /** Prompts submitted while a turn runs, not yet taken by the agent. */
  queued: number;
  hint: string | null;
  history: string[];
}

/** Streamed tokens render at most once per frame (about 60 a second). */
const FRAME_MS = 16;

/**
 * The UI state and its listeners (for `useSyncExternalStore`). Every part of the
 * controller writes through it; only text deltas are batched to a frame.
 */
export class UiStore {
  readonly #listeners = new Set<() => void>();
  #state: UiState = {
    view: initialViewState(),
    phase: "starting",
    busy: false,
    ask: null,
    askView: null,
    mode: null,
    trust: null,
    trustReview: [],
    queued: 0,
    hint: null,
    history: [],
  };
  #emitTimer: ReturnType<typeof setTimeout> | undefined;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  getState = (): UiState => this.#state;

  set(patch: Partial<UiState>, immediate = true): void {
    this.#state = { ...this.#state, ...patch };
    if (immediate) {
      if (this.#emitTimer) clearTimeout(this.#emitTimer);
      this.#emitTimer = undefined;
      this.#emit();
    } else if (!this.#emitTimer) {
      this.#emitTimer = setTimeout(() => {
        this.#emitTimer = undefined;
        this.#emit();
      }, FRAME_MS);
    }
  }

  dispatch(action: Action): void {
    const streaming = action.type === "event" && action.event.type === "text_delta";
    this.set({ view: reduce(this.#state.view, action) }, !streaming);
  }

  item(item: NewItem): void {
    this.dispatch({ type: "item", item });
  }

  #emit(): void {
    for (const listener of this.#listeners) listener();
  }
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
