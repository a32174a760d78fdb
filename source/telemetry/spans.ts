/**
 * The spans of one session, from the stream of events a consumer sees
 * (docs/telemetry.md): `acai.session` ⊃ `acai.turn` ⊃ `acai.model_request`
 * and `acai.tool` ⊃ `acai.hook`. A hook run nests under what raised it: the
 * interceptor puts a gate's hooks right after the gate event (before_tool's
 * after `tool_call_start`, after_tool's after `tool_call_end`), so a span
 * that has ended in the stream stays open for the hooks that follow it and
 * is closed by the next event that is not hook activity. A subagent's events
 * nest under the Task call that started it.
 */
import { ROOT_CONTEXT, type Span, SpanStatusCode, type Tracer, trace } from "@opentelemetry/api";
import type { AgentEvent } from "../agent/events.js";
import type { HookActivityEvent, InterceptedEvent } from "../hooks/run/activity.js";
import type { AuditEntry } from "../hooks/run/audit.js";

interface Open {
  span: Span;
  kind: "session" | "turn" | "model" | "tool";
  /** Ended in the stream; kept open for the hook runs that follow it. */
  closing: boolean;
}

export interface SpanOptions {
  tracer: Tracer;
  content: { prompts: boolean; toolDetails: boolean };
}

/** One agent's open spans, outermost first (the session's, or one subagent's under its Task call). */
class AgentSpans {
  readonly stack: Open[] = [];
  constructor(
    private readonly options: SpanOptions,
    private readonly root: () => Span | undefined,
  ) {}

  parent(): Span | undefined {
    return this.stack.at(-1)?.span ?? this.root();
  }

  start(kind: Open["kind"], name: string, attributes: Record<string, string | number | boolean>) {
    const parent = this.parent();
    const context = parent ? trace.setSpan(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
    const span = this.options.tracer.startSpan(name, { attributes }, context);
    this.stack.push({ span, kind, closing: false });
    return span;
  }

  /** Ends the spans the stream has finished (their hooks have run by now). */
  settle(): void {
    while (this.stack.at(-1)?.closing) this.stack.pop()?.span.end();
  }

  /** Ends what is open above the innermost span of `kind` and returns that span. */
  unwindTo(kind: Open["kind"]): Open | undefined {
    const at = this.stack.findLastIndex((open) => open.kind === kind);
    if (at < 0) return undefined;
    while (this.stack.length > at + 1) this.stack.pop()?.span.end();
    return this.stack[at];
  }

  endAll(): void {
    while (this.stack.length > 0) this.stack.pop()?.span.end();
  }
}

export class SessionSpans {
  private readonly main: AgentSpans;
  private readonly subagents = new Map<string, AgentSpans>();
  private readonly hooks = new Map<string, Span>();
  /** Audit lines seen before their hook's `hook_end` (the recorder writes first). */
  private readonly audits = new Map<string, AuditEntry>();

  constructor(private readonly options: SpanOptions) {
    this.main = new AgentSpans(options, () => undefined);
  }

  observe(event: InterceptedEvent): void {
    const agentId = "agentId" in event ? event.agentId : undefined;
    const agent = agentId === undefined ? this.main : this.subagent(agentId);
    switch (event.type) {
      case "hook_start":
      case "hook_end":
      case "hook_warning":
        this.hookActivity(agent, event);
        return;
      case "subagent_end":
        this.subagents.get(event.agentId)?.endAll();
        this.subagents.delete(event.agentId);
        return;
      default:
        agent.settle();
        this.agentEvent(agent, event);
    }
  }

  /** An audit line: its exit code and timeout go on the hook's span when it ends. */
  audit(entry: AuditEntry): void {
    this.audits.set(hookKey(entry.hook_id, entry.event), entry);
  }

  end(): void {
    for (const span of this.hooks.values()) span.end();
    for (const agent of this.subagents.values()) agent.endAll();
    this.main.endAll();
  }

  private subagent(agentId: string): AgentSpans {
    let spans = this.subagents.get(agentId);
    if (spans === undefined) {
      const parent = this.main.parent();
      spans = new AgentSpans(this.options, () => parent);
      this.subagents.set(agentId, spans);
    }
    return spans;
  }

  private agentEvent(agent: AgentSpans, event: AgentEvent): void {
    const { content } = this.options;
    switch (event.type) {
      case "session_start":
      case "subagent_start":
        agent.start("session", "acai.session", sessionAttributes(event));
        return;
      case "user_prompt":
      case "turn_start": {
        if (agent.stack.some((open) => open.kind === "turn" && !open.closing)) return;
        agent.unwindTo("session");
        const span = agent.start("turn", "acai.turn", { "acai.turn": event.turn });
        if (content.prompts) span.setAttribute("acai.prompt", event.prompt);
        return;
      }
      case "model_request":
        agent.start("model", "acai.model_request", {
          "acai.model": event.model,
          "acai.step": event.step,
          ...(event.messageCount === undefined ? {} : { "acai.messages": event.messageCount }),
        });
        return;
      case "model_response":
        this.finish(agent, "model", {
          "acai.tokens.input": event.usage.inputTokens,
          "acai.tokens.output": event.usage.outputTokens,
          "acai.finish_reason": event.finishReason,
          "acai.tool_calls": event.toolCalls.length,
        });
        return;
      case "tool_call_start": {
        const span = agent.start("tool", "acai.tool", {
          "acai.tool.name": event.toolName,
          "acai.tool.call_id": event.toolCallId,
        });
        if (content.toolDetails) span.setAttribute("acai.tool.input", jsonText(event.input));
        return;
      }
      case "permission_request":
        agent.stack.at(-1)?.span.addEvent("acai.permission_request", {
          "acai.permission_mode": event.permissionMode,
        });
        return;
      case "tool_call_end":
        this.finish(agent, "tool", {
          "acai.tool.success": true,
          "acai.duration_ms": event.durationMs,
        });
        return;
      case "tool_call_error":
        this.finish(agent, "tool", toolErrorAttributes(event), true);
        return;
      case "turn_end":
        this.finish(agent, "turn", { "acai.stop_reason": event.stopReason });
        return;
      case "session_end":
        this.finish(agent, "session", { "acai.session.end_reason": event.reason });
        return;
      default:
        return;
    }
  }

  private finish(
    agent: AgentSpans,
    kind: Open["kind"],
    attributes: Record<string, string | number | boolean>,
    failed = false,
  ): void {
    const open = agent.unwindTo(kind);
    if (open === undefined) return;
    open.span.setAttributes(attributes);
    if (failed) open.span.setStatus({ code: SpanStatusCode.ERROR });
    open.closing = true;
  }

  private hookActivity(agent: AgentSpans, event: HookActivityEvent): void {
    if (event.type === "hook_warning") {
      agent.parent()?.addEvent("acai.hook_warning", {
        ...(event.hook ? { "acai.hook.name": event.hook.name } : {}),
      });
      return;
    }
    const key = hookKey(event.hook.id, event.event);
    if (event.type === "hook_start") {
      const parent = agent.parent();
      const context = parent ? trace.setSpan(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
      const span = this.options.tracer.startSpan(
        "acai.hook",
        { attributes: hookAttributes(event), startTime: event.startedAt },
        context,
      );
      this.hooks.get(key)?.end();
      this.hooks.set(key, span);
      return;
    }
    const span = this.hooks.get(key);
    if (span === undefined) return;
    this.hooks.delete(key);
    span.setAttributes({
      "acai.hook.outcome": event.outcome,
      "acai.duration_ms": event.durationMs,
    });
    const audit = this.audits.get(key);
    this.audits.delete(key);
    if (audit) span.setAttributes(auditAttributes(audit));
    if (event.outcome === "failed" || event.outcome === "timeout") {
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  }
}

function hookKey(id: string, event: string): string {
  return `${event}\u0000${id}`;
}

function sessionAttributes(
  event: Extract<AgentEvent, { type: "session_start" | "subagent_start" }>,
): Record<string, string | number | boolean> {
  if (event.type === "subagent_start") {
    return { "acai.agent_id": event.agentId, "acai.agent_type": event.agentType };
  }
  return {
    "acai.session.id": event.sessionId,
    "acai.session.source": event.source,
    "acai.model": event.model,
    "acai.sandbox": event.sandbox?.enabled ?? false,
  };
}

function hookAttributes(event: Extract<HookActivityEvent, { type: "hook_start" }>) {
  return {
    "acai.hook.event": event.event,
    "acai.hook.name": event.hook.name,
    "acai.hook.source": event.hook.sourceKind,
    "acai.hook.scope": event.hook.scope,
  };
}

function auditAttributes(entry: AuditEntry): Record<string, string | number | boolean> {
  return {
    "acai.hook.decision": entry.effect ?? entry.decision,
    "acai.hook.timed_out": entry.timed_out,
    "acai.hook.async": entry.async,
    "acai.hook.sandboxed": entry.sandboxed === true,
    ...(entry.exit_code === null ? {} : { "acai.hook.exit_code": entry.exit_code }),
  };
}

function toolErrorAttributes(event: Extract<AgentEvent, { type: "tool_call_error" }>) {
  return {
    "acai.tool.success": false,
    "acai.tool.blocked": event.blocked,
    "acai.tool.denied": event.denied ?? false,
    "acai.tool.interrupted": event.interrupted,
    "acai.duration_ms": event.durationMs,
  };
}

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}
