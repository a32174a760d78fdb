import type { SessionEndReason } from "../agent/events.js";
import type { AskRequest, AskUser } from "../hooks/activity.js";
import type { ModelPrice } from "../models/pricing.js";
import { windDownMs } from "../process/wind-down.js";
import { reviewLines } from "../session/review.js";
import type {
  PreparedSession,
  ProjectHooksMode,
  ProjectTrustState,
  UntrustedHookInfo,
} from "../session/types.js";
import { inertText } from "../terminal/inert-text.js";
import { COMMAND_HELP, type Command, KEY_HELP, parseCommand } from "./commands.js";
import { buildHooksSnapshot } from "./hooks-snapshot.js";
import { PromptQueue } from "./prompt-queue.js";
import { type Action, initialViewState, type NewItem, reduce, type ViewState } from "./state.js";
import type { ReplNotification, ReplOptions, TurnInput } from "./types.js";

export type Phase = "trust" | "starting" | "ready" | "switching" | "exiting" | "done";

/** Everything the App renders, as one immutable snapshot. */
export interface UiState {
  view: ViewState;
  phase: Phase;
  /** A turn is running (the agent took a prompt and has not asked for the next one). */
  busy: boolean;
  ask: AskRequest | null;
  /** Untrusted project hooks waiting for the user's choice. */
  trust: UntrustedHookInfo[] | null;
  /** The rest of the review (root, changes, settings), inert lines; empty when none. */
  trustReview: string[];
  /** Prompts submitted while a turn runs, not yet taken by the agent. */
  queued: number;
  hint: string | null;
  history: string[];
}

export type CtrlCResult = "aborted" | "clear" | "hint" | "exit";

interface PendingAsk {
  request: AskRequest;
  resolve: (allowed: boolean) => void;
}

export type ControllerOptions = ReplOptions & {
  clearScreen?: () => void;
  /** Close the prompt queue after the initial prompt (no keyboard). */
  exitAfterInitialPrompt?: boolean;
};

const DOUBLE_PRESS_MS = 2000;

/**
 * Owns the session loop: the prompt queue the agent pulls turns from, the
 * per-turn abort controllers, hook questions, commands and exit. The App only
 * renders `UiState` and forwards keys.
 */
export class ReplController {
  readonly #o: ControllerOptions;
  readonly #now: () => number;
  readonly #listeners = new Set<() => void>();
  #state: UiState;
  #emitTimer: ReturnType<typeof setTimeout> | undefined;

  #session: PreparedSession | undefined;
  #queue: PromptQueue<TurnInput> | undefined;
  #sessionAbort: AbortController | undefined;
  readonly #turnAborts = new Map<TurnInput, AbortController>();
  #currentTurn: AbortController | undefined;
  #asks: PendingAsk[] = [];
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  #lastCtrlC = Number.NEGATIVE_INFINITY;
  #restart: { model?: string; clear: boolean } | undefined;
  #exitRequested = false;
  #trustChoice: ((mode: ProjectHooksMode) => void) | undefined;
  #trust: ProjectTrustState | undefined;
  #model: string | undefined;
  readonly #historyFile: string;
  #initialPrompt: string | undefined;
  /** Prompts submitted while a session was starting. */
  #early: string[] = [];

  constructor(options: ControllerOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
    this.#initialPrompt = options.initialPrompt;
    this.#historyFile = options.historyFile ?? `${options.acaiHome}/repl-history.jsonl`;
    this.#state = {
      view: initialViewState(),
      phase: "starting",
      busy: false,
      ask: null,
      trust: null,
      trustReview: [],
      queued: 0,
      hint: null,
      history: [],
    };
  }

  // ── store (for useSyncExternalStore) ────────────────────────────────────
  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  getState = (): UiState => this.#state;

  #set(patch: Partial<UiState>, immediate = true): void {
    this.#state = { ...this.#state, ...patch };
    if (immediate) {
      if (this.#emitTimer) clearTimeout(this.#emitTimer);
      this.#emitTimer = undefined;
      for (const listener of this.#listeners) listener();
    } else if (!this.#emitTimer) {
      // Streamed tokens: one render per frame at most.
      this.#emitTimer = setTimeout(() => {
        this.#emitTimer = undefined;
        for (const listener of this.#listeners) listener();
      }, 16);
    }
  }

  dispatch(action: Action): void {
    const streaming = action.type === "event" && action.event.type === "text_delta";
    this.#set({ view: reduce(this.#state.view, action) }, !streaming);
  }

  #item(item: NewItem): void {
    this.dispatch({ type: "item", item });
  }

  // ── lifecycle ───────────────────────────────────────────────────────────
  /** Runs trust screen, sessions (several, with /clear and /model) and exit. Resolves the exit code. */
  async run(): Promise<number> {
    this.#set({ history: await (await historyModule()).loadHistory(this.#historyFile) });
    let mode = this.#o.projectHooks;
    let trust: ProjectTrustState;
    try {
      trust = typeof this.#o.trust === "function" ? await this.#o.trust() : this.#o.trust;
    } catch (error) {
      this.#item({ kind: "error", text: `Could not start a session: ${errorText(error)}` });
      return this.#finish(1);
    }
    this.#trust = trust;
    const cannotTrust = trust.review.incomplete;
    if (mode === "require-trust" && trust.status === "untrusted" && cannotTrust !== undefined) {
      this.#item({
        kind: "banner",
        tone: "warn",
        text: `This project's hooks, tools and settings are off: they cannot be trusted (${inertText(cannotTrust)}).`,
      });
      mode = "off";
    } else if (mode === "require-trust" && trust.status === "untrusted") {
      mode = await new Promise<ProjectHooksMode>((resolve) => {
        this.#trustChoice = resolve;
        this.#set({
          phase: "trust",
          trust: trust.untrusted,
          trustReview: reviewLines(trust.review),
        });
      });
      this.#trustChoice = undefined;
      this.#set({ trust: null });
      if (this.#exitRequested) return this.#finish(130);
    }
    if (mode === "off" && trust.status === "untrusted" && cannotTrust !== undefined) {
      // said above
    } else if (mode === "off" && trust.status === "untrusted") {
      this.#item({
        kind: "banner",
        tone: "warn",
        text: "Project hooks, tools and settings are off for this session (not trusted). Run `acai hooks trust` to enable them.",
      });
    } else if (mode === "off" && trust.status === "trusted") {
      this.#item({
        kind: "banner",
        tone: "warn",
        text: "Project hooks, tools and settings are off (--no-project).",
      });
    }

    let previousModel: string | undefined;
    for (;;) {
      // Ctrl-D while the UI came up: nothing started, nothing to end.
      if (this.#exitRequested) return this.#finish(0);
      this.#set({ phase: "starting" });
      let session: PreparedSession;
      try {
        session = await this.#o.prepare({
          askUser: this.askUser,
          projectHooks: mode,
          ...(this.#model ? { model: this.#model } : {}),
        });
      } catch (error) {
        this.#item({ kind: "error", text: `Could not start a session: ${errorText(error)}` });
        if (previousModel !== undefined && this.#model !== previousModel) {
          this.#model = previousModel;
          this.#item({ kind: "banner", tone: "warn", text: `Going back to ${previousModel}.` });
          continue;
        }
        return this.#finish(1);
      }
      this.#session = session;
      previousModel = session.modelId;
      const price = await this.#price(session);
      this.dispatch({
        type: "session",
        model: session.modelId,
        sessionId: session.sessionId,
        ...(price ? { price } : {}),
      });
      for (const warning of session.warnings) this.#item({ kind: "warning", text: warning });
      const queue = this.#openQueue();
      if (this.#exitRequested) {
        // Asked to exit while the session was being prepared: end it at once (session_end runs).
        queue.close(true);
      } else {
        this.#set({ phase: "ready" });
        const initial = this.#initialPrompt;
        if (initial?.trim()) {
          this.#initialPrompt = undefined;
          this.submit(initial);
          if (this.#o.exitAfterInitialPrompt) queue.close();
        }
        for (const line of this.#early.splice(0)) this.#push(queue, line, false);
      }
      const reason = await this.#runSession(session, queue);
      this.#session = undefined;
      const restart = this.#restart;
      this.#restart = undefined;
      if (restart && !this.#exitRequested) {
        if (restart.clear) {
          this.#o.clearScreen?.();
          this.dispatch({ type: "clear" });
        }
        if (restart.model !== undefined) this.#model = restart.model;
        continue;
      }
      if (this.#exitRequested) return this.#finish(reason === "error" ? 1 : 0);
      // The session ended by itself: a hook stopped it or the loop failed.
      return this.#finish(reason === "completed" || reason === "user_exit" ? 0 : 1);
    }
  }

  async #price(session: PreparedSession): Promise<ModelPrice | undefined> {
    try {
      return (await this.#o.pricing?.(session)) ?? undefined;
    } catch {
      return undefined; // Cost is a nicety: without a price the status line shows none.
    }
  }

  #finish(code: number): number {
    this.#clearIdle();
    for (const ask of this.#asks) ask.resolve(false);
    this.#asks = [];
    this.#set({ phase: "done", ask: null, busy: false });
    return code;
  }

  #openQueue(): PromptQueue<TurnInput> {
    const queue = new PromptQueue<TurnInput>({
      onTake: (item) => {
        this.#currentTurn = this.#turnAborts.get(item);
        this.#turnAborts.delete(item);
        this.#clearIdle();
        this.#set({ busy: true, queued: this.#queue?.size ?? 0 });
      },
      onWait: () => {
        this.#currentTurn = undefined;
        this.#set({ busy: false });
        this.#armIdle();
      },
    });
    this.#queue = queue;
    return queue;
  }

  async #runSession(
    session: PreparedSession,
    queue: PromptQueue<TurnInput>,
  ): Promise<SessionEndReason | undefined> {
    const sessionAbort = new AbortController();
    this.#sessionAbort = sessionAbort;
    let reason: SessionEndReason | undefined;
    try {
      const events = session.run({
        prompts: queue,
        signal: sessionAbort.signal,
        // Asked when the prompts run out: the user left (Ctrl-D, /exit, Ctrl-C twice) or
        // started another session (/clear, /model); otherwise the input simply ended.
        endReason: () => (this.#exitRequested || this.#restart ? "user_exit" : "completed"),
      });
      for await (const event of events) {
        this.dispatch({ type: "event", event, at: this.#now() });
        if (event.type === "session_end") reason = event.reason;
      }
    } catch (error) {
      reason = "error";
      this.#item({ kind: "error", text: `The agent loop stopped: ${errorText(error)}` });
    } finally {
      queue.close(true);
      this.#clearIdle();
      this.#currentTurn = undefined;
      this.#turnAborts.clear();
      this.#queue = undefined;
      this.#sessionAbort = undefined;
      this.#set({ busy: false, queued: 0 });
    }
    return reason;
  }

  // ── user actions ────────────────────────────────────────────────────────
  chooseTrust(choice: "trust" | "off"): Promise<void> {
    const resolve = this.#trustChoice;
    if (!resolve) return Promise.resolve();
    if (choice === "off") {
      resolve("off");
      return Promise.resolve();
    }
    return (this.#trust?.trust() ?? Promise.resolve()).then(
      () => resolve("require-trust"),
      (error: unknown) => {
        this.#item({
          kind: "error",
          text: `Could not record trust: ${errorText(error)}. Running without project hooks.`,
        });
        resolve("off");
      },
    );
  }

  /** A line was submitted at the prompt. */
  submit(line: string): void {
    this.#lastCtrlC = Number.NEGATIVE_INFINITY;
    this.#set({ hint: null });
    const command = parseCommand(line);
    if (command) {
      this.#command(command);
      return;
    }
    if (!line.trim()) return;
    this.#remember(line);
    const queue = this.#queue;
    if (!queue || queue.closed) {
      if (this.#state.phase === "starting" || this.#state.phase === "switching") {
        // Typed before the session is ready: sent as soon as it is.
        this.#early.push(line);
        this.#item({ kind: "banner", tone: "dim", text: `queued: ${line.split("\n")[0] ?? ""}` });
        return;
      }
      this.#item({ kind: "error", text: "No session is running; the prompt was not sent." });
      return;
    }
    this.#push(queue, line);
  }

  #push(queue: PromptQueue<TurnInput>, line: string, announce = true): void {
    const abort = new AbortController();
    const input: TurnInput = { prompt: line, signal: abort.signal };
    this.#turnAborts.set(input, abort);
    queue.push(input);
    // Still in the map: the agent did not take it at once, a turn is running.
    if (this.#turnAborts.has(input)) {
      this.#set({ queued: queue.size });
      if (announce)
        this.#item({ kind: "banner", tone: "dim", text: `queued: ${line.split("\n")[0] ?? ""}` });
    }
  }

  #remember(line: string): void {
    const history = this.#state.history;
    if (history[history.length - 1] !== line) this.#set({ history: [...history, line] });
    void historyModule()
      .then(({ appendHistory }) => appendHistory(this.#historyFile, line, { now: this.#now() }))
      .then((error) => {
        if (error) this.#item({ kind: "warning", text: error });
      });
  }

  #command(command: Command): void {
    switch (command.name) {
      case "help":
        this.#item({
          kind: "notice",
          title: "Commands",
          lines: [],
          table: [...COMMAND_HELP, ...KEY_HELP],
        });
        return;
      case "hooks": {
        const session = this.#session;
        if (!session) {
          this.#item({ kind: "error", text: "No session is running." });
          return;
        }
        this.#item({
          kind: "hooks",
          snapshot: buildHooksSnapshot(
            session.hooks,
            this.#state.view.hookLast,
            this.#trust?.status !== "no-project-hooks",
          ),
        });
        return;
      }
      case "clear":
        this.#newSession({ clear: true });
        return;
      case "model":
        if (!command.spec) {
          this.#item({
            kind: "notice",
            lines: [
              `model: ${this.#state.view.model || "(unknown)"}`,
              "`/model <spec>` starts a new session with another model.",
            ],
          });
          return;
        }
        this.#item({ kind: "banner", tone: "info", text: `Switching to ${command.spec}…` });
        this.#newSession({ clear: false, model: command.spec });
        return;
      case "expand": {
        const tools = this.#state.view.items.flatMap((item) =>
          item.kind === "tool" ? [item.tool] : [],
        );
        const tool =
          command.seq === undefined
            ? tools[tools.length - 1]
            : tools.find((t) => t.seq === command.seq);
        if (!tool) {
          this.#item({
            kind: "error",
            text: `No tool block ${command.seq ?? ""} to expand.`.replace("  ", " "),
          });
          return;
        }
        this.#item({
          kind: "detail",
          title: `[${tool.seq}] ${tool.toolName} output`,
          text: tool.output ?? "(no output)",
        });
        return;
      }
      case "exit":
        this.requestExit();
        return;
      case "unknown":
        this.#item({
          kind: "error",
          text: `Unknown command ${command.text}. /help lists commands.`,
        });
        return;
      default:
        command satisfies never;
    }
  }

  #newSession(restart: { clear: boolean; model?: string }): void {
    if (!this.#queue || this.#state.phase !== "ready") return;
    this.#restart = restart;
    this.#set({ phase: "switching" });
    this.#currentTurn?.abort();
    this.#queue.close(true);
  }

  /** Esc: deny a pending question, else abort the running turn. */
  escape(): void {
    if (this.#asks.length > 0) {
      this.answer(false);
      return;
    }
    this.abortTurn();
  }

  abortTurn(): boolean {
    const turn = this.#currentTurn;
    if (!this.#state.busy || !turn) return false;
    if (!turn.signal.aborted) {
      turn.abort();
      this.dispatch({ type: "aborting" });
    }
    return true;
  }

  ctrlC(lineEmpty: boolean): CtrlCResult {
    const now = this.#now();
    const double = now - this.#lastCtrlC < DOUBLE_PRESS_MS;
    this.#lastCtrlC = now;
    if (double || this.#state.phase === "trust" || this.#state.phase === "exiting") {
      this.requestExit();
      return "exit";
    }
    if (this.abortTurn()) {
      this.#set({ hint: "Turn aborted. Press Ctrl-C again to exit." });
      return "aborted";
    }
    if (!lineEmpty) return "clear";
    this.#set({ hint: "Press Ctrl-C again (or Ctrl-D) to exit." });
    return "hint";
  }

  /** Ctrl-D, /exit, Ctrl-C twice, SIGTERM. A second request stops waiting for session_end hooks. */
  requestExit(): void {
    if (this.#state.phase === "done") return;
    if (this.#exitRequested) {
      this.#sessionAbort?.abort();
      return;
    }
    this.#exitRequested = true;
    this.#trustChoice?.("off");
    this.#set({ phase: "exiting", hint: "Ending the session (session_end hooks)…" });
    this.#currentTurn?.abort();
    for (const ask of this.#asks) ask.resolve(false);
    this.#asks = [];
    this.#set({ ask: null });
    this.#queue?.close(true);
    // session_end hooks (and async hooks) may use the whole session-end budget as configured.
    const budget =
      this.#o.exitBudgetMs ?? windDownMs(this.#session?.sessionEndBudgetMs ?? 0, 15_000);
    const timer = setTimeout(() => this.#sessionAbort?.abort(), budget);
    timer.unref?.();
  }

  /** Any key at the prompt: the user is here, restart the idle clock. */
  activity(): void {
    if (this.#idleTimer) this.#armIdle();
  }

  // ── hook questions ──────────────────────────────────────────────────────
  askUser: AskUser = (request, signal) =>
    new Promise<boolean>((resolve) => {
      if (signal.aborted || this.#exitRequested) {
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
        this.#set({ ask: this.#asks[0]?.request ?? null });
        resolve(false);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#asks.push(pending);
      // The interceptor has run the notification hooks for this ask already (every mode does).
      if (this.#asks.length === 1) this.#set({ ask: request });
    });

  answer(allowed: boolean): void {
    const pending = this.#asks.shift();
    if (!pending) return;
    this.#item({
      kind: "ask",
      name: pending.request.hook.name,
      reason: pending.request.reason,
      allowed,
    });
    pending.resolve(allowed);
    this.#set({ ask: this.#asks[0]?.request ?? null });
  }

  // ── notifications ───────────────────────────────────────────────────────
  #armIdle(): void {
    this.#clearIdle();
    if (this.#exitRequested) return;
    const ms = this.#o.idleNotifyMs ?? 60_000;
    this.#idleTimer = setTimeout(() => {
      this.#idleTimer = undefined;
      this.#notify({ message: "acai is waiting for your input", notificationType: "idle_prompt" });
    }, ms);
    this.#idleTimer.unref?.();
  }

  #clearIdle(): void {
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
  }

  /** The session's notification hooks (or the injected `notify`); their activity is shown. */
  #notify(notification: ReplNotification): void {
    const session = this.#session;
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
        if (this.#session !== session) return;
        for (const event of activity) this.dispatch({ type: "event", event, at: this.#now() });
      })
      .catch((error: unknown) =>
        this.#item({ kind: "warning", text: `notification hooks failed: ${errorText(error)}` }),
      );
  }
}

// zod (for history lines) is not needed for the first frame.
let history: Promise<typeof import("./history.js")> | undefined;
function historyModule(): Promise<typeof import("./history.js")> {
  history ??= import("./history.js");
  return history;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
