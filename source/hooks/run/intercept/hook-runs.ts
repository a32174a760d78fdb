/**
 * One hook of an event, run with the payload built for it, and what the run
 * leaves behind: the payload once per values and dialect, the session's
 * runner (or the hook's own launch), its persistent process, the fingerprint
 * check, what a relay answer asks of the session (relay effects), the run's
 * audit log (the audit recorder) and an event's `considered` line.
 * `runnerFor(event, agentEvent)` is what a chain, the observers and the async
 * hooks call.
 */
import type { AgentEvent } from "../../../agent/events.js";
import type { Decision, RelayMessage } from "../../contract/decision.js";
import { type HookDefinition, type HookEventName, hookTypeOf } from "../../contract/definition.js";
import { eventRow } from "../../contract/events/table.js";
import type { GateState } from "../../contract/gate-state.js";
import { buildPayload, type SessionInfo } from "../../contract/payload.js";
import { type HookRef, hookRef, hookWarning, type InterceptedEvent } from "../activity.js";
import {
  type AuditEntry,
  type AuditSink,
  auditEntry,
  type ConsideredLine,
  createFileAuditSink,
  isoTime,
} from "../audit.js";
import type { RunHook } from "../chain.js";
import { type ConsideredHook, consideredHooks } from "../considered.js";
import type { PersistentHost } from "../persistent/host.js";
import { type Plan, subjectFor } from "../plan.js";
import { type HookRunRecord, runHookOnce } from "../run.js";
import type { Spill } from "../spill.js";
// Type-only: the options and the context are declared in run-context.ts, which makes the runner here.
import type { InterceptorOptions, RunContext } from "./run-context.js";

export interface HookRunsOptions {
  options: InterceptorOptions;
  session: SessionInfo;
  persistent: PersistentHost;
  relay: RelayEffectOptions;
  now: () => number;
  /** Said once per hook whose file changed since the registry loaded it. */
  warnChanged: (hook: HookDefinition, text: string) => void;
  /** `once` hooks that ran: marked as they start, so the plan leaves them out after. */
  spent: Set<string>;
  /** Texts over their caps go to files of the session's folder (spill.ts). */
  spill: Spill;
  contextCapChars: number;
}

/** The tool call an event is about, if it is about one. */
function toolCallIdOf(agentEvent: AgentEvent): string | undefined {
  return "toolCallId" in agentEvent && typeof agentEvent.toolCallId === "string"
    ? agentEvent.toolCallId
    : undefined;
}

export type RunnerFor = (event: HookEventName, agentEvent: AgentEvent) => RunHook;

export function hookRuns(deps: HookRunsOptions): RunnerFor {
  const { options, session, persistent, relay, now } = deps;
  const warnChanged = oncePerHook(deps.warnChanged);
  return (event, agentEvent) => {
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
    const toolCallId = toolCallIdOf(agentEvent);
    return async (hook, state, signal) => {
      if (hook.once === true) deps.spent.add(hook.id);
      const launch = options.launchFor?.(hook);
      const record = await runHookOnce(hook, event, payloadFor(state, hook), {
        runner: launch?.runner ?? options.runner,
        persistent,
        env: options.env,
        projectDir: options.projectDir,
        sessionId: session.sessionId,
        ...envFileOf(options, event, hook.id),
        signal,
        ...(options.maxOutputBytes === undefined ? {} : { maxOutputBytes: options.maxOutputBytes }),
        ...(options.plugins === undefined ? {} : { plugins: options.plugins }),
        ...(options.handlers === undefined ? {} : { handlers: options.handlers }),
        spill: deps.spill,
        contextCapChars: deps.contextCapChars,
        ...(options.fingerprints === undefined
          ? {}
          : { fingerprints: options.fingerprints, onChanged: warnChanged }),
      });
      if (toolCallId !== undefined) record.toolCallId = toolCallId;
      // Only a command hook starts a process (http, prompt, agent, mcp_tool, plugins run in acai).
      record.sandboxed = launch?.sandboxed === true && hookTypeOf(hook) === "command";
      return applyRelayEffects(relay, hook, event, record);
    };
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
  const envFile =
    eventRow(event).claudeEnvFile === true ? options.envFiles?.get(hookId) : undefined;
  return envFile === undefined ? {} : { envFile };
}

/**
 * What an agent-relay answer does beyond the decision's fold, applied where
 * every hook run of a session ends (`hookRuns` above), whatever the
 * event and however the hook ran (chain, observer, async, notification):
 *
 * - `capabilities.unlimitedInjection` on: an `inject`'s 2,000-character cap is
 *   dropped (the session's context cap still applies);
 * - `sendMessage`: handed to `onSendMessage` (messaging wires it to delivery);
 *   without one, a warning says the message was not sent. A delivery that
 *   fails is a warning naming the hook, never a crash.
 */

/** A message a hook asked to send: what `onSendMessage` receives. */
export interface HookSentMessage extends RelayMessage {
  /** The hook that asked. */
  hook: HookRef;
  /** The event it answered. */
  event: HookEventName;
}

/** Delivers a hook's message; a rejection (or throw) becomes a warning naming the hook. */
export type OnSendMessage = (message: HookSentMessage) => void | Promise<void>;

export interface RelayEffectOptions {
  unlimitedInjection?: boolean;
  onSendMessage?: OnSendMessage;
  /** Where warnings go (the run's pending activity). */
  warn: (event: InterceptedEvent) => void;
}

/** Applies the relay effects of one run's answer; returns the record the fold reads. */
function applyRelayEffects(
  options: RelayEffectOptions,
  hook: HookDefinition,
  event: HookEventName,
  record: HookRunRecord,
): HookRunRecord {
  const decision = record.decision;
  if (decision.sendMessage !== undefined) send(options, hook, event, decision.sendMessage);
  if (decision.contextCap === undefined || options.unlimitedInjection !== true) return record;
  const { contextCap: _lifted, ...rest } = decision;
  // stdin by name: a plugin's record makes it on demand (a getter a spread would drop).
  return { ...record, stdin: record.stdin, decision: rest as Decision };
}

function send(
  options: RelayEffectOptions,
  hook: HookDefinition,
  event: HookEventName,
  message: RelayMessage,
): void {
  const to = JSON.stringify(message.to);
  if (options.onSendMessage === undefined) {
    options.warn(
      hookWarning(
        hook,
        `hook "${hook.name}" asked to send a message to ${to}; this session does not send messages between agents, so it was not sent`,
      ),
    );
    return;
  }
  const failedWith = (error: unknown): void =>
    options.warn(
      hookWarning(
        hook,
        `hook "${hook.name}" asked to send a message to ${to}, which could not be sent (${error instanceof Error ? error.message : String(error)})`,
      ),
    );
  try {
    const sent = options.onSendMessage({ ...message, hook: hookRef(hook), event });
    if (sent instanceof Promise) sent.catch(failedWith);
  } catch (error) {
    failedWith(error);
  }
}

/**
 * The audit log's life within one intercepted run: the default file sink is
 * opened on the first hook run and closed with the run (an injected sink is
 * the caller's); a sink that fails is reported once and hooks go on without it.
 */

export interface AuditRecorder {
  record(
    hook: HookDefinition,
    rec: HookRunRecord,
    answered: Decision,
    effective: Decision,
    isAsync?: boolean,
  ): void;
  /** A hook asked ahead whose answer the chain did not use (chain.ts). */
  recordUnused(hook: HookDefinition, rec: HookRunRecord): void;
  /** The hooks configured for an event, planned or not run and why (considered.ts). */
  considered(event: HookEventName, toolCallId: string | undefined, hooks: ConsideredHook[]): void;
  close(): void;
}

export interface AuditRecorderOptions {
  audit?: AuditSink;
  acaiHome: string;
  now: () => number;
  /** The session id, known once session_start is seen. */
  sessionId: () => string;
  /** Told once, when the log cannot be written. */
  onFailure: (message: string) => void;
}

export function createAuditRecorder(options: AuditRecorderOptions): AuditRecorder {
  let audit = options.audit;
  /** The default file sink is this run's to close; an injected one is the caller's. */
  let own: AuditSink | undefined;
  let failed = false;
  /** After close(): a late answer asked ahead does not open the log again. */
  let closed = false;
  const write = (entry: () => AuditEntry | ConsideredLine): void => {
    if (failed || closed) return;
    try {
      if (audit === undefined) {
        own = createFileAuditSink(options.acaiHome);
        audit = own;
      }
      audit.write(entry());
    } catch (error) {
      failed = true;
      options.onFailure(
        `the hooks audit log cannot be written (${(error as Error).message}); hooks go on without it`,
      );
    }
  };
  return {
    record(hook, rec, answered, effective, isAsync = false) {
      write(() =>
        auditEntry({
          time: options.now(),
          session: options.sessionId(),
          hook,
          record: rec,
          answered,
          effective,
          async: isAsync,
        }),
      );
    },
    recordUnused(hook, rec) {
      write(() => ({
        ...auditEntry({
          time: options.now(),
          session: options.sessionId(),
          hook,
          record: rec,
          answered: rec.decision,
          effective: rec.decision,
        }),
        note: UNUSED_NOTE,
      }));
    },
    considered(event, toolCallId, hooks) {
      write(() => ({
        kind: "considered",
        time: isoTime(options.now()),
        session: options.sessionId(),
        event,
        ...(toolCallId === undefined ? {} : { tool_call_id: toolCallId }),
        hooks,
      }));
    },
    close() {
      closed = true;
      try {
        own?.close?.();
      } catch {
        // Closing a log descriptor that failed is not worth a warning nobody will see.
      }
    },
  };
}

const UNUSED_NOTE =
  "asked ahead of the hooks before it; not used, because one of them ended the chain or changed the values it saw";

/**
 * The audit log's `considered` line of an event (considered.ts): written for
 * every event that has hooks configured, so `acai hooks why` can say of each
 * hook whether it ran and, if not, why.
 */
export function noteConsidered(
  ctx: RunContext,
  event: HookEventName,
  agentEvent: AgentEvent,
  planned: Plan | undefined,
): void {
  const configured = ctx.configured.get(event);
  if (configured === undefined || configured.length === 0) return;
  const hooks = consideredHooks({
    configured,
    index: ctx.index,
    planned,
    subject: subjectFor(ctx.index, event, agentEvent),
  });
  ctx.audit.considered(event, toolCallIdOf(agentEvent), hooks);
}
