/**
 * What a handler receives, by the shape it registered in, and how an
 * OpenClaw answer reads. acai's own handlers (and `api.pattern`'s) get the
 * payload a spawned hook reads on stdin. OpenClaw handlers get that payload
 * plus OpenClaw's context names (`sessionKey`, `runId`, `toolName`, `params`,
 * `result`, `workspaceDir`); A3S handlers get A3S's `{ event_type, payload }`
 * (contract/a3s.ts) with acai's payload beside it as `acai`; agent-relay's get
 * the payload and the session's relay context, from which the worker makes
 * relay's arguments and `ctx` (relay-shape.ts).
 */
import { a3sHookEvent, a3sSees } from "../../contract/a3s.js";
import type { HookEventName } from "../../contract/definition.js";
import type { RegistrationShape } from "../../contract/plugin-registration.js";

type Fields = Readonly<Record<string, unknown>>;

function defined(fields: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(fields)) if (fields[key] === undefined) delete fields[key];
  return fields;
}

function asFields(payload: unknown): Fields {
  return typeof payload === "object" && payload !== null ? (payload as Fields) : {};
}

export function handlerArgument(
  shape: RegistrationShape,
  event: HookEventName,
  payload: unknown,
  relay?: { context(): Record<string, unknown> },
): unknown {
  switch (shape) {
    case "acai":
    case "pattern":
      return payload;
    case "relay":
      // relay-shape.ts (in the worker) makes relay's arguments and ctx from these.
      return { payload, context: relay?.context() ?? {} };
    case "openclaw":
      return openClawContext(payload);
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

function openClawContext(payload: unknown): Record<string, unknown> {
  const p = asFields(payload);
  return defined({
    ...p,
    sessionKey: p.session_id,
    runId: p.session_id,
    channel: "acai",
    workspaceDir: p.cwd,
    toolName: p.tool_name,
    params: p.tool_input,
    result: p.tool_response,
    prompt: p.prompt,
  });
}

/**
 * OpenClaw's `before-tool-call` result (`{ block, blockReason, params }`) in
 * acai's dialect; any other answer is left as it is.
 */
export function translateOpenClawAnswer(answer: unknown): unknown {
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) return answer;
  const a = answer as Record<string, unknown>;
  if (a.action !== undefined || a.decision !== undefined) return answer;
  if (a.block === true) {
    return typeof a.blockReason === "string"
      ? { action: "block", reason: a.blockReason }
      : { action: "block" };
  }
  if (typeof a.params === "object" && a.params !== null && !Array.isArray(a.params)) {
    return { action: "modify", input: a.params };
  }
  if (a.block === false && Object.keys(a).length === 1) return { action: "continue" };
  return answer;
}
