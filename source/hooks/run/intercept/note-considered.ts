/**
 * The audit log's `considered` line of an event (considered.ts): written for
 * every event that has hooks configured, so `acai hooks why` can say of each
 * hook whether it ran and, if not, why.
 */
import type { AgentEvent } from "../../../agent/events.js";
import type { HookEventName } from "../../contract/definition.js";
import { consideredHooks } from "../considered.js";
import { type Plan, subjectFor } from "../plan.js";
import { toolCallIdOf } from "./hook-runs.js";
import type { RunContext } from "./run-context.js";

export function noteConsidered(
  ctx: RunContext,
  event: HookEventName,
  agentEvent: AgentEvent,
  planned: Plan | undefined,
): void {
  const configured = ctx.configured.get(event);
  if (configured === undefined || configured.length === 0) return;
  const hooks = consideredHooks({
    configured,
    index: ctx.index,
    planned,
    subject: subjectFor(ctx.index, event, agentEvent),
  });
  ctx.audit.considered(event, toolCallIdOf(agentEvent), hooks);
}
