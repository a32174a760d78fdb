import type { SessionEndReason } from "../agent/event-data.js";
import type { AskUser } from "../hooks/run/activity.js";
import type { ModelPrice } from "../models/pricing.js";
import type { PermissionMode } from "../permissions/rules.js";
import { windDownMs } from "../process/wind-down.js";
import type { ResumeRequest } from "../session/resume/find.js";
import type { PreparedSession, ProjectHooksMode, ProjectTrustState } from "../session/types.js";
import type { AskAnswer } from "./ask-choices.js";
import { parseCommand } from "./commands.js";
import { HookQuestions } from "./controller/asks.js";
import { IdleNotifier } from "./controller/idle.js";
import { relayLine } from "./controller/relay-line.js";
import { exitCodeAfter, streamSession } from "./controller/session-run.js";
import { type Restart, runSlashCommand } from "./controller/slash-commands.js";
import { errorText, type UiState, UiStore } from "./controller/store.js";
import { TrustStep } from "./controller/trust.js";
import { Turns } from "./controller/turns.js";
import { loadMarkdown } from "./markdown/load.js";
import type { PromptQueue } from "./prompt-queue.js";
import { startFailureCode } from "./start-error.js";
import type { Action } from "./state.js";
import type { ReplOptions, TurnInput } from "./types.js";

export type { UiState } from "./controller/store.js";

export type CtrlCResult = "aborted" | "clear" | "hint" | "exit";

export type ControllerOptions = ReplOptions & {
  clearScreen?: () => void;
  /** Close the prompt queue after the initial prompt (no keyboard). */
  exitAfterInitialPrompt?: boolean;
};

const DOUBLE_PRESS_MS = 2000;
/** The least wait for session_end hooks after an exit request. */
const MIN_EXIT_WAIT_MS = 15_000;

/**
 * Owns the session loop: trust first, then sessions one after another (`/clear`
 * and `/model` start a new one), then exit. Its parts: the UI store, the turns
 * (prompt queue, per-turn aborts), hook questions, the idle notifier, the trust
 * step and the slash commands (`controller/`). The App only renders `UiState`
 * and forwards keys to the methods below.
 */
export class ReplController {
  readonly #o: ControllerOptions;
  readonly #now: () => number;
  readonly #store = new UiStore();
  readonly #asks: HookQuestions;
  readonly #idle: IdleNotifier;
  readonly #turns: Turns;
  readonly #trust: TrustStep;
  readonly #historyFile: string;

  #session: PreparedSession | undefined;
  #sessionAbort: AbortController | undefined;
  #lastCtrlC = Number.NEGATIVE_INFINITY;
  #restart: Restart | undefined;
  /** The next session follows a /clear: its session_start source is `clear`. */
  #afterClear = false;
  /** The session the next one picks up: undefined = the CLI's choice (first session), null = none. */
  #resume: ResumeRequest | null | undefined;
  /** The project set the first session took with trust-once (undefined until then). */
  #projectSetTaken: string | null | undefined;
  #exitRequested = false;
  /** Set by `/model <spec>`; absent: the CLI's choice. */
  #model: string | undefined;
  #initialPrompt: string | undefined;
  /** The mode chosen with Shift-Tab, for the sessions that follow (/clear, /model). */
  #mode: PermissionMode | undefined;
  /** Set by `/model <spec>`: the next session confirms which model it runs. */
  #announceModel = false;

  constructor(options: ControllerOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
    this.#initialPrompt = options.initialPrompt;
    this.#historyFile = options.historyFile ?? `${options.acaiHome}/repl-history.jsonl`;
    const store = this.#store;
    const exiting = () => this.#exitRequested;
    this.#asks = new HookQuestions({ store, exiting, session: () => this.#session });
    this.askUser = this.#asks.ask;
    this.#idle = new IdleNotifier({
      store,
      exiting,
      delayMs: options.idleNotifyMs ?? 60_000,
      now: this.#now,
      session: () => this.#session,
      ...(options.notify ? { notify: options.notify } : {}),
    });
    this.#turns = new Turns({ store, idle: this.#idle });
    this.#trust = new TrustStep({ store, exiting });
  }

  // ── store (for useSyncExternalStore) ────────────────────────────────────
  subscribe = (listener: () => void): (() => void) => this.#store.subscribe(listener);

  getState = (): UiState => this.#store.getState();

  dispatch(action: Action): void {
    this.#store.dispatch(action);
  }

  /** Hands hook questions to the UI (given to every session's interceptor). */
  readonly askUser: AskUser;

  // ── lifecycle ───────────────────────────────────────────────────────────
  /** Runs trust screen, sessions (several, with /clear and /model) and exit. Resolves the exit code. */
  async run(): Promise<number> {
    const { loadHistory } = await historyModule();
    this.#store.set({ history: await loadHistory(this.#historyFile) });
    const trust = await this.#loadTrust();
    if (typeof trust === "number") return this.#finish(trust);
    const mode = await this.#trust.decide(this.#o.projectHooks, trust);
    if (mode === "exit") return this.#finish(130);
    return this.#runSessions(mode);
  }

  /** The project's trust state, or the exit code when it could not be found (a bad settings file: 2). */
  async #loadTrust(): Promise<ProjectTrustState | number> {
    try {
      return typeof this.#o.trust === "function" ? await this.#o.trust() : this.#o.trust;
    } catch (error) {
      this.#store.item({ kind: "error", text: `Could not start a session: ${errorText(error)}` });
      return startFailureCode(error);
    }
  }

  /** Sessions one after another until the user leaves or one ends by itself. */
  async #runSessions(mode: ProjectHooksMode): Promise<number> {
    let previousModel: string | undefined;
    for (;;) {
      // Ctrl-D while the UI came up: nothing started, nothing to end.
      if (this.#exitRequested) return this.#finish(0);
      this.#store.set({ phase: "starting" });
      const session = await this.#prepare(mode, previousModel);
      if (session === "retry") continue;
      if (typeof session === "number") return this.#finish(session);
      previousModel = session.modelId;
      const reason = await this.#runOne(session);
      const restart = this.#restart;
      this.#restart = undefined;
      if (restart && !this.#exitRequested) {
        this.#applyRestart(restart);
        continue;
      }
      return this.#finish(exitCodeAfter(reason, this.#exitRequested));
    }
  }

  /** A prepared session; "retry" after a failed `/model` switch (back to the previous model); else the exit code. */
  async #prepare(
    mode: ProjectHooksMode,
    previousModel: string | undefined,
  ): Promise<PreparedSession | "retry" | number> {
    try {
      const session = await this.#o.prepare({
        askUser: this.askUser,
        projectHooks: mode,
        ...(this.#projectSetTaken === undefined ? {} : { projectSetTaken: this.#projectSetTaken }),
        ...(this.#model ? { model: this.#model } : {}),
        ...(this.#resume !== undefined ? { resume: this.#resume } : {}),
      });
      // -c / --resume / `/resume` pick up a session once; /clear and /model start new ones.
      this.#resume = null;
      // The project set taken for this run (trust-once): later sessions take it only unchanged.
      if (mode === "trust-once") this.#projectSetTaken ??= session.hooks.projectSet ?? null;
      return session;
    } catch (error) {
      this.#store.item({ kind: "error", text: `Could not start a session: ${errorText(error)}` });
      if (previousModel === undefined || this.#model === previousModel) {
        return startFailureCode(error);
      }
      this.#model = previousModel;
      this.#store.item({ kind: "banner", tone: "warn", text: `Going back to ${previousModel}.` });
      return "retry";
    }
  }

  /** Shows the session, opens its prompt queue and runs it to its end. */
  async #runOne(session: PreparedSession): Promise<SessionEndReason | undefined> {
    this.#session = session;
    this.#asks.forget();
    this.#applyMode(session);
    // The Markdown renderer loads behind the first frame, before any answer can arrive.
    const [price] = await Promise.all([this.#price(session), loadMarkdown()]);
    this.#store.dispatch({
      type: "session",
      model: session.modelId,
      sessionId: session.sessionId,
      ...(price ? { price } : {}),
    });
    if (this.#announceModel) {
      this.#announceModel = false;
      this.#store.item({
        kind: "banner",
        tone: "info",
        text: `model: ${session.modelId} (a new session: token and cost counts start at 0)`,
      });
    }
    for (const warning of session.warnings) this.#store.item({ kind: "warning", text: warning });
    const relay = session.relay;
    const relayInUse = relay
      ? relayLine(this.#store, relay, this.#o.agentNamed === true)
      : () => {};
    const queue = this.#turns.open();
    if (this.#exitRequested) {
      // Asked to exit while the session was being prepared: end it at once (session_end runs).
      queue.close(true);
    } else {
      this.#ready(queue);
      // Messages from other agents come as prompts of their own, queued like typed ones.
      relay?.deliverAsTurns((message) => {
        relayInUse();
        this.#turns.message(message);
      });
      // Messages dropped by relay.acceptFrom, store rows moved aside: for the user, not the model.
      relay?.onNote((text) => this.#store.item({ kind: "warning", text }));
    }
    const reason = await this.#runSession(session, queue, relayInUse);
    this.#session = undefined;
    return reason;
  }

  /** The prompt is open: the initial prompt first, then what was typed while starting. */
  #ready(queue: PromptQueue<TurnInput>): void {
    this.#store.set({ phase: "ready" });
    const initial = this.#initialPrompt;
    if (initial?.trim()) {
      this.#initialPrompt = undefined;
      this.submit(initial);
      if (this.#o.exitAfterInitialPrompt) queue.close();
    }
    this.#turns.flushEarly(queue);
  }

  async #runSession(
    session: PreparedSession,
    queue: PromptQueue<TurnInput>,
    relayInUse: () => void,
  ): Promise<SessionEndReason | undefined> {
    const sessionAbort = new AbortController();
    this.#sessionAbort = sessionAbort;
    try {
      return await streamSession(session, {
        queue,
        wake: (prompt) => this.#turns.wake(prompt),
        signal: sessionAbort.signal,
        // Asked when the prompts run out: the user left (Ctrl-D, /exit, Ctrl-C twice) or
        // started another session (/clear, /model); otherwise the input simply ended.
        endReason: () => endReasonOf(this.#exitRequested, this.#restart),
        ...(this.#afterClear ? { source: "clear" as const } : {}),
        store: this.#store,
        now: this.#now,
        // agent-relay's onIdle inject: a turn of its own while the prompt waits.
        onIdle: (text) => this.#turns.idle(text),
        onEvent: (event) => {
          if (event.type === "message_sent") relayInUse();
        },
      });
    } finally {
      queue.close(true);
      this.#idle.clear();
      this.#turns.reset();
      this.#sessionAbort = undefined;
      this.#store.set({ busy: false, queued: 0 });
    }
  }

  /** The session checks calls in the mode chosen earlier in this run, if any; the status line shows it. */
  #applyMode(session: PreparedSession): void {
    const controls = session.permissions;
    if (controls && this.#mode !== undefined && controls.modes.includes(this.#mode)) {
      controls.setMode(this.#mode);
    }
    this.#store.set({ mode: controls?.mode() ?? session.permissionMode });
  }

  #applyRestart(restart: Restart): void {
    this.#afterClear = restart.clear;
    if (restart.clear) {
      this.#o.clearScreen?.();
      this.#store.dispatch({ type: "clear" });
    }
    if (restart.model !== undefined) {
      this.#model = restart.model;
      this.#announceModel = true;
    }
    if (restart.resume !== undefined) this.#resume = { kind: "id", id: restart.resume };
  }

  async #price(session: PreparedSession): Promise<ModelPrice | undefined> {
    try {
      return (await this.#o.pricing?.(session)) ?? undefined;
    } catch {
      return undefined; // Cost is a nicety: without a price the status line shows none.
    }
  }

  #finish(code: number): number {
    this.#idle.clear();
    this.#asks.denyAll();
    this.#store.set({ phase: "done", ask: null, askView: null, busy: false });
    return code;
  }

  // ── user actions ────────────────────────────────────────────────────────
  chooseTrust(choice: "trust" | "off"): Promise<void> {
    return this.#trust.choose(choice);
  }

  /** A line was submitted at the prompt. */
  submit(line: string): void {
    this.#lastCtrlC = Number.NEGATIVE_INFINITY;
    this.#store.set({ hint: null });
    const command = parseCommand(line);
    if (command) {
      runSlashCommand(command, {
        store: this.#store,
        session: () => this.#session,
        projectHasHooks: () => this.#trust.state?.status !== "no-project-hooks",
        newSession: (restart) => this.#newSession(restart),
        compact: (instructions) => this.#turns.sendCommand("compact", instructions),
        requestExit: () => this.requestExit(),
      });
      return;
    }
    if (!line.trim()) return;
    this.#remember(line);
    this.#turns.send(line);
  }

  #remember(line: string): void {
    const { history } = this.#store.getState();
    if (history[history.length - 1] !== line) this.#store.set({ history: [...history, line] });
    void historyModule()
      .then(({ appendHistory }) => appendHistory(this.#historyFile, line, { now: this.#now() }))
      .then((error) => {
        if (error) this.#store.item({ kind: "warning", text: error });
      });
  }

  #newSession(restart: Restart): void {
    const queue = this.#turns.queue;
    if (!queue || this.#store.getState().phase !== "ready") return;
    this.#restart = restart;
    this.#store.set({ phase: "switching" });
    this.#turns.abortCurrent();
    queue.close(true);
  }

  /** Esc: deny a pending question, else abort the running turn. */
  escape(): void {
    if (this.#asks.pending) {
      this.answer({ kind: "no" });
      return;
    }
    this.abortTurn();
  }

  abortTurn(): boolean {
    return this.#turns.abortTurn();
  }

  ctrlC(lineEmpty: boolean): CtrlCResult {
    const now = this.#now();
    const double = now - this.#lastCtrlC < DOUBLE_PRESS_MS;
    this.#lastCtrlC = now;
    const { phase } = this.#store.getState();
    if (double || phase === "trust" || phase === "exiting") {
      this.requestExit();
      return "exit";
    }
    if (this.abortTurn()) {
      this.#store.set({ hint: "Turn aborted. Press Ctrl-C again to exit." });
      return "aborted";
    }
    if (!lineEmpty) return "clear";
    this.#store.set({ hint: "Press Ctrl-C again (or Ctrl-D) to exit." });
    return "hint";
  }

  /** Ctrl-D, /exit, Ctrl-C twice, SIGTERM. A second request stops waiting for session_end hooks. */
  requestExit(): void {
    if (this.#store.getState().phase === "done") return;
    if (this.#exitRequested) {
      this.#sessionAbort?.abort();
      return;
    }
    this.#exitRequested = true;
    this.#trust.cancel();
    this.#store.set({ phase: "exiting", hint: "Ending the session (session_end hooks)…" });
    this.#turns.abortCurrent();
    this.#asks.denyAll();
    this.#store.set({ ask: null, askView: null });
    this.#turns.queue?.close(true);
    // session_end hooks (and async hooks) may use the whole session-end budget as configured.
    const budget =
      this.#o.exitBudgetMs ?? windDownMs(this.#session?.sessionEndBudgetMs ?? 0, MIN_EXIT_WAIT_MS);
    const timer = setTimeout(() => this.#sessionAbort?.abort(), budget);
    timer.unref?.();
  }

  /** Any key at the prompt: the user is here, restart the idle clock. */
  activity(): void {
    this.#idle.activity();
  }

  answer(answer: AskAnswer): void {
    this.#asks.answer(answer);
  }

  /** The folder `@` completes file names in: the running session's, else where acai started. */
  cwd = (): string => this.#session?.cwd ?? this.#o.cwd ?? process.cwd();

  /** Shift-Tab: the next permission mode of the running session; later sessions of this run keep it. */
  cycleMode(): void {
    const controls = this.#session?.permissions;
    if (!controls) return;
    const { modes } = controls;
    const next = modes[(modes.indexOf(controls.mode()) + 1) % modes.length] ?? "default";
    controls.setMode(next);
    this.#mode = next;
    this.#store.set({ mode: next });
  }
}

/** zod (for history lines) is not needed for the first frame: loaded on first use, then cached by Node. */
function historyModule(): Promise<typeof import("./history.js")> {
  return import("./history.js");
}

/** Why a session whose prompts ran out ended: the user left, /clear, another session, or it completed. */
function endReasonOf(exitRequested: boolean, restart: Restart | undefined): SessionEndReason {
  if (exitRequested) return "user_exit";
  if (restart?.clear === true) return "clear";
  return restart === undefined ? "completed" : "user_exit";
}
