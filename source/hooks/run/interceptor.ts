/**
 * The hook interceptor (hooks.md §1): a generator around `Agent.run()`.
 *
 * For each AgentEvent:
 * 1. activity left over from background work that finished meanwhile is yielded;
 * 2. the agent event itself is yielded to the consumer, as the agent emitted it
 *    (the consumer shows what is about to happen);
 * 3. the hooks its plan names run (plan.ts; gates chain, chain.ts and step.ts;
 *    observe-only events run theirs at once, observe.ts); their `hook_start` /
 *    `hook_end` / `hook_warning` events are yielded as they happen;
 * 4. the agent is resumed with the verdict (intercept/handle-event.ts `verdictOf`).
 * An event no hook can match costs a map lookup or two.
 *
 * Background work (intercept/background.ts, beside.ts):
 * async hooks and notification hooks run beside the loop; their context goes
 * into the next before_model verdict; session_end hooks run even after an
 * abort, within the session-end budget. After an abort, hooks of other events
 * are no longer started, and a chain cut by the abort answers block
 * ("aborted"): a tool whose check did not finish does not run. A turn abort
 * (`turnSignal`) does the same within its turn, except that the observe-only
 * events that follow it still run their hooks.
 * Closing the generator early (consumer `return()`) kills every running hook
 * and closes the agent's generator. Aborting is the way to stop a hook that is
 * running: `return()` waits for the current step to end.
 */
import type { AgentEvent } from "../../agent/events.js";
import { RAISES } from "../../agent/raises.js";
import type { Verdict } from "../../agent/verdicts.js";
import type { HookDefinition, HookEventName } from "../contract/definition.js";
import { HOOK_EVENT_OF } from "../contract/events/names.js";
import { eventRow } from "../contract/events/table.js";
import type { InterceptedEvent } from "./activity.js";
import { type ConfigGateEvent, type ConfigVerdict, gateConfig } from "./config-gate.js";
import { noteConsidered } from "./intercept/audit-recorder.js";
import {
  createAsyncHooks,
  finishSessionEnd,
  sessionEnd,
  settleBackground,
} from "./intercept/background.js";
import {
  type BesideEvent,
  createIdle,
  createNotifications,
  createPump,
  type Pump,
  raiseBeside,
} from "./intercept/beside.js";
import {
  builtinFor,
  carriedVerdict,
  type EventParts,
  handleEvent,
  markedLike,
  newRetryCount,
  runBuiltin,
  withBuiltinContext,
} from "./intercept/handle-event.js";
import type { InterceptorOptions } from "./intercept/options.js";
import { permissionRequest } from "./intercept/permission.js";
import {
  type AgentRun,
  createRunContext,
  type InterceptedRun,
  type NotifyHooks,
  type RunContext,
} from "./intercept/run-context.js";
import { followLateHooks, withLateHooks } from "./late.js";
import { indexHooks, type Plan, plan } from "./plan.js";
import { gateSend, type SendGateEvent, type SendVerdict } from "./send-gate.js";

export type { HookSentMessage } from "./intercept/hook-runs.js";
export type { InterceptorOptions } from "./intercept/options.js";
export { DEFAULT_SESSION_END_BUDGET_MS } from "./intercept/run-context.js";

export interface HookInterceptor {
  (run: AgentRun): InterceptedRun;
  /**
   * For a notification between agent events (the REPL's idle prompt): runs
   * within the run being intercepted (its session, audit and abort); with no
   * run going on, nothing runs.
   */
  notify: NotifyHooks;
  /**
   * For an event the session raises beside the loop (`message_sent`): yielded
   * with the run's next activity, its hooks run beside the loop. With no run
   * going on, nothing happens.
   */
  raise(event: BesideEvent): Promise<void>;
  /**
   * The gate before a message to another agent is sent (before_message_send):
   * its hooks run beside the loop and decide. With no run going on, the
   * message goes as it is only when no hook is there to judge it.
   */
  gate(event: SendGateEvent): Promise<SendVerdict>;
  /**
   * A note for the model from the session (a message of its that was not
   * sent): delivered with its next model request, as hooks' context is. With
   * no run going on, it is dropped.
   */
  tell(note: string): void;
  /**
   * The gate when a settings file changed (config_change): its hooks run
   * beside the loop and decide. With no run going on, the change is applied
   * only when no hook is there to judge it.
   */
  gateConfig(event: ConfigGateEvent): Promise<ConfigVerdict>;
}

export function createHookInterceptor(options: InterceptorOptions): HookInterceptor {
  const configured = indexHooks(options.hooks);
  // Mutable: hooks a plugin registers later join it (late.ts).
  const byEvent = withLateHooks(
    options.hooks.some((hook) => hook.disabled !== undefined)
      ? indexHooks(options.hooks.filter((hook) => hook.disabled === undefined))
      : configured,
    options.lateHooks,
  );
  let active: ActiveRun | undefined;
  const setActive = (run: ActiveRun | undefined): void => {
    active = run;
  };
  return Object.assign(
    (run: AgentRun) => intercept(run, options, [byEvent, configured], setActive),
    {
      notify: (message: string, notificationType: string) =>
        active ? active.notify(message, notificationType) : Promise.resolve([]),
      raise: (event: BesideEvent) => (active ? active.raise(event) : Promise.resolve()),
      gate: (event: SendGateEvent): Promise<SendVerdict> =>
        active ? active.gate(event) : Promise.resolve(noRunVerdict(byEvent, event)),
      tell: (note: string) => active?.tell(note),
      gateConfig: (event: ConfigGateEvent): Promise<ConfigVerdict> =>
        active
          ? active.gateConfig(event)
          : Promise.resolve(
              (byEvent.get("config_change") ?? []).length === 0
                ? { apply: true }
                : { apply: false, reason: "its config_change hooks cannot run outside a run" },
            ),
    },
  );
}

/** No run going on: the message goes as it is, unless a hook was there to judge it (fail closed). */
function noRunVerdict(
  byEvent: ReadonlyMap<HookEventName, readonly HookDefinition[]>,
  event: SendGateEvent,
): SendVerdict {
  const hooks = byEvent.get("before_message_send") ?? [];
  return hooks.length === 0
    ? { send: true, content: event.message.content }
    : {
        send: false,
        reason: "its before_message_send hooks cannot run once the session's run is over",
      };
}

type HookIndexMap = ReadonlyMap<HookEventName, readonly HookDefinition[]>;

/** What reaches the run going on from outside it. */
interface ActiveRun {
  notify: NotifyHooks;
  raise(event: BesideEvent): Promise<void>;
  gate(event: SendGateEvent): Promise<SendVerdict>;
  tell(note: string): void;
  gateConfig(event: ConfigGateEvent): Promise<ConfigVerdict>;
}

async function* intercept(
  run: AgentRun,
  options: InterceptorOptions,
  [byEvent, configured]: readonly [Map<HookEventName, readonly HookDefinition[]>, HookIndexMap],
  setActive: (run: ActiveRun | undefined) => void,
): InterceptedRun {
  const ctx = createRunContext(options, byEvent, configured);
  const pump = createPump(run);
  let idle = createIdle(ctx, pump.wake);
  const unfollow = followLateHooks(
    byEvent,
    options.lateHooks,
    (message) => {
      ctx.pendingActivity.push({ type: "warning", source: "plugin", message });
      pump.wake();
    },
    // A late idle hook starts the idle timer when none runs yet.
    (hook) => {
      if (idle === undefined && hook.events.includes("idle")) idle = createIdle(ctx, pump.wake);
    },
  );
  const parts: EventParts = {
    startAsync: createAsyncHooks(ctx),
    notifications: createNotifications(ctx),
    retries: newRetryCount(),
  };
  setActive({
    notify: (message, type) => parts.notifications.notify(message, type, pump.wake),
    raise: (event) => raiseBeside(ctx, event, pump.wake),
    gate: (event) => gateSend(ctx, event, pump.wake),
    tell: (note) => {
      if (!ctx.stopAll.signal.aborted) ctx.pendingContext.push(note);
    },
    gateConfig: (event) => gateConfig(ctx, event, pump.wake),
  });
  try {
    let verdict: Verdict | undefined;
    for (;;) {
      const step = (await pump.next(verdict)) ?? (yield* whileWoken(ctx, pump));
      if (step.done) break;
      idle?.activity();
      if (ctx.pendingActivity.length > 0) yield* ctx.pendingActivity.splice(0);
      yield step.value;
      if (step.value.type === RAISES.session_start) await startContext(ctx);
      const route = routeOf(ctx, step.value);
      const builtin = builtinFor(ctx, step.value);
      const builtinContext =
        builtin && step.value.type === RAISES.pattern && !ctx.stopAll.signal.aborted
          ? yield* runBuiltin(ctx, builtin, step.value)
          : undefined;
      if (route.kind === "answer") verdict = route.verdict;
      else if (route.kind === "hooks")
        verdict = yield* markedLike(
          step.value,
          handleEvent(ctx, parts, step.value, route.plan, route.carried),
        );
      else if (route.kind === "permission" && step.value.type === RAISES.permission_request)
        verdict = yield* markedLike(
          step.value,
          permissionRequest(ctx, parts, step.value, route.plan, route.carried),
        );
      else verdict = yield* sessionEnd(ctx, step.value);
      if (builtinContext !== undefined) verdict = withBuiltinContext(verdict, builtinContext);
    }
    // A last turn asked for by session_end's hooks is over: the rest of session end.
    yield* finishSessionEnd(ctx);
    if (ctx.pendingActivity.length > 0) yield* ctx.pendingActivity.splice(0);
  } finally {
    unfollow();
    idle?.stop();
    setActive(undefined);
    await closeRun(ctx, pump);
  }
}

/** Woken by `notify` while the agent works or waits for a prompt: yields what it raised, until the agent's step. */
async function* whileWoken(
  ctx: RunContext,
  pump: Pump,
): AsyncGenerator<InterceptedEvent, IteratorResult<AgentEvent, void>, undefined> {
  for (;;) {
    if (ctx.pendingActivity.length > 0) yield* ctx.pendingActivity.splice(0);
    const step = await pump.again();
    if (step !== undefined) return step;
  }
}

/** What an agent event needs: no hooks (answered at once: the hot path), its plan's hooks, or session end. */
type Route =
  | { kind: "answer"; verdict: Verdict | undefined }
  | { kind: "hooks"; plan: Plan; carried: readonly string[] }
  /** Always answered here, hooks or not: the user is asked when no hook decides. */
  | { kind: "permission"; plan: Plan | undefined; carried: readonly string[] }
  | { kind: "session_end" };

const NO_HOOKS: Route = { kind: "answer", verdict: undefined };
/** Shared by every event that carries no context (never written: a verdict copies it). */
const NOTHING_CARRIED: readonly string[] = Object.freeze([]);

function routeOf(ctx: RunContext, agentEvent: AgentEvent): Route {
  const event = HOOK_EVENT_OF[agentEvent.type];
  if (event === undefined) return NO_HOOKS;
  const row = eventRow(event);
  if (agentEvent.type === RAISES.session_start) noteSession(ctx, agentEvent);
  if (row.route === "session_end") return { kind: "session_end" };
  // After an abort only session_end hooks still start.
  if (ctx.stopAll.signal.aborted) return NO_HOOKS;
  const carried =
    row.carriesPendingContext === true && ctx.pendingContext.length > 0
      ? ctx.pendingContext.splice(0)
      : NOTHING_CARRIED;
  const planned = plan(ctx.index, event, agentEvent);
  noteConsidered(ctx, event, agentEvent, planned);
  if (row.route === "permission") return { kind: "permission", plan: planned, carried };
  if (planned !== undefined) return { kind: "hooks", plan: planned, carried };
  return carried.length === 0 ? NO_HOOKS : { kind: "answer", verdict: carriedVerdict(carried) };
}

function noteSession(
  ctx: RunContext,
  ev: Extract<AgentEvent, { type: typeof RAISES.session_start }>,
): void {
  ctx.session.sessionId = ev.sessionId;
  ctx.session.transcriptPath = ev.transcriptPath;
  ctx.session.cwd = ev.cwd;
  ctx.session.startedAt = ctx.now();
}

/** The built-in start context (memories), queued for the first model request; a failure is a warning. */
async function startContext(ctx: RunContext): Promise<void> {
  const ask = ctx.options.startContext;
  if (ask === undefined) return;
  try {
    ctx.pendingContext.push(...(await ask()));
  } catch (error) {
    ctx.pendingActivity.push({
      type: "warning",
      message: `the start context could not be read (${(error as Error).message})`,
    });
  }
}

/** Kills every running hook, waits for background work, closes the audit log, closes the agent (spilled texts stay with the session: spill.ts). */
async function closeRun(ctx: RunContext, pump: Pump): Promise<void> {
  ctx.detach();
  ctx.stopAll.abort();
  ctx.closing.abort();
  ctx.persistent.kill();
  await settleBackground(ctx);
  ctx.audit.close();
  await pump.close();
}
