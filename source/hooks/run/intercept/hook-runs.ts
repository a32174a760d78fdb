/**
 * One hook of an event, run with the payload built for it: the payload once
 * per values and dialect, the session's runner (or the hook's own launch),
 * its persistent process, the fingerprint check, and what a relay answer
 * asks of the session. `runnerFor(event, agentEvent)` is what a chain, the
 * observers and the async hooks call.
 */
import type { AgentEvent } from "../../../agent/events.js";
import type { HookDefinition, HookEventName } from "../../contract/definition.js";
import { eventRow } from "../../contract/events/table.js";
import type { GateState } from "../../contract/gate-state.js";
import { buildPayload, type SessionInfo } from "../../contract/payload.js";
import type { RunHook } from "../chain.js";
import type { PersistentHost } from "../persistent/host.js";
import { runHookOnce } from "../run.js";
import type { InterceptorOptions } from "./options.js";
import { applyRelayEffects, type RelayEffectOptions } from "./relay-effects.js";

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
}

/** The tool call an event is about, if it is about one. */
export function toolCallIdOf(agentEvent: AgentEvent): string | undefined {
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
      const record = await runHookOnce(hook, event, payloadFor(state, hook), {
        runner: options.launchFor?.(hook).runner ?? options.runner,
        persistent,
        env: options.env,
        projectDir: options.projectDir,
        sessionId: session.sessionId,
        ...envFileOf(options, event, hook.id),
        signal,
        ...(options.maxOutputBytes === undefined ? {} : { maxOutputBytes: options.maxOutputBytes }),
        ...(options.plugins === undefined ? {} : { plugins: options.plugins }),
        ...(options.handlers === undefined ? {} : { handlers: options.handlers }),
        ...(options.fingerprints === undefined
          ? {}
          : { fingerprints: options.fingerprints, onChanged: warnChanged }),
      });
      if (toolCallId !== undefined) record.toolCallId = toolCallId;
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
