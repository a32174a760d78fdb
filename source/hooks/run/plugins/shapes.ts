/**
 * What a handler receives, by the shape it registered in, and how an
 * OpenClaw answer reads. acai's own handlers (and `api.pattern`'s) get the
 * payload a spawned hook reads on stdin. OpenClaw handlers get that payload
 * plus OpenClaw's context names (`sessionKey`, `runId`, `toolName`, `params`,
 * `result`, `workspaceDir`); A3S handlers get A3S's `{ event_type, payload }`
 * (`payload.tool`, `payload.args`, `payload.session_id`, …) with acai's
 * payload beside it as `acai`.
 */
import type { HookEventName } from "../../contract/definition.js";
import { a3sEventName } from "../../contract/events/names.js";
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
): unknown {
  switch (shape) {
    case "acai":
    case "pattern":
      return payload;
    case "openclaw":
      return openClawContext(payload);
    case "a3s":
      return a3sEvent(event, payload);
    default:
      return shape satisfies never;
  }
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

function a3sEvent(event: HookEventName, payload: unknown): Record<string, unknown> {
  const p = asFields(payload);
  const response = asFields(p.tool_response);
  const a3s = defined({
    session_id: p.session_id,
    tool: p.tool_name,
    args: p.tool_input,
    working_directory: p.cwd,
    recent_tools: p.tool_name === undefined ? undefined : [],
    // The tool's result, on the event that has one (after_tool: A3S's PostToolUse).
    result:
      p.tool_response !== undefined
        ? defined({
            success: response.exit_code === undefined || response.exit_code === 0,
            output:
              typeof response.stdout === "string"
                ? response.stdout
                : JSON.stringify(p.tool_response),
            exit_code: response.exit_code,
            duration_ms: response.duration_ms,
          })
        : undefined,
    prompt: p.prompt,
    model_name: p.model,
    usage: p.usage,
  });
  return { event_type: a3sEventName(event) ?? event, payload: a3s, acai: payload };
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
