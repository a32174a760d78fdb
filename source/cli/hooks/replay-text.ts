/** How `acai hooks replay` words events, verdicts and hook runs, and which parts of two verdicts differ. */
import type { AgentEvent } from "../../agent/events.js";
import type { Verdict } from "../../agent/verdicts.js";
import type { AuditEntry } from "../../hooks/run/audit.js";

function clip(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

export function summarize(event: AgentEvent): string {
  switch (event.type) {
    case "session_start":
      return `${event.source}, model ${event.model}`;
    case "user_prompt":
      return JSON.stringify(clip(event.prompt, 80));
    case "model_request":
      return `step ${event.step}`;
    case "model_response":
      return `step ${event.step}, ${event.toolCalls.length} tool call(s), ${event.finishReason}`;
    case "tool_call_start":
    case "tool_call_end":
    case "permission_request":
      return `${event.toolName} ${clip(JSON.stringify(event.input), 90)}`;
    case "tool_call_error":
      return `${event.toolName} ${clip(event.error, 80)}`;
    case "stop_request":
      return `stop_hook_active ${event.stopHookActive}`;
    case "turn_end":
      return event.stopReason;
    case "notification":
      return clip(event.message, 80);
    case "session_end":
      return event.reason;
    default:
      return "";
  }
}

/**
 * Which parts of two verdicts differ: action, reason, input, prompt, output,
 * the model request and response changes, the follow-up call, context, retry delay.
 */
export function verdictDiff(applied: Verdict, now: Verdict): string[] {
  const pick = (v: Verdict) => ({
    action: v.action,
    reason: "reason" in v ? v.reason : undefined,
    input: v.action === "continue" || v.action === "allow" ? v.input : undefined,
    prompt: v.action === "continue" ? v.prompt : undefined,
    output: v.action === "continue" ? v.output : undefined,
    request: v.action === "continue" ? v.request : undefined,
    response: v.action === "continue" ? (v.response?.text ?? v.text) : undefined,
    drop_tool_calls: v.action === "continue" ? v.dropToolCalls : undefined,
    follow_up: v.action === "continue" ? v.followUp : undefined,
    context: "context" in v && v.context && v.context.length > 0 ? v.context : undefined,
    after_ms: v.action === "retry" ? v.afterMs : undefined,
  });
  const a = pick(applied);
  const b = pick(now);
  return (Object.keys(a) as (keyof typeof a)[]).filter(
    (key) => JSON.stringify(a[key]) !== JSON.stringify(b[key]),
  );
}

export function verdictText(v: Verdict): string {
  switch (v.action) {
    case "continue": {
      const parts = ["continue"];
      if (v.input !== undefined) parts.push(`input ${clip(JSON.stringify(v.input), 80)}`);
      if (v.prompt !== undefined) parts.push(`prompt ${JSON.stringify(clip(v.prompt, 60))}`);
      if (v.output !== undefined) parts.push(`output ${JSON.stringify(clip(v.output, 60))}`);
      if (v.permission !== undefined) parts.push(`permission ${v.permission.behavior}`);
      parts.push(...modelChanges(v));
      if (v.context?.length) parts.push(`+${v.context.length} context`);
      return parts.join(", ");
    }
    case "allow":
      return v.input === undefined ? "allow" : `allow, input ${clip(JSON.stringify(v.input), 80)}`;
    case "block":
      return `block ${JSON.stringify(clip(v.reason, 100))}`;
    case "retry":
      return `retry after ${v.afterMs} ms`;
    case "stop":
      return `stop ${JSON.stringify(clip(v.reason, 100))}`;
    case "defer":
      return `defer ${JSON.stringify(clip(v.reason, 100))}`;
    default:
      return v satisfies never;
  }
}

/** What a continue changed around the model: the request, the response, dropped calls, a follow-up call. */
function modelChanges(v: Extract<Verdict, { action: "continue" }>): string[] {
  const parts: string[] = [];
  const request = v.request;
  if (request !== undefined) {
    const what = Object.keys(request).map((key) =>
      key === "tools" ? `tools [${(request.tools ?? []).join(", ")}]` : key,
    );
    parts.push(`request ${what.join(" ")}`);
  }
  if (v.response !== undefined) parts.push(`response ${JSON.stringify(clip(v.response.text, 60))}`);
  if (v.text !== undefined) parts.push(`text ${JSON.stringify(clip(v.text, 60))}`);
  if (v.dropToolCalls?.length) parts.push(`drop ${v.dropToolCalls.join(" ")}`);
  if (v.followUp !== undefined) {
    parts.push(`follow-up ${v.followUp.toolName} ${clip(JSON.stringify(v.followUp.input), 60)}`);
  }
  return parts;
}

export function runText(run: AuditEntry): string {
  const effect = run.effect ? ` → ${run.effect}` : "";
  const detail = run.error ?? run.reason;
  const changes = run.changes?.length ? ` (${clip(run.changes.join("; "), 120)})` : "";
  return `${run.hook} (${run.scope} ${run.source}${run.async ? ", async" : ""}): ${run.decision}${changes}${effect}${detail ? ` — ${clip(detail, 120)}` : ""} [${run.duration_ms} ms]`;
}
