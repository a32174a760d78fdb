/**
 * The per-run factory of a prepared session: each `run()` builds a hook
 * interceptor for that run (its abort signal, the running turn's signal,
 * `askUser`, `--yes`, the effective limits) around `agent.run()`, sends the
 * model's `@relay:` lines, and closes the session's services when the run ends.
 */

import type { SentMessage } from "../agent/event-data.js";
import { RAISES } from "../agent/raises.js";
import type { RunInput } from "../agent/types.js";
import type { HookDefaults } from "../config/settings.js";
import type { InterceptedEvent } from "../hooks/run/activity.js";
import { type AuditSink, createFileAuditSink } from "../hooks/run/audit.js";
import type { HandlerServices } from "../hooks/run/handlers/services.js";
import type { OnWatchPaths } from "../hooks/run/intercept/options.js";
import {
  createHookInterceptor,
  type HookInterceptor,
  type InterceptorOptions,
} from "../hooks/run/interceptor.js";
import { tapEvents } from "../hooks/run/plugins/relay-context.js";
import { type TrackedPrompts, trackTurnSignals } from "../hooks/run/turn-signal.js";
import type { SessionMemory } from "../memory/session.js";
import { builtinNamespaces } from "../patterns/namespaces.js";
import { ruleCatches } from "../permissions/decide.js";
import { sendingRelayLines } from "../relay/session-output.js";
import type { SessionRelay } from "../relay/session-relay.js";
import { unescapingPatterns } from "../relay/shown-text.js";
import { defined } from "../shared/defined.js";
import type { SessionTelemetry } from "../telemetry/session.js";
import type { SessionAgent } from "./agent.js";
import { gatedRelay } from "./gated-relay.js";
import type { SessionGround } from "./ground.js";
import { sessionHandlers } from "./hook-handlers.js";
import { providerAhead } from "./provider-ahead.js";
import type { SessionServices } from "./services.js";
import type { PreparedSession, PrepareSessionOptions, SessionRunInput } from "./types.js";
import { runWatches } from "./watches.js";

export interface SessionRunParts {
  ground: SessionGround;
  services: SessionServices;
  built: SessionAgent;
  relay: SessionRelay | undefined;
  memory: SessionMemory;
  options: PrepareSessionOptions;
  /** Spans, metrics and log records of this session, when telemetry is on. */
  telemetry: SessionTelemetry | undefined;
}

type RunOf = Pick<PreparedSession, "run" | "notify">;

export function sessionRuns(parts: SessionRunParts): RunOf {
  const { built, relay, services, memory, ground, telemetry } = parts;
  /** The interceptor of the latest run, for `notify` (its notifier is idle once that run ends). */
  let running: HookInterceptor | undefined;
  // The first hook of the session starts loading the model's provider (decision 0066).
  const hookStarting = providerAhead(services.model.model);
  return {
    notify: (message, notificationType) =>
      running ? running.notify(message, notificationType) : Promise.resolve([]),
    run(given: SessionRunInput): AsyncGenerator<InterceptedEvent, void, undefined> {
      const { onIdle, wake, ...input } = given;
      // The agent knows nothing of hooks: the interceptor learns the running turn from its prompts.
      const turns = trackTurnSignals(input.prompts, wake);
      const audit = telemetry?.auditSink(createFileAuditSink(ground.project.paths.home));
      const handlers = sessionHandlers(ground, services, built, parts.options.env);
      // Every message to another agent passes the run's before_message_send gate first.
      const gated = relay ? gatedRelay(relay, (event) => intercept.gate(event)) : undefined;
      // config_change and file_changed: the run's watchers (watches.ts), closed when it ends.
      const watches = runWatches({
        ground,
        options: parts.options,
        hooks: services.registry.hooks,
        policy: built.policy,
        ...defined("watch", parts.options.watchFolder),
      });
      const intercept = createHookInterceptor(
        interceptorOptions(parts, {
          relay: gated,
          input,
          onIdle,
          audit,
          turnSignal: turns.current,
          rewake: turns.rewake,
          sent: announceSent,
          handlers: handlers.handlers,
          onWatchPaths: watches.onWatchPaths,
          hookStarting,
        }),
      );
      running = intercept;
      watches.start(intercept);
      /** message_sent: in the transcript, and its hooks beside the loop. */
      function announceSent(message: SentMessage): void {
        const event = { type: RAISES.message_sent, message } as const;
        built.agent.record(event);
        services.relayContext.observe(event);
        void intercept.raise(event);
      }
      const source = input.source ?? (ground.resumed ? "resume" : "startup");
      const inbox = input.inbox ?? relay?.inbox;
      const agentRun = built.agent.run({
        ...input,
        source,
        prompts: turns.prompts,
        ...(inbox ? { inbox } : {}),
      });
      // agent-relay's ctx (recent output and messages) sees each event before its hooks do.
      const intercepted = intercept(tapEvents(agentRun, services.relayContext));
      const sent = gated
        ? sendingRelayLines(intercepted, {
            relay: gated,
            sent: announceSent,
            tell: (note) => intercept.tell(note),
          })
        : intercepted;
      // What the user sees: `\@ns:` escapes without their backslash (after sending: never routed).
      const shown = unescapingPatterns(sent);
      const events = telemetry ? telemetry.observe(shown) : shown;
      return closingAfter(events, async () => {
        watches.close();
        memory.close();
        audit?.close?.();
        handlers.close();
        await Promise.all([services.mcp?.close(), relay?.close(), telemetry?.shutdown()]);
        ground.sandbox.sandbox.close();
      });
    },
  };
}

interface ThisRun {
  input: RunInput;
  onIdle: SessionRunInput["onIdle"];
  /** With telemetry on: the audit log's file and its lines as log records (closed when the run ends). */
  audit: AuditSink | undefined;
  turnSignal: () => AbortSignal | undefined;
  rewake: TrackedPrompts["rewake"];
  sent: (message: SentMessage) => void;
  handlers: HandlerServices;
  /** The session's relay, its sends gated (none: this session sends no messages). */
  relay: SessionRelay | undefined;
  onWatchPaths: OnWatchPaths;
  /** Told as each hook starts (provider-ahead.ts). */
  hookStarting: () => void;
}

function interceptorOptions(parts: SessionRunParts, run: ThisRun): InterceptorOptions {
  const { ground, services, built, memory, options } = parts;
  const relay = run.relay;
  const { settings, sandbox, project } = ground;
  return {
    hooks: services.registry.hooks,
    fingerprints: services.registry.fingerprints,
    runner: sandbox.toolRunner,
    launchFor: (hook) => {
      run.hookStarting();
      return sandbox.launchFor(hook);
    },
    env: options.env,
    projectDir: ground.projectDir,
    envFiles: built.envFiles,
    acaiHome: project.paths.home,
    ...(run.audit ? { audit: run.audit } : {}),
    signal: run.input.signal,
    turnSignal: run.turnSignal,
    rewake: run.rewake,
    ...(options.askUser ? { askUser: options.askUser } : {}),
    assumeYes: options.flags.assumeYes ?? false,
    // `defer` stops a headless run for `--resume`; the REPL and a listening agent ask instead.
    deferrable: options.askUser === undefined && options.flags.listen !== true,
    // Read at each payload: the REPL's Shift-Tab changes the policy's mode mid-session.
    permissionMode: () => built.policy.mode,
    // A hook's `if`: judged as a deny rule of the session's policy would judge the call.
    ruleCatches: (rule, toolName, input) =>
      ruleCatches(
        { ...rule, list: "deny", source: { scope: "user", label: "a hook's if" } },
        { toolName, input },
        built.policy,
      ),
    // `--name`: every payload's `agent_name` (docs/hooks.md).
    ...(options.flags.agentName === undefined ? {} : { agentName: options.flags.agentName }),
    contextCapChars: settings.contextCapChars,
    unlimitedInjection:
      settings.capabilities.unlimitedInjection === true ||
      services.registry.relay.unlimitedInjection === true,
    // relay.config's options.idleThreshold over the idleMs setting.
    ...defined("idleMs", services.registry.relay.idleMs ?? settings.idleMs),
    ...defined("onIdle", run.onIdle),
    patternNamespaces: builtinNamespaces(memory.namespace ? [memory.namespace] : []),
    ...(memory.startContext ? { startContext: memory.startContext } : {}),
    // agent-relay's sendMessage answers go out through this session's relay.
    ...(relay
      ? {
          onSendMessage: async ({ to, content, metadata }) => {
            run.sent(await relay.send(to, content, metadata));
          },
        }
      : {}),
    sessionEndBudgetMs: settings.sessionEndBudgetMs,
    // acai's own resource limits: the user's settings only (a project's could starve the user's hooks).
    ...asyncHookLimits(project.loaded.user.hookDefaults),
    ...(services.plugins === undefined
      ? {}
      : { plugins: services.plugins, lateHooks: services.registry.late }),
    handlers: run.handlers,
    onWatchPaths: run.onWatchPaths,
    onNotification: (event) => built.agent.record(event),
    validateToolInput: (toolName: string, toolInput: unknown) => {
      const tool = built.toolsByName.get(toolName);
      return tool ? tool.validate(toolInput) : { ok: true, value: toolInput };
    },
  };
}

/** The session's events, then `close` (the MCP clients) once they end, however they end. */
async function* closingAfter<T>(
  events: AsyncGenerator<T, void, undefined>,
  close: () => Promise<void>,
): AsyncGenerator<T, void, undefined> {
  try {
    yield* events;
  } finally {
    await close();
  }
}

/** `maxAsyncHooks` / `asyncQueueLimit` of a hookDefaults section, those that are set. */
function asyncHookLimits(defaults: HookDefaults | undefined): {
  maxAsyncHooks?: number;
  asyncQueueLimit?: number;
} {
  return {
    ...(defaults?.maxAsyncHooks === undefined ? {} : { maxAsyncHooks: defaults.maxAsyncHooks }),
    ...(defaults?.asyncQueueLimit === undefined
      ? {}
      : { asyncQueueLimit: defaults.asyncQueueLimit }),
  };
}
