import type { AskRequest, AskUser, UserAnswer } from "../../hooks/run/activity.js";
import type { PreparedSession } from "../../session/types.js";
import { type AskAnswer, askChoices, callKey } from "../ask-choices.js";
import { summarizeToolInput } from "../format.js";
import type { UiStore } from "./store.js";

interface PendingAsk {
  request: AskRequest;
  resolve: (answer: UserAnswer) => void;
}

export interface HookQuestionsOptions {
  store: UiStore;
  /** While the session is ending, every question is denied without being shown. */
  exiting: () => boolean;
  /** The running session: its permission controls keep rules, its folder places relative paths. */
  session: () => PreparedSession | undefined;
}

/** What the user said to tell the model is kept to this many characters. */
const MAX_BECAUSE = 2000;

/**
 * Questions for the user — a tool call's permission, a hook's `ask` — one on
 * screen at a time, in order. A question whose turn is aborted leaves the
 * queue as denied. A call the user allowed "for this exact call" is allowed
 * again without asking, for the rest of the session (`forget` at a new one).
 */
export class HookQuestions {
  readonly #o: HookQuestionsOptions;
  #asks: PendingAsk[] = [];
  #allowedCalls = new Set<string>();

  constructor(options: HookQuestionsOptions) {
    this.#o = options;
  }

  get pending(): boolean {
    return this.#asks.length > 0;
  }

  /** A new session: calls allowed for the old one ask again. */
  forget(): void {
    this.#allowedCalls.clear();
  }

  ask: AskUser = (request, signal) =>
    new Promise<UserAnswer>((resolve) => {
      if (signal.aborted || this.#o.exiting()) {
        resolve(false);
        return;
      }
      if (this.#allowedBefore(request)) {
        this.#record(request, true, "allowed for this exact call this session");
        resolve(true);
        return;
      }
      const pending: PendingAsk = {
        request,
        resolve: (answer) => {
          signal.removeEventListener("abort", onAbort);
          resolve(answer);
        },
      };
      const onAbort = () => {
        this.#asks = this.#asks.filter((a) => a !== pending);
        this.#show();
        resolve(false);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#asks.push(pending);
      // The interceptor has run the notification hooks for this ask already (every mode does).
      if (this.#asks.length === 1) this.#show();
    });

  /** The user's answer to the question on screen; the next one (if any) takes its place. */
  answer(answer: AskAnswer): void {
    const pending = this.#asks.shift();
    if (!pending) return;
    const { request } = pending;
    // Only what the question offered counts: anything else is a plain yes or no.
    const offered = this.#choices(request).some((c) => c.answer.kind === answer.kind);
    const given: AskAnswer = offered ? answer : answer.kind === "no" ? answer : { kind: "yes" };
    if (given.kind === "no") {
      const because = given.because?.trim().slice(0, MAX_BECAUSE);
      this.#record(request, false, because ? `told the model: ${because}` : undefined);
      pending.resolve(because ? { allowed: false, because } : false);
    } else {
      this.#record(request, true, this.#keep(request, given));
      pending.resolve(true);
    }
    this.#show();
  }

  /** Denies every waiting question; the caller clears `ask` in the state with its own update. */
  denyAll(): void {
    for (const ask of this.#asks) ask.resolve(false);
    this.#asks = [];
  }

  #choices(request: AskRequest) {
    const controls = this.#o.session()?.permissions;
    return askChoices(request, {
      projectRulesOff: controls?.projectRulesOff,
      ...(controls ? { keepable: controls.keepable } : {}),
    });
  }

  #allowedBefore(request: AskRequest): boolean {
    if (request.hook !== undefined || request.protected !== undefined) return false;
    if (request.toolName === undefined) return false;
    return this.#allowedCalls.has(callKey(request.toolName, request.toolInput));
  }

  /** Keeps what a "don't ask again" answer asks to keep; says what was kept. */
  #keep(request: AskRequest, answer: Exclude<AskAnswer, { kind: "no" }>): string | undefined {
    const controls = this.#o.session()?.permissions;
    switch (answer.kind) {
      case "yes":
        return undefined;
      case "yes-call":
        this.#allowedCalls.add(callKey(request.toolName ?? "", request.toolInput));
        return "not asked again for this exact call this session";
      case "yes-session": {
        const kept = controls?.allowForSession(answer.rule);
        if (kept?.ok) return `kept for this session: ${answer.rule}`;
        this.#warn(
          `${answer.rule} was not kept: ${kept?.error ?? "the session's rules cannot change"}`,
        );
        return undefined;
      }
      case "yes-project":
        void controls?.allowForProject(answer.rule).then(
          (kept) =>
            kept.ok
              ? this.#o.store.item({
                  kind: "banner",
                  tone: "dim",
                  text: `${answer.rule} written to ${kept.where}`,
                })
              : this.#warn(`${answer.rule} was not kept in the project: ${kept.error}`),
          (error: unknown) =>
            this.#warn(`${answer.rule} was not kept in the project: ${String(error)}`),
        );
        return `keeping in this project: ${answer.rule}`;
      default:
        return answer satisfies never;
    }
  }

  #warn(text: string): void {
    this.#o.store.item({ kind: "warning", text });
  }

  /** "you allowed/denied …": under the hook's own line for a hook's question, else at once. */
  #record(request: AskRequest, allowed: boolean, note: string | undefined): void {
    const { hook, event, reason, toolName, toolInput } = request;
    const extra = note === undefined ? {} : { note };
    if (hook === undefined) {
      // A permission question: no hook line to wait for.
      const tool = `${toolName ?? event} ${summarizeToolInput(toolName ?? "", toolInput, 60)}`;
      this.#o.store.dispatch({
        type: "item",
        item: { kind: "ask", tool: tool.trim(), reason, allowed, ...extra },
      });
      return;
    }
    // Shown below the hook's own line, once the hook has ended (its hook_end follows the answer).
    this.#o.store.dispatch({
      type: "answered",
      answer: {
        hookId: hook.id,
        event,
        item: { kind: "ask", name: hook.name, reason, allowed, ...extra },
      },
    });
  }

  /** The first waiting question on screen, with its choices and, for a Write or Edit, its diff. */
  #show(): void {
    const request = this.#asks[0]?.request ?? null;
    if (request === null) {
      this.#o.store.set({ ask: null, askView: null });
      return;
    }
    this.#o.store.set({ ask: request, askView: { choices: this.#choices(request) } });
    if (request.toolName !== "Write" && request.toolName !== "Edit") return;
    const cwd = this.#o.session()?.cwd ?? process.cwd();
    // jsdiff loads with the first Write or Edit question, not with the first frame.
    void import("../edit-preview.js").then(({ editPreview }) => {
      const preview = editPreview(request.toolName, request.toolInput, cwd);
      const { ask, askView } = this.#o.store.getState();
      if (preview && ask === request && askView)
        this.#o.store.set({ askView: { ...askView, preview } });
    });
  }
}
