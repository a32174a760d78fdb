/**
 * What one intercepted run is given and shares. `InterceptorOptions`: what the
 * session hands the interceptor (createHookInterceptor). `RunContext`: what
 * one intercepted run shares between its parts (the pump, gates, background
 * work, the audit): resolved options, the session as seen so far, the signals
 * that stop hooks, and the queues of what was raised beside the loop. Made
 * once per run by `createRunContext`.
 */
import path from "node:path";
import type { AgentEvent } from "../../../agent/events.js";
import type { Verdict } from "../../../agent/verdicts.js";
import type { PatternNamespaces } from "../../../patterns/namespaces.js";
import { type ProcessStarter, startProcess } from "../../../process/long-lived.js";
import type { ProcessRunner } from "../../../process/types.js";
import type { HookDefinition, HookEventName } from "../../contract/definition.js";
import { isObserveOnly } from "../../contract/events/names.js";
import type { LateHooks } from "../../contract/late-hooks.js";
import type { RuleCatches } from "../../contract/match.js";
import type { SessionInfo } from "../../contract/payload.js";
import type { HookFileCheck } from "../../discover/fingerprint.js";
import {
  type AskUser,
  type HookActivityEvent,
  hookWarning,
  type InterceptedEvent,
} from "../activity.js";
import type { AuditSink } from "../audit.js";
import type { NotificationEvent } from "../chain.js";
import type { HandlerServices } from "../handlers/services.js";
import type { TimerFunctions } from "../idle-timer.js";
import type { ValidateToolInput } from "../modify.js";
import { createPersistentHost, type PersistentHost } from "../persistent/host.js";
import { createHookIndex, type HookIndex } from "../plan.js";
import type { PluginHooks } from "../plugins/types.js";
import { createSpill, type Spill } from "../spill.js";
import { DEFAULT_CONTEXT_CAP_CHARS } from "../step.js";
import type { RewakeOutcome } from "../turn-signal.js";
import {
  type AuditRecorder,
  createAuditRecorder,
  hookRuns,
  type OnSendMessage,
  type RelayEffectOptions,
  type RunnerFor,
} from "./hook-runs.js";

export const DEFAULT_SESSION_END_BUDGET_MS = 5000;
const DEFAULT_MAX_RETRIES = 3;

export interface InterceptorOptions {
  /** Every configured hook; those with `disabled` set are never run (the audit log says why). */
  hooks: readonly HookDefinition[];
  /**
   * Judges a hook's `if` (a permission rule) against a tool call with the
   * session's shell parse and paths. Absent: a rule with content always
   * matches (the hook runs).
   */
  ruleCatches?: RuleCatches;
  runner: ProcessRunner;
  /** Starts persistent hooks' processes (hooks.md §6.4); default: acai's own (long-lived.ts). */
  starter?: ProcessStarter;
  /**
   * The runner and starter of one hook, when they differ per hook: the OS
   * sandbox with what the hook declared it needs (source/sandbox/). Default:
   * `runner` and `starter` for every hook. `sandboxed`: what they start runs
   * in the OS sandbox (the audit log's and the hook span's `sandboxed`).
   */
  launchFor?: (hook: HookDefinition) => {
    runner: ProcessRunner;
    starter: ProcessStarter;
    sandboxed: boolean;
  };
  /** Parent environment of hooks (secrets are scrubbed per hook). */
  env: Readonly<Record<string, string>>;
  /** Working directory of hooks and ACAI_PROJECT_DIR; its folder name is `project_name`. */
  projectDir: string;
  /** This agent's name (`--name`), sent to hooks as `agent_name`. */
  agentName?: string;
  /** Hook id → its `CLAUDE_ENV_FILE`, given to session_start hooks (session/shell-env.ts). */
  envFiles?: ReadonlyMap<string, string>;
  /** Where the audit log goes (`<acaiHome>/logs/hooks-audit.jsonl`) unless `audit` is given. */
  acaiHome: string;
  /** Aborting kills every running hook at once. */
  signal?: AbortSignal;
  /**
   * The abort signal of the running turn (REPL Esc), see `trackTurnSignals`.
   * Aborting it kills the hooks running for that turn and starts no further
   * gating hooks in it; observe-only hooks still see how the turn ended.
   */
  turnSignal?: () => AbortSignal | undefined;
  /**
   * An `asyncRewake` hook exited 2: its text becomes a turn of its own
   * (`trackTurnSignals`'s `rewake`). Absent: the wake-up cannot be delivered
   * and a warning says so.
   */
  rewake?: (hookName: string, text: string) => RewakeOutcome;
  /** The session's permission mode, sent to hooks as `permission_mode` (none: not sent); a function: read at each payload. */
  permissionMode?: string | (() => string);
  /** Answers `ask` and permission requests; without it they are denied unless `assumeYes`. */
  askUser?: AskUser;
  assumeYes?: boolean;
  /**
   * A headless run (acai -p): before_tool's `defer` stops the run with the
   * call pending. Otherwise, and inside subagents, a defer asks the permission.
   */
  deferrable?: boolean;
  /** Checks a tool input a hook modified; an invalid one makes that hook fail. */
  validateToolInput?: ValidateToolInput;
  /** Per hook answer (default 10,000). */
  contextCapChars?: number;
  /** How long session_end hooks and unfinished async hooks may take (default 5000 ms). */
  sessionEndBudgetMs?: number;
  /** Consecutive retries of one model request (default 3); past it the request goes ahead. */
  maxRetries?: number;
  /** The session's plugins (hooks/plugins/host.ts): runs their handlers. */
  plugins?: PluginHooks;
  /** What http, prompt, agent and mcp_tool hooks run through (handlers/services.ts). */
  handlers?: HandlerServices;
  /** Hooks plugins register after their `register(api)` returned: they join the run (late.ts). */
  lateHooks?: LateHooks;
  /** The hooks' files as the session loaded them (hooks/fingerprint.ts): a changed one is not run. */
  fingerprints?: HookFileCheck;
  /** Cap per output stream of a hook (default 1 MiB). */
  maxOutputBytes?: number;
  /** Async hooks running at once (default 8); the rest wait in a queue. */
  maxAsyncHooks?: number;
  /** Async hooks waiting for a slot (default 256); past it a hook is dropped, with a warning. */
  asyncQueueLimit?: number;
  now?: () => number;
  audit?: AuditSink;
  /**
   * The hand-off of agent-relay's `sendMessage` (hooks.md §4): called once per
   * answer that carries one, already validated (one message, content ≤ 5,000
   * characters). Without it such a message is not sent, with a warning.
   */
  onSendMessage?: OnSendMessage;
  /**
   * Built-in pattern namespaces (`memory`), run in-process before the
   * `pattern` hooks of their namespace; their reply leads the context.
   */
  patternNamespaces?: PatternNamespaces;
  /**
   * Built-in context for the start of the session (the memories of
   * `memory.injectOnStart`): asked when session_start is seen, delivered with
   * the first model request after the session_start hooks' own.
   */
  startContext?: () => Promise<readonly string[]>;
  /** Silence (ms) before the `idle` event, and between repeats while it lasts (default 30,000). */
  idleMs?: number;
  /** Timers of the idle event (tests). */
  idleTimers?: TimerFunctions;
  /**
   * Told when an idle period's hooks are done and answered with context. A
   * consumer waiting for input (a listening agent) may start a turn with it
   * and answer true (taken); else (false) it waits for the next model request.
   */
  onIdle?: (idle: { idleSeconds: number; context: readonly string[] }) => boolean;
  /** `capabilities.unlimitedInjection`: agent-relay's `inject` is not cut at 2,000 characters. */
  unlimitedInjection?: boolean;
  /** Told of every `notification` event as it is raised (the agent's transcript records it). */
  onNotification?: (event: NotificationEvent) => void;
}

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
  index: HookIndex;
  /** Every hook configured per event, disabled ones too (the audit's `considered` lines). */
  configured: ReadonlyMap<HookEventName, readonly HookDefinition[]>;
  audit: AuditRecorder;
  /** The persistent hooks' processes (hooks.md §6.4), started at their first request. */
  persistent: PersistentHost;
  /** What stops the sync hooks of an event: the session's abort, and the running turn's. */
  hookSignal(event: HookEventName): AbortSignal;
  /** Runs a hook of this event with the payload built for it (hook-runs.ts). */
  runnerFor: RunnerFor;
  /** Where hook texts over their caps go (spill.ts); cleaned when the run closes. */
  spill: Spill;
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
    index: hookIndex(options, session, byEvent, warn, spent),
    configured,
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
    spill,
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
