/**
 * What an OpenClaw handler (`api.registerHook`) receives and how its answer
 * reads (docs/plugins.md "Coming from OpenClaw"). The context is acai's
 * payload plus OpenClaw's four context types at once: agent (`runId`,
 * `config`, `workspaceDir`, `agentDir`), message (`sessionKey`, `channel`,
 * `senderId`, `direction`), tool (`toolName`, `args`/`params` before,
 * `result` after) and session (`sessionKey`, `channel`).
 */

import { withoutUndefined } from "../../../shared/defined.js";
import type { HookEventName } from "../../contract/definition.js";
import { OPENCLAW_HOOKS } from "../../contract/openclaw.js";

type Fields = Readonly<Record<string, unknown>>;

/** What the session knows that no payload carries: OpenClaw's `agentDir` and `config`. */
export interface OpenClawSession {
  /** acai's home folder (`ACAI_HOME`): the agent's own state, as OpenClaw's agent directory. */
  agentDir?: string;
  /** The model the session was started with. */
  model?: string;
}

function asFields(value: unknown): Fields {
  return typeof value === "object" && value !== null ? (value as Fields) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** The message fields of a message hook: who sent what, which way. */
function messageFields(name: string | undefined, p: Fields): Record<string, unknown> {
  const direction = name === undefined ? undefined : OPENCLAW_HOOKS[name]?.direction;
  switch (direction) {
    case "received":
      return { direction, senderId: "user", content: text(p.prompt) };
    case "sending":
      // before_message_send: a message to another agent, as it will go out.
      return { direction, senderId: text(p.from), to: text(p.to), content: text(p.content) };
    case "sent":
      return {
        direction,
        senderId: text(p.agent_name) ?? "acai",
        to: "user",
        content: text(p.last_assistant_message),
      };
    case undefined:
      return {};
    default:
      return direction satisfies never;
  }
}

/**
 * The handler's one argument: the payload, then OpenClaw's names. `name` is
 * the OpenClaw hook it registered for (`message-received`, …), which decides
 * `direction`.
 */
export function openClawContext(
  payload: unknown,
  name: string | undefined,
  session: OpenClawSession = {},
): Record<string, unknown> {
  const p = asFields(payload);
  return withoutUndefined({
    ...p,
    sessionKey: p.session_id,
    runId: p.prompt_id ?? p.session_id,
    channel: "acai",
    workspaceDir: p.cwd,
    agentDir: session.agentDir,
    config: withoutUndefined({
      model: session.model ?? p.model,
      permissionMode: p.permission_mode,
      agentName: p.agent_name,
      workspaceDir: p.cwd,
    }),
    toolName: p.tool_name,
    args: p.tool_input,
    params: p.tool_input,
    result: p.tool_response,
    error: p.error,
    durationMs: p.duration_ms,
    prompt: p.prompt,
    messageCount: p.message_count ?? p.messages_before,
    tokenCount: p.tokens_before,
    ...messageFields(name, p),
  });
}

type Answer = Record<string, unknown>;

/** `{ block, blockReason }` anywhere; `{ params }` before a tool. */
function blockOrParams(a: Answer): Answer | undefined {
  if (a.block === true) {
    return typeof a.blockReason === "string"
      ? { action: "block", reason: a.blockReason }
      : { action: "block" };
  }
  if (typeof a.params === "object" && a.params !== null && !Array.isArray(a.params)) {
    return { action: "modify", input: a.params };
  }
  if (a.block === false && Object.keys(a).length === 1) return { action: "continue" };
  return undefined;
}

/**
 * A prompt hook's `{ cancel }`, `{ content }` (message-received, and
 * message-sending: the message that goes out) and `{ prependContext,
 * systemPrompt }` (before-agent-start).
 */
function promptAnswer(a: Answer): Answer | undefined {
  if (a.cancel === true) {
    return { action: "block", reason: text(a.cancelReason) ?? text(a.reason) ?? "cancelled" };
  }
  const context = [text(a.systemPrompt), text(a.prependContext)].filter((t) => t !== undefined);
  const out: Answer = {};
  if (typeof a.content === "string") Object.assign(out, { action: "modify", prompt: a.content });
  if (context.length > 0) out.context = context.join("\n\n");
  return Object.keys(out).length > 0 ? out : undefined;
}

/** tool-result-persist's `{ message }` or `{ result }`: what is stored for the tool result. */
function persistAnswer(a: Answer): Answer | undefined {
  const stored = a.message ?? a.result;
  if (stored === undefined) return undefined;
  const content = asFields(stored).content;
  const output =
    typeof stored === "string"
      ? stored
      : typeof content === "string"
        ? content
        : Array.isArray(content)
          ? content.map((part) => text(asFields(part).text) ?? "").join("")
          : JSON.stringify(stored);
  return { action: "modify", output };
}

/**
 * An OpenClaw answer in acai's dialect, by the acai event it answers; an
 * answer already in a dialect acai reads (`action`, `decision`) is left as it is.
 */
export function translateOpenClawAnswer(answer: unknown, event?: HookEventName): unknown {
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) return answer;
  const a = answer as Answer;
  if (a.action !== undefined || a.decision !== undefined) return answer;
  const own =
    event === "user_prompt" || event === "before_message_send"
      ? promptAnswer(a)
      : event === "after_tool"
        ? persistAnswer(a)
        : undefined;
  return own ?? blockOrParams(a) ?? answer;
}
