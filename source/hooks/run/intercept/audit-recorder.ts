/**
 * The audit log of one intercepted run: the recorder (a line per hook run, the
 * sink opened on first use and closed with the run) and each event's
 * `considered` line (considered.ts), written for every event with hooks.
 */
import type { AgentEvent } from "../../../agent/events.js";
import type { Decision } from "../../contract/decision.js";
import type { HookDefinition, HookEventName } from "../../contract/definition.js";
import {
  type AuditEntry,
  type AuditSink,
  auditEntry,
  type ConsideredLine,
  createFileAuditSink,
  isoTime,
} from "../audit.js";
import type { ConsideredHook } from "../considered.js";
import { type Plan, subjectFor } from "../plan.js";
import type { HookRunRecord } from "../run.js";
// Type-only: the context is declared in run-context.ts, which makes the recorder here.
import type { RunContext } from "./run-context.js";

/** The tool call an event is about, if it is about one. */
export function toolCallIdOf(agentEvent: AgentEvent): string | undefined {
  return "toolCallId" in agentEvent && typeof agentEvent.toolCallId === "string"
    ? agentEvent.toolCallId
    : undefined;
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
  considered(
    event: HookEventName,
    toolCallId: string | undefined,
    hooks: readonly ConsideredHook[],
  ): void;
  /** A gate's chain runs: its lines may go out together when it ends (AuditSink.hold). */
  hold(): () => void;
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
    hold() {
      return (failed ? undefined : audit?.hold?.()) ?? releaseNothing;
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

const releaseNothing = (): void => {};

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
  const hooks = ctx.consideredHooks({
    configured,
    index: ctx.index,
    planned,
    subject: subjectFor(ctx.index, event, agentEvent),
  });
  ctx.audit.considered(event, toolCallIdOf(agentEvent), hooks);
}
