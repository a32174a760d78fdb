/**
 * What one intercepted run shares between its parts (the pump, gates,
 * background work, the audit): resolved options, the session as seen so far,
 * the signals that stop hooks, and the queues of what was raised beside the
 * loop. Made once per run by `createRunContext`.
 */
import path from "node:path";
import type { AgentEvent } from "../../../agent/events.js";
import { type ProcessStarter, startProcess } from "../../../process/long-lived.js";
import type { HookDefinition, HookEventName } from "../../contract/definition.js";
import { isObserveOnly } from "../../contract/events/names.js";
import type { GateState } from "../../contract/gate-state.js";
import { buildPayload, type SessionInfo } from "../../contract/payload.js";
import { hookWarning, type InterceptedEvent } from "../activity.js";
import type { RunHook } from "../chain.js";
import { createPersistentHost, type PersistentHost } from "../persistent/host.js";
import { createHookIndex, type HookIndex } from "../plan.js";
import { runHookOnce } from "../run.js";
import { DEFAULT_CONTEXT_CAP_CHARS } from "../step.js";
import { type AuditRecorder, createAuditRecorder } from "./audit-recorder.js";
import {
  DEFAULT_MAX_RETRIES,
  DEFAULT_SESSION_END_BUDGET_MS,
  type InterceptorOptions,
} from "./options.js";
import { applyRelayEffects, type RelayEffectOptions } from "./relay-effects.js";

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
  index: HookIndex;
  audit: AuditRecorder;
  /** The persistent hooks' processes (hooks.md §6.4), started at their first request. */
  persistent: PersistentHost;
  /** What stops the sync hooks of an event: the session's abort, and the running turn's. */
  hookSignal(event: HookEventName): AbortSignal;
  /** Runs a hook of this event with the payload built for it. */
  runnerFor(event: HookEventName, agentEvent: AgentEvent): RunHook;
  /** Releases the caller's signal. */
  detach(): void;
}

export function createRunContext(
  options: InterceptorOptions,
  byEvent: ReadonlyMap<HookEventName, readonly HookDefinition[]>,
): RunContext {
  const now = options.now ?? Date.now;
  const session: SessionInfo = {
    sessionId: "",
    transcriptPath: "",
    cwd: options.projectDir,
    ...(options.permissionMode === undefined ? {} : { permissionMode: options.permissionMode }),
    projectName: path.basename(options.projectDir),
    ...(options.agentName === undefined ? {} : { agentName: options.agentName }),
  };
  const pendingActivity: InterceptedEvent[] = [];
  const warnChanged = oncePerHook((hook, text) => pendingActivity.push(hookWarning(hook, text)));
  const stopAll = new AbortController();
  const onAbort = (): void => stopAll.abort();
  if (options.signal?.aborted) stopAll.abort();
  else options.signal?.addEventListener("abort", onAbort, { once: true });
  const warnedMatchers = new Set<string>();
  const relay: RelayEffectOptions = {
    ...(options.unlimitedInjection === undefined
      ? {}
      : { unlimitedInjection: options.unlimitedInjection }),
    ...(options.onSendMessage === undefined ? {} : { onSendMessage: options.onSendMessage }),
    warn: (event) => pendingActivity.push(event),
  };
  const persistent = createPersistentHost({
    starter: options.starter ?? startProcess,
    ...starterFor(options.launchFor),
    env: options.env,
    projectDir: options.projectDir,
    sessionId: () => session.sessionId,
    ...(options.maxOutputBytes === undefined ? {} : { maxLineBytes: options.maxOutputBytes }),
  });
  return {
    options,
    now,
    cap: options.contextCapChars ?? DEFAULT_CONTEXT_CAP_CHARS,
    budgetMs: options.sessionEndBudgetMs ?? DEFAULT_SESSION_END_BUDGET_MS,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    session,
    stopAll,
    closing: new AbortController(),
    background: new Set(),
    pendingActivity,
    pendingContext: [],
    index: createHookIndex(byEvent, {
      projectDir: options.projectDir,
      sessionId: () => session.sessionId,
      // A matcher that cannot be evaluated is warned about once and matches nothing.
      onBadMatcher: (hook, error) => {
        if (warnedMatchers.has(hook.id)) return;
        warnedMatchers.add(hook.id);
        pendingActivity.push(
          hookWarning(
            hook,
            `hook "${hook.name}" (${hook.file}) has a matcher that cannot be evaluated (${error.message}); it is not run`,
          ),
        );
      },
    }),
    audit: createAuditRecorder({
      ...(options.audit === undefined ? {} : { audit: options.audit }),
      acaiHome: options.acaiHome,
      now,
      sessionId: () => session.sessionId,
      onFailure: (message) => pendingActivity.push({ type: "hook_warning", message }),
    }),
    persistent,
    hookSignal: turnAwareSignal(options, stopAll.signal),
    runnerFor: (event, agentEvent) => {
      const payloadFor = samePayloads((state, hook) =>
        buildPayload({
          event,
          agentEvent,
          state,
          session,
          dialect: hook.dialect,
          trigger: hook.trigger,
          now: now(),
        }),
      );
      return async (hook, state, signal) => {
        const record = await runHookOnce(hook, event, payloadFor(state, hook), {
          runner: options.launchFor?.(hook).runner ?? options.runner,
          persistent,
          env: options.env,
          projectDir: options.projectDir,
          sessionId: session.sessionId,
          ...envFileOf(options, event, hook.id),
          signal,
          ...(options.maxOutputBytes === undefined
            ? {}
            : { maxOutputBytes: options.maxOutputBytes }),
          ...(options.plugins === undefined ? {} : { plugins: options.plugins }),
          ...(options.fingerprints === undefined
            ? {}
            : { fingerprints: options.fingerprints, onChanged: warnChanged }),
        });
        return applyRelayEffects(relay, hook, event, record);
      };
    },
    detach: () => options.signal?.removeEventListener("abort", onAbort),
  };
}

/** A hook whose file changed is warned about once: every later run of it fails the same way, in its hook_end and the audit. */
function oncePerHook(
  warn: (hook: HookDefinition, text: string) => void,
): (hook: HookDefinition, text: string) => void {
  const warned = new Set<string>();
  return (hook, text) => {
    if (warned.has(hook.id)) return;
    warned.add(hook.id);
    warn(hook, text);
  };
}

/**
 * One payload per values and dialect within an event: the hooks of a chain
 * asked together (ask-ahead.ts) share it, and with it its serialization
 * (persistent/protocol.ts); a hook that changed the values gets a new one.
 */
function samePayloads(
  build: (state: GateState, hook: HookDefinition) => unknown,
): (state: GateState, hook: HookDefinition) => unknown {
  const made = new WeakMap<GateState, Map<string, unknown>>();
  return (state, hook) => {
    let byShape = made.get(state);
    if (byShape === undefined) {
      byShape = new Map();
      made.set(state, byShape);
    }
    const key = `${hook.dialect}\u0000${hook.trigger ?? ""}`;
    let payload = byShape.get(key);
    if (payload === undefined) {
      payload = build(state, hook);
      byShape.set(key, payload);
    }
    return payload;
  };
}

/** `{envFile}` for a session_start hook that has one, else nothing. */
function envFileOf(
  options: InterceptorOptions,
  event: HookEventName,
  hookId: string,
): { envFile?: string } {
  const envFile = event === "session_start" ? options.envFiles?.get(hookId) : undefined;
  return envFile === undefined ? {} : { envFile };
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
