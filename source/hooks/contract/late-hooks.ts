/**
 * Hooks a plugin registers after its `register(api)` returned (OpenClaw's
 * "supporting dynamic addition"): the plugin's worker reports each one
 * (run/plugins/), discovery turns it into a definition like any other
 * registration (discover/plugins.ts), and the interceptor of the run going
 * on — and of every later run — adds it to its index. A registration that
 * cannot be loaded becomes a warning the user sees, never silence.
 */
import type { HookDefinition } from "./definition.js";

/** One late registration: a hook to add, or why it was not added (named for the user). */
export type LateHook = { kind: "hook"; hook: HookDefinition } | { kind: "broken"; message: string };

/** Configured order of late hooks: after every hook the registry loaded, in the order they came. */
const LATE_ORDER_BASE = 1_000_000;

export class LateHooks {
  readonly #arrived: LateHook[] = [];
  readonly #listeners = new Set<(late: LateHook) => void>();
  /** Problems that arrived while no run listened: the next run shows them. */
  #unshown: string[] = [];

  /** Every late registration so far, in order (a run that starts later indexes these). */
  get arrived(): readonly LateHook[] {
    return this.#arrived;
  }

  add(late: LateHook): void {
    if (late.kind === "hook") late.hook.order = LATE_ORDER_BASE + this.#arrived.length;
    this.#arrived.push(late);
    if (late.kind === "broken" && this.#listeners.size === 0) this.#unshown.push(late.message);
    for (const listener of this.#listeners) listener(late);
  }

  /** The problems no run has shown yet (and from now on none). */
  takeUnshown(): string[] {
    const unshown = this.#unshown;
    this.#unshown = [];
    return unshown;
  }

  /** Called with each registration that arrives from now on; returns the unsubscribe. */
  subscribe(listener: (late: LateHook) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
