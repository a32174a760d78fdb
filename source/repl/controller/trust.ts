import { reviewLines } from "../../session/review.js";
import type { ProjectHooksMode, ProjectTrustState } from "../../session/types.js";
import { inertText } from "../../terminal/inert-text.js";
import { errorText, type UiStore } from "./store.js";

export interface TrustStepOptions {
  store: UiStore;
  /** Set once the user asked to leave (Ctrl-D, Ctrl-C twice, SIGTERM). */
  exiting: () => boolean;
}

/**
 * Whether this REPL session takes the project's hooks, tools and settings:
 * with `require-trust` and an untrusted project, the trust screen asks; the
 * banners say what was left out and why.
 */
export class TrustStep {
  readonly #store: UiStore;
  readonly #exiting: () => boolean;
  #state: ProjectTrustState | undefined;
  #choice: ((mode: ProjectHooksMode) => void) | undefined;

  constructor(options: TrustStepOptions) {
    this.#store = options.store;
    this.#exiting = options.exiting;
  }

  /** The project's trust state, once `decide` has it. */
  get state(): ProjectTrustState | undefined {
    return this.#state;
  }

  /** The mode to prepare sessions with, or "exit" when the user left from the trust screen. */
  async decide(
    requested: ProjectHooksMode,
    trust: ProjectTrustState,
  ): Promise<ProjectHooksMode | "exit"> {
    this.#state = trust;
    const cannotTrust = trust.review.incomplete;
    let mode = requested;
    if (mode === "require-trust" && trust.status === "untrusted" && cannotTrust !== undefined) {
      this.#banner(
        `This project's hooks, tools and settings are off: they cannot be trusted (${inertText(cannotTrust)}).`,
      );
      return "off";
    }
    if (mode === "require-trust" && trust.status === "untrusted") {
      mode = await this.#ask(trust);
      if (this.#exiting()) return "exit";
    }
    this.#sayLeftOut(mode, trust);
    return mode;
  }

  /** The user's choice on the trust screen; "trust" records it first. */
  choose(choice: "trust" | "off"): Promise<void> {
    const resolve = this.#choice;
    if (!resolve) return Promise.resolve();
    if (choice === "off") {
      resolve("off");
      return Promise.resolve();
    }
    return (this.#state?.trust() ?? Promise.resolve()).then(
      () => resolve("require-trust"),
      (error: unknown) => {
        this.#store.item({
          kind: "error",
          text: `Could not record trust: ${errorText(error)}. Running without project hooks.`,
        });
        resolve("off");
      },
    );
  }

  /** Leaving while the trust screen shows: answer it with "off". */
  cancel(): void {
    this.#choice?.("off");
  }

  async #ask(trust: ProjectTrustState): Promise<ProjectHooksMode> {
    const mode = await new Promise<ProjectHooksMode>((resolve) => {
      this.#choice = resolve;
      this.#store.set({
        phase: "trust",
        trust: trust.untrusted,
        trustReview: reviewLines(trust.review),
      });
    });
    this.#choice = undefined;
    this.#store.set({ trust: null });
    return mode;
  }

  #sayLeftOut(mode: ProjectHooksMode, trust: ProjectTrustState): void {
    if (mode !== "off") return;
    if (trust.status === "untrusted" && trust.review.incomplete === undefined) {
      this.#banner(
        "Project hooks, tools and settings are off for this session (not trusted). Run `acai hooks trust` to enable them.",
      );
    } else if (trust.status === "trusted") {
      this.#banner("Project hooks, tools and settings are off (--no-project).");
    }
  }

  #banner(text: string): void {
    this.#store.item({ kind: "banner", tone: "warn", text });
  }
}
