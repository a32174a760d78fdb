/**
 * What one intercepted run shares. The options it is given
 * (`InterceptorOptions`) are in options.ts. `RunContext`: what
 * one intercepted run shares between its parts (the pump, gates, background
 * work, the audit): resolved options, the session as seen so far, the signals
 * that stop hooks, and the queues of what was raised beside the loop. Made
 * once per run by `createRunContext`.
 */
import path from "node:path";
import type { AgentEvent } from "../../../agent/events.js";
import type { Verdict } from "../../../agent/verdicts.js";
import { type ProcessStarter, startProcess } from "../../../process/long-lived.js";
import type { HookDefinition, HookEventName } from "../../contract/definition.js";
import { isObserveOnly } from "../../contract/events/names.js";
import type { SessionInfo } from "../../contract/payload.js";
import { type HookActivityEvent, hookWarning, type InterceptedEvent } from "../activity.js";
import { type ConsideredMemo, createConsideredMemo } from "../considered.js";
import { createPersistentHost, type PersistentHost } from "../persistent/host.js";
import { createHookIndex, type HookIndex } from "../plan.js";
import { createSpill } from "../spill.js";
import { DEFAULT_CONTEXT_CAP_CHARS } from "../step.js";
import { type AuditRecorder, createAuditRecorder } from "./audit-recorder.js";
import { hookRuns, type RelayEffectOptions, type RunnerFor } from "./hook-runs.js";
import type { InterceptorOptions } from "./options.js";

export const DEFAULT_SESSION_END_BUDGET_MS = 5000;
const DEFAULT_MAX_RETRIES = 3;

export type AgentRun = AsyncGenerator<AgentEvent, void, Verdict | undefined>;
export type InterceptedRun = AsyncGenerator<InterceptedEvent, void, undefined>;

/** Runs the `notification` hooks now; resolves with their activity once they are done. */
export type NotifyHooks = (
  message: string,
  notificationType: string,
) => Promise<HookActivityEvent[]>;

/** Work running beside the loop (async hooks, notification hooks). */
export interface Background {
  controller: AbortController;
  done: Promise<void>;
}

export interface RunContext {
  options: InterceptorOptions;
  now: () => number;
  /** Context cap per answer. */
  cap: number;
  budgetMs: number;
  maxRetries: number;
  session: SessionInfo;
  /** Fired by the caller's signal or when the interceptor closes: kills every running hook. */
  stopAll: AbortController;
  /** Fired only when the interceptor closes: session_end hooks still run after an abort. */
  closing: AbortController;
  background: Set<Background>;
  /** Activity (and notifications) raised beside the loop, yielded at the next opportunity. */
  pendingActivity: InterceptedEvent[];
  /** Context of observers and async hooks, for the next before_model verdict. */
  pendingContext: string[];
  /**
   * session_end's hooks asked for a last turn: the rest of session end (the
   * background within the budget, persistent hooks stopped) waits for it.
   */
  sessionEndDeferred: boolean;
  index: HookIndex;
  /** Every hook configured per event, disabled ones too (the audit's `considered` lines). */
  configured: ReadonlyMap<HookEventName, readonly HookDefinition[]>;
  /** The `considered` line's hooks, remembered where they can be (considered.ts). */
  consideredHooks: ConsideredMemo;
  audit: AuditRecorder;
  /** The persistent hooks' processes (hooks.md §6.4), started at their first request. */
  persistent: PersistentHost;
  /** What stops the sync hooks of an event: the session's abort, and the running turn's. */
  hookSignal(event: HookEventName): AbortSignal;
  /** Runs a hook of this event with the payload built for it (hook-runs.ts). */
  runnerFor: RunnerFor;
  /** Releases the caller's signal. */
  detach(): void;
}

export function createRunContext(
  options: InterceptorOptions,
  byEvent: ReadonlyMap<HookEventName, readonly HookDefinition[]>,
  configured: ReadonlyMap<HookEventName, readonly HookDefinition[]> = byEvent,
): RunContext {
  const spent = new Set<string>();
  const now = options.now ?? Date.now;
  const session = sessionInfo(options);
  const pendingActivity: InterceptedEvent[] = [];
  const warn = (event: InterceptedEvent): void => {
    pendingActivity.push(event);
  };
  const stopAll = new AbortController();
  const onAbort = (): void => stopAll.abort();
  if (options.signal?.aborted) stopAll.abort();
  else options.signal?.addEventListener("abort", onAbort, { once: true });
  const persistent = persistentHost(options, session);
  const cap = options.contextCapChars ?? DEFAULT_CONTEXT_CAP_CHARS;
  const spill = createSpill({ acaiHome: options.acaiHome, sessionId: () => session.sessionId });
  return {
    options,
    now,
    cap,
    budgetMs: options.sessionEndBudgetMs ?? DEFAULT_SESSION_END_BUDGET_MS,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    session,
    stopAll,
    closing: new AbortController(),
    background: new Set(),
    pendingActivity,
    pendingContext: [],
    sessionEndDeferred: false,
    index: hookIndex(options, session, byEvent, warn, spent),
    configured,
    consideredHooks: createConsideredMemo(),
    audit: createAuditRecorder({
      ...(options.audit === undefined ? {} : { audit: options.audit }),
      acaiHome: options.acaiHome,
      now,
      sessionId: () => session.sessionId,
      onFailure: (message) => warn({ type: "hook_warning", message }),
    }),
    persistent,
    hookSignal: turnAwareSignal(options, stopAll.signal),
    runnerFor: hookRuns({
      options,
      session,
      persistent,
      relay: relayEffects(options, warn),
      now,
      warnChanged: (hook, text) => warn(hookWarning(hook, text)),
      spent,
      spill,
      contextCapChars: cap,
    }),
    detach: () => options.signal?.removeEventListener("abort", onAbort),
  };
}

/** The session as hooks see it; the id and transcript arrive with session_start. */
function sessionInfo(options: InterceptorOptions): SessionInfo {
  const info: SessionInfo = {
    sessionId: "",
    transcriptPath: "",
    cwd: options.projectDir,
    projectName: path.basename(options.projectDir),
    ...(options.agentName === undefined ? {} : { agentName: options.agentName }),
  };
  // The mode as it is when each payload is built: the REPL's Shift-Tab changes it mid-session.
  const mode = options.permissionMode;
  if (mode !== undefined) {
    Object.defineProperty(info, "permissionMode", {
      enumerable: true,
      get: typeof mode === "function" ? mode : () => mode,
    });
  }
  return info;
}

/** The run's hooks by event; a matcher that cannot be evaluated is warned about once and matches nothing. */
function hookIndex(
  options: InterceptorOptions,
  session: SessionInfo,
  byEvent: ReadonlyMap<HookEventName, readonly HookDefinition[]>,
  warn: (event: InterceptedEvent) => void,
  spent: ReadonlySet<string>,
): HookIndex {
  const warnedMatchers = new Set<string>();
  return createHookIndex(byEvent, {
    projectDir: options.projectDir,
    sessionId: () => session.sessionId,
    spent,
    ...(options.ruleCatches === undefined ? {} : { ruleCatches: options.ruleCatches }),
    onBadMatcher: (hook, error) => {
      if (warnedMatchers.has(hook.id)) return;
      warnedMatchers.add(hook.id);
      warn(
        hookWarning(
          hook,
          `hook "${hook.name}" (${hook.file}) has a matcher that cannot be evaluated (${error.message}); it is not run`,
        ),
      );
    },
  });
}

function relayEffects(
  options: InterceptorOptions,
  warn: (event: InterceptedEvent) => void,
): RelayEffectOptions {
  return {
    ...(options.unlimitedInjection === undefined
      ? {}
      : { unlimitedInjection: options.unlimitedInjection }),
    ...(options.onSendMessage === undefined ? {} : { onSendMessage: options.onSendMessage }),
    warn,
  };
}

function persistentHost(options: InterceptorOptions, session: SessionInfo): PersistentHost {
  return createPersistentHost({
    starter: options.starter ?? startProcess,
    ...starterFor(options.launchFor),
    env: options.env,
    projectDir: options.projectDir,
    sessionId: () => session.sessionId,
    ...(options.maxOutputBytes === undefined ? {} : { maxLineBytes: options.maxOutputBytes }),
  });
}

/**
 * The session's signal joined with the running turn's (REPL Esc), cached per
 * turn; once the turn is aborted, observe-only events still run their hooks
 * (they see how the turn ended).
 */
function turnAwareSignal(
  options: InterceptorOptions,
  session: AbortSignal,
): (event: HookEventName) => AbortSignal {
  let turnOf: { turn: AbortSignal; both: AbortSignal } | undefined;
  return (event) => {
    const turn = options.turnSignal?.();
    if (turn === undefined || (turn.aborted && isObserveOnly(event))) return session;
    if (turnOf?.turn !== turn) turnOf = { turn, both: AbortSignal.any([session, turn]) };
    return turnOf.both;
  };
}

/** Persistent hooks start through their own hook's starter when the session gives one per hook. */
function starterFor(launchFor: InterceptorOptions["launchFor"]): {
  starterFor?: (hook: HookDefinition) => ProcessStarter;
} {
  return launchFor === undefined ? {} : { starterFor: (hook) => launchFor(hook).starter };
}
