/**
 * What a handler receives, by the shape it registered in. acai's own handlers
 * (and `api.pattern`'s) get the payload a spawned hook reads on stdin.
 * OpenClaw handlers get that payload plus OpenClaw's context (openclaw.ts);
 * A3S handlers get A3S's `{ event_type, payload }` (contract/a3s.ts) with
 * acai's payload beside it as `acai`; agent-relay's get the payload and the
 * session's relay context, from which the worker makes relay's arguments and
 * `ctx` (relay-shape.ts).
 */
import { a3sHookEvent, a3sSees } from "../../contract/a3s.js";
import type { HookEventName } from "../../contract/definition.js";
import type { RegistrationShape } from "../../contract/plugin-registration.js";
import { type OpenClawSession, openClawContext } from "./openclaw.js";

export function handlerArgument(
  shape: RegistrationShape,
  event: HookEventName,
  payload: unknown,
  relay?: { context(): Record<string, unknown> },
  /** OpenClaw: the hook it registered for (`message-received`, …) and what the session knows. */
  openclaw: { name?: string | undefined; session?: OpenClawSession | undefined } = {},
): unknown {
  switch (shape) {
    case "acai":
    case "pattern":
      return payload;
    case "relay":
      // relay-shape.ts (in the worker) makes relay's arguments and ctx from these.
      return { payload, context: relay?.context() ?? {} };
    case "openclaw":
      return openClawContext(payload, openclaw.name, openclaw.session);
    case "a3s":
      return a3sHookEvent(event, payload);
    default:
      return shape satisfies never;
  }
}

/** Whether a handler of this shape is called for the event at all (A3S: not for a call that never ran). */
export function handlerSees(
  shape: RegistrationShape,
  event: HookEventName,
  payload: unknown,
): boolean {
  return shape !== "a3s" || a3sSees(event, payload);
}
