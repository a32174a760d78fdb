/**
 * One hook of an event, run with the payload built for it, and what the run
 * leaves behind: the payload once per values and dialect, the session's
 * runner (or the hook's own launch), its persistent process, the fingerprint
 * check, and what a relay answer asks of the session (relay effects). The
 * run's audit log is audit-recorder.ts's.
 * `runnerFor(event, agentEvent)` is what a chain, the observers and the async
 * hooks call.
 */
import type { AgentEvent } from "../../../agent/events.js";
import type { ProcessRunner } from "../../../process/types.js";
import type { Decision, RelayMessage } from "../../contract/decision.js";
import { type HookDefinition, type HookEventName, hookTypeOf } from "../../contract/definition.js";
import { eventRow } from "../../contract/events/table.js";
import type { GateState } from "../../contract/gate-state.js";
import { buildPayload, type SessionInfo } from "../../contract/payload.js";
import { payloadTexts } from "../../contract/payload-text.js";
import { type HookRef, hookRef, hookWarning, type InterceptedEvent } from "../activity.js";
import type { RunHook } from "../chain.js";
import type { PersistentHost } from "../persistent/host.js";
import { type HookRunOptions, type HookRunRecord, runHookOnce } from "../run.js";
import type { Spill } from "../spill.js";
import { toolCallIdOf } from "./audit-recorder.js";
import type { InterceptorOptions } from "./options.js";

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

/** The events whose answers may set the watched paths (Claude Code's SessionStart, FileChanged). */
const WATCH_SETTERS: ReadonlySet<HookEventName> = new Set(["session_start", "file_changed"]);

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
    // What every hook run of this event shares, made once per event (a chain of 20 hooks runs 20).
    const shared = {
      persistent,
      env: options.env,
      projectDir: options.projectDir,
      sessionId: session.sessionId,
      ...(options.maxOutputBytes === undefined ? {} : { maxOutputBytes: options.maxOutputBytes }),
      ...(options.plugins === undefined ? {} : { plugins: options.plugins }),
      ...(options.handlers === undefined ? {} : { handlers: options.handlers }),
      spill: deps.spill,
      contextCapChars: deps.contextCapChars,
      stdinOf: payloadTexts(),
      ...(options.fingerprints === undefined
        ? {}
        : { fingerprints: options.fingerprints, onChanged: warnChanged }),
    };
    // The options of the last run, taken again by the next with the same runner and signal.
    let last: HookRunOptions | undefined;
    const optionsFor = (runner: ProcessRunner, signal: AbortSignal, hookId: string) => {
      const envFile = envFileOf(options, event, hookId);
      if (envFile.envFile !== undefined) return { ...shared, runner, ...envFile, signal };
      if (last?.runner !== runner || last.signal !== signal) last = { ...shared, runner, signal };
      return last;
    };
    return async (hook, state, signal) => {
      if (hook.once === true) deps.spent.add(hook.id);
      const launch = options.launchFor?.(hook);
      const runOptions = optionsFor(launch?.runner ?? options.runner, signal, hook.id);
      const record = await runHookOnce(hook, event, payloadFor(state, hook), runOptions);
      if (toolCallId !== undefined) record.toolCallId = toolCallId;
      // Only a command hook starts a process (http, prompt, agent, mcp_tool, plugins run in acai).
      record.sandboxed = launch?.sandboxed === true && hookTypeOf(hook) === "command";
      const watch = record.decision.watchPaths;
      if (watch !== undefined && WATCH_SETTERS.has(event)) options.onWatchPaths?.(watch, hook);
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
    const key = hook.trigger === undefined ? hook.dialect : `${hook.dialect}\u0000${hook.trigger}`;
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
