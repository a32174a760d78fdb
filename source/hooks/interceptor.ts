/**
 * The hook interceptor (hooks.md §1): a generator around `Agent.run()`.
 *
 * For each AgentEvent:
 * 1. activity left over from async hooks that finished meanwhile is yielded;
 * 2. the agent event itself is yielded to the consumer, as the agent emitted it
 *    (the consumer shows what is about to happen);
 * 3. the hooks of the mapped event run; their `hook_start` / `hook_end` /
 *    `hook_warning` events are yielded as they happen;
 * 4. the agent is resumed with the folded verdict (`gen.next(verdict)`).
 * An event no hook can match costs a map lookup or two (see plan.ts).
 *
 * Gating events run their hooks in a chain (fold.ts). Observe-only events run
 * theirs concurrently and the agent resumes when all are done; their context,
 * and that of async hooks, goes into the next before_model verdict. Their other
 * answers are ignored with a warning, except `stop` on after_agent, which is
 * passed on (the agent then ends the session "hook_stop").
 * Async hooks start with the event (seeing its original input) and are not
 * waited for; at most `maxAsyncHooks` run at once, the rest wait in a bounded
 * queue, and one that finds it full is dropped with a warning (async-pool.ts).
 * `retry` is bounded per model request by `maxRetries`; past it
 * the request goes ahead with a warning.
 * session_end hooks run even after an abort, within the session-end budget,
 * during which running async hooks may also finish; then the rest are killed.
 * After an abort, hooks of other events are no longer started, and a chain cut
 * by the abort answers block ("aborted"): a tool whose check did not finish
 * does not run. A turn abort (`turnSignal`) does the same within its turn,
 * except that the observe-only events that follow it (after_tool_failure,
 * after_agent) still run their hooks; async hooks are left to finish.
 * `notification` hooks run when a hook answers `ask` (before it is answered,
 * in every mode) and when the consumer calls `notify` (the REPL's idle prompt);
 * they run beside the loop, as async hooks do. The `notification` event itself
 * is yielded to the consumer: an ask's at once (before the ask is answered), a
 * `notify`'s as soon as possible — the loop waiting for the agent is woken for
 * it — and each is passed to `onNotification` (the session's transcript).
 * Closing the generator early (consumer `return()`) kills every running hook
 * and closes the agent's generator. Aborting is the way to stop a hook that is
 * running: `return()` waits for the current step to end.
 */
import type { AgentEvent, Verdict } from "../agent/events.js";
import type { ProcessRunner } from "../process/types.js";
import type { AskRequest, AskUser, HookActivityEvent, InterceptedEvent } from "./activity.js";
import {
  createAsyncPool,
  DEFAULT_ASYNC_QUEUE_LIMIT,
  DEFAULT_MAX_ASYNC_HOOKS,
  droppedMessage,
  droppedWarning,
  notStartedMessage,
} from "./async-pool.js";
import { type AuditSink, auditEntry, createFileAuditSink } from "./audit.js";
import type { Decision } from "./decision.js";
import type { HookDefinition, HookEventName } from "./definition.js";
import {
  type ChainResult,
  DEFAULT_CONTEXT_CAP_CHARS,
  hookRef,
  type NotificationEvent,
  observedEffect,
  type RunHook,
  runChain,
  runObservers,
  settleObserved,
  type ValidateToolInput,
} from "./fold.js";
import { hookMatches, type MatchSubject, mayMatchByName } from "./match.js";
import { buildPayload, type GateState, type SessionInfo } from "./payload.js";
import {
  createCandidateFinder,
  HOOK_EVENT_OF,
  indexHooks,
  matchedByKey,
  matchSubject,
  OBSERVE_ONLY,
} from "./plan.js";
import { type HookRunRecord, notRunRecord, runHookOnce } from "./run.js";

export const DEFAULT_SESSION_END_BUDGET_MS = 5000;
export const DEFAULT_MAX_RETRIES = 3;

export interface InterceptorOptions {
  hooks: readonly HookDefinition[];
  runner: ProcessRunner;
  /** Parent environment of hooks (secrets are scrubbed per hook). */
  env: Readonly<Record<string, string>>;
  /** Working directory of hooks and ACAI_PROJECT_DIR. */
  projectDir: string;
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
  /** Answers `ask`; without it `ask` is denied unless `assumeYes`. */
  askUser?: AskUser;
  assumeYes?: boolean;
  /** Checks a tool input a hook modified; an invalid one makes that hook fail. */
  validateToolInput?: ValidateToolInput;
  /** Per hook answer (default 10,000). */
  contextCapChars?: number;
  /** How long session_end hooks and unfinished async hooks may take (default 5000 ms). */
  sessionEndBudgetMs?: number;
  /** Consecutive retries of one model request (default 3); past it the request goes ahead. */
  maxRetries?: number;
  /** Cap per output stream of a hook (default 1 MiB). */
  maxOutputBytes?: number;
  /** Async hooks running at once (default 8); the rest wait in a queue. */
  maxAsyncHooks?: number;
  /** Async hooks waiting for a slot (default 256); past it a hook is dropped, with a warning. */
  asyncQueueLimit?: number;
  now?: () => number;
  audit?: AuditSink;
  /** Told of every `notification` event as it is raised (the agent's transcript records it). */
  onNotification?: (event: NotificationEvent) => void;
}

type AgentRun = AsyncGenerator<AgentEvent, void, Verdict | undefined>;

/** Runs the `notification` hooks now; resolves with their activity once they are done. */
export type NotifyHooks = (
  message: string,
  notificationType: string,
) => Promise<HookActivityEvent[]>;

export interface HookInterceptor {
  (run: AgentRun): AsyncGenerator<InterceptedEvent, void, undefined>;
  /**
   * For a notification between agent events (the REPL's idle prompt): runs
   * within the run being intercepted (its session, audit and abort); with no
   * run going on, nothing runs.
   */
  notify: NotifyHooks;
}

const SESSION_END = "session-end budget";

export function createHookInterceptor(options: InterceptorOptions): HookInterceptor {
  const index = indexHooks(options.hooks);
  let active: NotifyHooks | undefined;
  const setActive = (notify: NotifyHooks | undefined): void => {
    active = notify;
  };
  return Object.assign((run: AgentRun) => intercept(run, options, index, setActive), {
    notify: (message: string, notificationType: string) =>
      active ? active(message, notificationType) : Promise.resolve([]),
  });
}

interface Background {
  controller: AbortController;
  done: Promise<void>;
}

async function* intercept(
  run: AgentRun,
  options: InterceptorOptions,
  index: ReadonlyMap<HookEventName, readonly HookDefinition[]>,
  setActive: (notify: NotifyHooks | undefined) => void,
): AsyncGenerator<InterceptedEvent, void, undefined> {
  const now = options.now ?? Date.now;
  const cap = options.contextCapChars ?? DEFAULT_CONTEXT_CAP_CHARS;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const budgetMs = options.sessionEndBudgetMs ?? DEFAULT_SESSION_END_BUDGET_MS;
  const session: SessionInfo = { sessionId: "", transcriptPath: "", cwd: options.projectDir };

  /** Fired by the caller's signal or when the interceptor closes: kills every running hook. */
  const stopAll = new AbortController();
  /** Fired only when the interceptor closes: session_end hooks still run after an abort. */
  const closing = new AbortController();
  const onAbort = (): void => stopAll.abort();
  if (options.signal?.aborted) stopAll.abort();
  else options.signal?.addEventListener("abort", onAbort, { once: true });

  const background = new Set<Background>();
  /** Activity (and notifications) raised beside the loop, yielded at the next opportunity. */
  const pendingActivity: InterceptedEvent[] = [];
  const pendingContext: string[] = [];
  const retries = { key: "", count: 0 };
  let audit: AuditSink | undefined = options.audit;
  /** The default file sink is this run's to close; an injected one is the caller's. */
  let ownAudit: AuditSink | undefined;
  let auditFailed = false;

  const record = (
    hook: HookDefinition,
    rec: HookRunRecord,
    answered: Decision,
    effective: Decision,
    isAsync = false,
  ): void => {
    if (auditFailed) return;
    try {
      if (audit === undefined) {
        ownAudit = createFileAuditSink(options.acaiHome);
        audit = ownAudit;
      }
      audit.write(
        auditEntry({
          time: now(),
          session: session.sessionId,
          hook,
          record: rec,
          answered,
          effective,
          async: isAsync,
        }),
      );
    } catch (error) {
      auditFailed = true;
      pendingActivity.push({
        type: "hook_warning",
        message: `the hooks audit log cannot be written (${(error as Error).message}); hooks go on without it`,
      });
    }
  };

  const warnedMatchers = new Set<string>();
  /** A matcher that cannot be evaluated is warned about once and matches nothing. */
  const guarded =
    (test: (hook: HookDefinition, subject: MatchSubject) => boolean) =>
    (hook: HookDefinition, subject: MatchSubject): boolean => {
      try {
        return test(hook, subject);
      } catch (error) {
        if (!warnedMatchers.has(hook.id)) {
          warnedMatchers.add(hook.id);
          pendingActivity.push({
            type: "hook_warning",
            hook: hookRef(hook),
            message: `hook "${hook.name}" (${hook.file}) has a matcher that cannot be evaluated (${(error as Error).message}); it is not run`,
          });
        }
        return false;
      }
    };
  const matches = guarded(hookMatches);
  const candidates = createCandidateFinder(index, guarded(mayMatchByName));

  let turnOf: { turn: AbortSignal; both: AbortSignal } | undefined;
  /** What stops the sync hooks of an event: the session's abort, and the running turn's. */
  const hookSignal = (event: HookEventName): AbortSignal => {
    const turn = options.turnSignal?.();
    if (turn === undefined || (turn.aborted && OBSERVE_ONLY.has(event))) return stopAll.signal;
    if (turnOf?.turn !== turn) turnOf = { turn, both: AbortSignal.any([stopAll.signal, turn]) };
    return turnOf.both;
  };

  const runnerFor =
    (event: HookEventName, agentEvent: AgentEvent): RunHook =>
    (hook, state, signal) =>
      runHookOnce(
        hook,
        event,
        buildPayload({ event, agentEvent, state, session, dialect: hook.dialect, now: now() }),
        {
          runner: options.runner,
          env: options.env,
          projectDir: options.projectDir,
          sessionId: session.sessionId,
          signal,
          ...(options.maxOutputBytes === undefined
            ? {}
            : { maxOutputBytes: options.maxOutputBytes }),
        },
      );

  const asyncPool = createAsyncPool(
    {
      maxRunning: options.maxAsyncHooks ?? DEFAULT_MAX_ASYNC_HOOKS,
      queueLimit: options.asyncQueueLimit ?? DEFAULT_ASYNC_QUEUE_LIMIT,
    },
    (error) =>
      pendingActivity.push({
        type: "hook_warning",
        message: `an async hook could not be settled (${(error as Error).message})`,
      }),
  );

  /** Runs (or, when its slot came after the session ended or an abort, skips) one async hook. */
  const runAsync = async (
    hook: HookDefinition,
    event: HookEventName,
    agentEvent: AgentEvent,
    controller: AbortController,
  ): Promise<void> => {
    const signal = controller.signal;
    const ended = signal.reason === SESSION_END;
    const rec = signal.aborted
      ? notRunRecord(hook, event, notStartedMessage(ended ? "session end" : "abort"), !ended)
      : await runnerFor(event, agentEvent)(hook, {}, signal);
    const settled = settleObserved(hook, event, rec, cap, { kind: "async" });
    if (settled.context !== undefined) pendingContext.push(settled.context);
    if (signal.reason === SESSION_END && !ended) {
      pendingActivity.push({
        type: "hook_warning",
        hook: hookRef(hook),
        message: `async hook "${hook.name}" was still running when the session ended; killed after the ${budgetMs} ms session-end budget`,
      });
    }
    pendingActivity.push(...settled.activity);
    record(hook, rec, rec.decision, observedEffect(rec.decision), true);
  };

  /**
   * Starts an async hook, or queues it (hooks.md §5). A full queue drops it:
   * an audit line says so, and it is returned for the event's one warning.
   */
  const startAsync = (
    hook: HookDefinition,
    event: HookEventName,
    agentEvent: AgentEvent,
  ): HookActivityEvent | { dropped: HookDefinition } => {
    const controller = new AbortController();
    const kill = (): void => controller.abort();
    stopAll.signal.addEventListener("abort", kill, { once: true });
    const entry: Background = { controller, done: Promise.resolve() };
    const submitted = asyncPool.submit(() =>
      runAsync(hook, event, agentEvent, controller).finally(() => {
        stopAll.signal.removeEventListener("abort", kill);
        background.delete(entry);
      }),
    );
    if (submitted.admission === "dropped") {
      stopAll.signal.removeEventListener("abort", kill);
      const rec = notRunRecord(hook, event, droppedMessage(hook.name, asyncPool.limits));
      record(hook, rec, rec.decision, rec.decision, true);
      return { dropped: hook };
    }
    entry.done = submitted.done;
    background.add(entry);
    return { type: "hook_start", hook: hookRef(hook), event, startedAt: now() };
  };

  /** Starts the event's async hooks; those dropped are named in one warning (not one per hook). */
  function* startAllAsync(
    hooks: readonly HookDefinition[],
    event: HookEventName,
    agentEvent: AgentEvent,
  ): Generator<HookActivityEvent, void, undefined> {
    const dropped: HookDefinition[] = [];
    for (const hook of hooks) {
      const started = startAsync(hook, event, agentEvent);
      if ("dropped" in started) dropped.push(started.dropped);
      else yield started;
    }
    if (dropped.length === 0) return;
    yield {
      type: "hook_warning",
      ...(dropped.length === 1 ? { hook: hookRef(dropped[0] as HookDefinition) } : {}),
      message: droppedWarning(
        dropped.map((hook) => hook.name),
        event,
        asyncPool.limits,
      ),
    };
  }

  /** A notification event, told to `onNotification`; none once the session is aborted. */
  const raise = (message: string, notificationType: string): NotificationEvent | undefined => {
    if (stopAll.signal.aborted) return undefined;
    const event: NotificationEvent = { type: "notification", message, notificationType };
    options.onNotification?.(event);
    return event;
  };

  /**
   * Notification hooks run beside the loop, like async hooks: nobody waits for
   * them (an ask is not held up), session end waits for them within its budget.
   * Their activity goes to `into` as it happens.
   */
  const notifyInto = (
    agentEvent: NotificationEvent,
    into: (activity: HookActivityEvent) => void,
  ): Promise<void> => {
    if (stopAll.signal.aborted) return Promise.resolve();
    const subject = matchSubject("notification", agentEvent, {}, options.projectDir);
    const hooks = candidates(subject).filter(
      (hook) => matchedByKey(hook) || matches(hook, subject),
    );
    if (hooks.length === 0) return Promise.resolve();
    const controller = new AbortController();
    const kill = (): void => controller.abort();
    stopAll.signal.addEventListener("abort", kill, { once: true });
    const entry: Background = { controller, done: Promise.resolve() };
    entry.done = (async () => {
      const observers = runObservers({
        event: "notification",
        agentEvent,
        hooks,
        matches: () => true,
        run: runnerFor("notification", agentEvent),
        signal: controller.signal,
        contextCapChars: cap,
        now,
        onRun: (hook, rec, answered, effective) => record(hook, rec, answered, effective),
      });
      for (;;) {
        const step = await observers.next();
        if (step.done) {
          pendingContext.push(...step.value.context);
          break;
        }
        into(step.value);
      }
    })()
      .catch((error: unknown) => {
        into({
          type: "hook_warning",
          message: `notification hooks could not run (${(error as Error).message})`,
        });
      })
      .finally(() => {
        stopAll.signal.removeEventListener("abort", kill);
        background.delete(entry);
      });
    background.add(entry);
    return entry.done;
  };

  const notifyAsk = (request: AskRequest): NotificationEvent | undefined => {
    const event = raise(`Hook ${request.hook.name} asks: ${request.reason}`, "permission_prompt");
    if (event) void notifyInto(event, (activity) => pendingActivity.push(activity));
    return event;
  };

  /** Set while the loop waits for the agent: wakes it to yield what `notify` raised. */
  let wake: (() => void) | undefined;

  setActive(async (message, notificationType) => {
    const event = raise(message, notificationType);
    if (event === undefined) return [];
    pendingActivity.push(event);
    wake?.();
    const activity: HookActivityEvent[] = [];
    await notifyInto(event, (a) => activity.push(a));
    return activity;
  });

  /** The agent's `next()` while it has not settled (the consumer may leave meanwhile). */
  let inFlight: Promise<IteratorResult<AgentEvent, void>> | undefined;
  /** Settles with the agent's step, or with undefined when `notify` wakes the loop first. */
  const stepOrWake = (
    next: Promise<IteratorResult<AgentEvent, void>>,
  ): Promise<IteratorResult<AgentEvent, void> | undefined> =>
    new Promise((resolve, reject) => {
      wake = () => resolve(undefined);
      next.then(resolve, reject);
    });

  const toVerdict = (
    event: HookEventName,
    agentEvent: AgentEvent,
    result: ChainResult,
    carried: string[],
  ): { verdict: Verdict; warning?: HookActivityEvent } => {
    const context = [...carried, ...result.context];
    const withContext = context.length > 0 ? { context } : {};
    const end = result.end;
    if (end.kind !== "retry") retries.count = 0;
    switch (end.kind) {
      case "block":
        return { verdict: { action: "block", reason: end.reason, ...withContext } };
      case "stop":
        return { verdict: { action: "stop", reason: end.reason } };
      case "retry": {
        const key =
          agentEvent.type === "model_request" ? `${agentEvent.turn}:${agentEvent.step}` : "";
        if (retries.key === key) retries.count++;
        else {
          retries.key = key;
          retries.count = 1;
        }
        if (retries.count <= maxRetries) {
          return { verdict: { action: "retry", afterMs: end.afterMs, ...withContext } };
        }
        retries.count = 0;
        return {
          verdict: { action: "continue", ...withContext },
          warning: {
            type: "hook_warning",
            hook: end.hook,
            message: `hook "${end.hook.name}" asked to retry ${event} more than ${maxRetries} times in a row; going ahead`,
          },
        };
      }
      case "continue": {
        const verdict: Verdict = { action: "continue", ...withContext };
        const state: GateState = result.state;
        if ("toolInput" in state) verdict.input = state.toolInput;
        if (state.prompt !== undefined) verdict.prompt = state.prompt;
        if (state.output !== undefined) verdict.output = state.output;
        return { verdict };
      }
      default:
        return end satisfies never;
    }
  };

  async function* sessionEnd(
    agentEvent: AgentEvent,
    hooks: readonly HookDefinition[],
  ): AsyncGenerator<InterceptedEvent, void, undefined> {
    const budget = new AbortController();
    const timer = setTimeout(() => budget.abort(SESSION_END), budgetMs);
    try {
      const signal = AbortSignal.any([closing.signal, budget.signal]);
      const subject = matchSubject("session_end", agentEvent, {}, options.projectDir);
      yield* runObservers({
        event: "session_end",
        agentEvent,
        hooks,
        matches: (hook) => matches(hook, subject),
        run: runnerFor("session_end", agentEvent),
        signal,
        contextCapChars: cap,
        now,
        onRun: (hook, rec, answered, effective) => record(hook, rec, answered, effective),
      });
      if (background.size > 0 && !signal.aborted) {
        const aborted = new Promise<void>((resolve) =>
          signal.addEventListener("abort", () => resolve(), { once: true }),
        );
        await Promise.race([Promise.all([...background].map((b) => b.done)), aborted]);
      }
      const left = [...background];
      for (const b of left) b.controller.abort(SESSION_END);
      await Promise.all(left.map((b) => b.done));
      yield* pendingActivity.splice(0);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Which hooks this event starts; undefined when none (the hot path: no generator, no allocation past the subject). */
  const select = (
    agentEvent: AgentEvent,
    event: HookEventName,
  ):
    | { subject: MatchSubject; asyncHooks: HookDefinition[]; sync: HookDefinition[] }
    | undefined => {
    const subject = matchSubject(event, agentEvent, {}, options.projectDir);
    const hooks = candidates(subject);
    if (hooks.length === 0) return undefined;
    let asyncHooks: HookDefinition[] | undefined;
    let sync: HookDefinition[] | undefined;
    const check = (hook: HookDefinition): boolean => matchedByKey(hook) || matches(hook, subject);
    // Sync candidates from the first one that matches: later ones are checked as the chain goes.
    for (const hook of hooks) {
      if (hook.async) {
        if (!check(hook)) continue;
        if (asyncHooks === undefined) asyncHooks = [hook];
        else asyncHooks.push(hook);
      } else if (sync !== undefined) sync.push(hook);
      else if (check(hook)) sync = [hook];
    }
    if (asyncHooks === undefined && sync === undefined) return undefined;
    return { subject, asyncHooks: asyncHooks ?? [], sync: sync ?? [] };
  };

  const carriedVerdict = (carried: string[]): Verdict | undefined =>
    carried.length > 0 ? { action: "continue", context: carried } : undefined;

  async function* handle(
    agentEvent: AgentEvent,
    event: HookEventName,
    selected: { subject: MatchSubject; asyncHooks: HookDefinition[]; sync: HookDefinition[] },
    carried: string[],
  ): AsyncGenerator<InterceptedEvent, Verdict | undefined, undefined> {
    const { subject, sync } = selected;
    if (selected.asyncHooks.length > 0)
      yield* startAllAsync(selected.asyncHooks, event, agentEvent);
    if (sync.length === 0) {
      if (pendingActivity.length > 0) yield* pendingActivity.splice(0);
      return carriedVerdict(carried);
    }
    const run = runnerFor(event, agentEvent);
    const onRun = (
      hook: HookDefinition,
      rec: HookRunRecord,
      answered: Decision,
      effective: Decision,
    ) => record(hook, rec, answered, effective);

    if (OBSERVE_ONLY.has(event)) {
      const observed = yield* runObservers({
        event,
        agentEvent,
        hooks: sync,
        matches: (hook) => hook === sync[0] || matches(hook, subject),
        run,
        signal: hookSignal(event),
        contextCapChars: cap,
        now,
        onRun,
        // The turn is over: ending the session there is meaningful (the agent ends it "hook_stop").
        canStop: event === "after_agent",
      });
      pendingContext.push(...observed.context);
      if (pendingActivity.length > 0) yield* pendingActivity.splice(0);
      return observed.stop ? { action: "stop", reason: observed.stop.reason } : undefined;
    }

    const result = yield* runChain({
      event,
      agentEvent,
      hooks: sync,
      // The first hook matched above; later ones are checked against the input as modified so far.
      matches: (hook, state) =>
        hook === sync[0] ||
        matches(
          hook,
          "toolInput" in state
            ? matchSubject(event, agentEvent, state, options.projectDir)
            : subject,
        ),
      run,
      signal: hookSignal(event),
      contextCapChars: cap,
      now,
      onRun,
      ...(options.validateToolInput === undefined
        ? {}
        : { validateToolInput: options.validateToolInput }),
      ...(options.askUser === undefined ? {} : { askUser: options.askUser }),
      ...(options.assumeYes === undefined ? {} : { assumeYes: options.assumeYes }),
      onAsk: notifyAsk,
    });
    const { verdict, warning } = toVerdict(event, agentEvent, result, carried);
    if (warning) yield warning;
    if (pendingActivity.length > 0) yield* pendingActivity.splice(0);
    return verdict;
  }

  let verdict: Verdict | undefined;
  try {
    for (;;) {
      const next = run.next(verdict);
      verdict = undefined;
      inFlight = next;
      let step = await stepOrWake(next);
      while (step === undefined) {
        // Raised by `notify` while the agent works or waits for a prompt: out now.
        wake = undefined;
        if (pendingActivity.length > 0) yield* pendingActivity.splice(0);
        step = await stepOrWake(next);
      }
      wake = undefined;
      inFlight = undefined;
      if (step.done) break;
      const agentEvent = step.value;
      if (pendingActivity.length > 0) yield* pendingActivity.splice(0);
      yield agentEvent;
      const event = HOOK_EVENT_OF[agentEvent.type];
      if (event === undefined) continue;
      if (agentEvent.type === "session_start") {
        session.sessionId = agentEvent.sessionId;
        session.transcriptPath = agentEvent.transcriptPath;
        session.cwd = agentEvent.cwd;
        session.startedAt = now();
      }
      if (event === "session_end") {
        yield* sessionEnd(agentEvent, index.get(event) ?? []);
        continue;
      }
      // After an abort only session_end hooks still start.
      if (stopAll.signal.aborted) continue;
      const carried =
        event === "before_model" && pendingContext.length > 0 ? pendingContext.splice(0) : [];
      const selected = select(agentEvent, event);
      verdict =
        selected === undefined
          ? carriedVerdict(carried)
          : yield* handle(agentEvent, event, selected, carried);
    }
    if (pendingActivity.length > 0) yield* pendingActivity.splice(0);
  } finally {
    setActive(undefined);
    options.signal?.removeEventListener("abort", onAbort);
    stopAll.abort();
    closing.abort();
    await Promise.all([...background].map((b) => b.done));
    try {
      ownAudit?.close?.();
    } catch {
      // Closing a log descriptor that failed is not worth a warning nobody will see.
    }
    const pending = inFlight;
    if (pending === undefined) await run.return(undefined);
    else {
      // The consumer left while the agent was busy (a notification was yielded meanwhile):
      // return() would wait for that next() — the agent is closed once it settles.
      void pending.then(() => run.return(undefined)).catch(() => {});
    }
  }
}
