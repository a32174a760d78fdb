/**
 * The sample `acai hooks test` sends: a realistic agent event (samples.ts)
 * made into the payload by the session's own `buildPayload`, `--input` merged
 * over it; and whether a session's matching would select the hook for it.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import type { AgentEvent } from "../../agent/events.js";
import type { HookDefinition, HookEventName } from "../../hooks/contract/definition.js";
import { hookMatches, type MatchSubject } from "../../hooks/contract/match.js";
import { buildPayload } from "../../hooks/contract/payload.js";
import { matchSubject } from "../../hooks/run/plan.js";
import type { Inventory } from "./inventory.js";
import { defaultToolFor, sampleAgentEvent } from "./samples.js";

export interface Sample {
  sessionId: string;
  /** The sample event as built, before `--input`. */
  agentEvent: AgentEvent;
  /** What the hook is sent. */
  payload: Record<string, unknown>;
  /** The sample event as the hook was sent it (`--input` may have replaced the tool, its input or the source). */
  sent: AgentEvent;
}

export async function buildSample(args: {
  hook: HookDefinition;
  event: HookEventName;
  /** `--tool`. */
  tool: string | undefined;
  /** `--input`. */
  extra: Record<string, unknown>;
  inventory: Inventory;
}): Promise<Sample> {
  const { hook, event, extra, inventory } = args;
  const toolName =
    args.tool ??
    (typeof extra.tool_name === "string" ? extra.tool_name : defaultToolFor(hook.matcher.tool));
  const sessionId = `hooks-test-${randomUUID()}`;
  const transcriptPath = path.join(inventory.paths.transcriptsDir, `${sessionId}.jsonl`);
  const agentEvent = await sampleAgentEvent({
    event,
    toolName,
    projectDir: inventory.projectDir,
    sessionId,
    transcriptPath,
    model: "openai:gpt-4.1",
  });
  const payload = {
    ...buildPayload({
      event,
      agentEvent,
      session: { sessionId, transcriptPath, cwd: inventory.projectDir },
      dialect: hook.dialect,
      trigger: hook.trigger,
      now: Date.now(),
    }),
    ...extra,
  };
  return { sessionId, agentEvent, payload, sent: asSent(agentEvent, payload) };
}

/** The sample event as the hook was sent it: `--input` may have replaced the tool, its input or the source. */
function asSent(agentEvent: AgentEvent, payload: Record<string, unknown>): AgentEvent {
  switch (agentEvent.type) {
    case "tool_call_start":
    case "tool_call_end":
    case "tool_call_error":
      return {
        ...agentEvent,
        ...(typeof payload.tool_name === "string" ? { toolName: payload.tool_name } : {}),
        ...("tool_input" in payload ? { input: payload.tool_input } : {}),
      };
    case "session_start":
      return typeof payload.source === "string"
        ? { ...agentEvent, source: payload.source as typeof agentEvent.source }
        : agentEvent;
    case "notification":
      return typeof payload.notification_type === "string"
        ? { ...agentEvent, notificationType: payload.notification_type }
        : agentEvent;
    default:
      return agentEvent;
  }
}

/**
 * The match subject of a sample a session would NOT run the hook on, else
 * undefined (it selects it; an unevaluable matcher: run it and see).
 */
export function unselectedSubject(
  hook: HookDefinition,
  event: HookEventName,
  sample: Sample,
  projectDir: string,
): MatchSubject | undefined {
  const subject = matchSubject(event, sample.sent, {}, projectDir);
  try {
    return hookMatches(hook, subject) ? undefined : subject;
  } catch {
    return undefined;
  }
}
