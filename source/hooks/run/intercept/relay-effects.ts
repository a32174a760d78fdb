/**
 * What an agent-relay answer does beyond the decision's fold, applied where
 * every hook run of a session ends (run-context.ts `runnerFor`), whatever the
 * event and however the hook ran (chain, observer, async, notification):
 *
 * - `capabilities.unlimitedInjection` on: an `inject`'s 2,000-character cap is
 *   dropped (the session's context cap still applies);
 * - `sendMessage`: handed to `onSendMessage` (messaging wires it to delivery);
 *   without one, a warning says the message was not sent. A delivery that
 *   fails is a warning naming the hook, never a crash.
 */

import type { Decision, RelayMessage } from "../../contract/decision.js";
import type { HookDefinition, HookEventName } from "../../contract/definition.js";
import type { HookRef } from "../activity.js";
import { hookRef, hookWarning, type InterceptedEvent } from "../activity.js";
import type { HookRunRecord } from "../run.js";

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
export function applyRelayEffects(
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
