/**
 * Every event's stdin, byte for byte, in every dialect: the acai (Claude Code)
 * payload as sent (`payloadText`), the Agent Hooks payload as sent under the spec's name and under each older
 * trigger spelling, and what OpenClaw- and A3S-shaped plugin handlers receive;
 * plainly and with the values a subagent, a prompt id and earlier hooks add.
 * Also the `acai hooks test` sample behind each event, the `hooks init` help
 * and the table's rows. A refactor of the events must leave every line as it is.
 */
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../../source/agent/events.js";
import { EVENT_HELP } from "../../../../source/cli/hooks/init-templates.js";
import { sampleAgentEvent } from "../../../../source/cli/hooks/samples.js";
import { HOOK_EVENTS, type HookEventName } from "../../../../source/hooks/contract/definition.js";
import { AGENT_HOOKS_TRIGGERS } from "../../../../source/hooks/contract/events/names.js";
import { eventRow } from "../../../../source/hooks/contract/events/table.js";
import { buildPayload, type SessionInfo } from "../../../../source/hooks/contract/payload.js";
import { payloadText } from "../../../../source/hooks/contract/payload-text.js";
import { handlerArgument } from "../../../../source/hooks/run/plugins/shapes.js";

const session: SessionInfo = {
  sessionId: "s-0001",
  transcriptPath: "/home/dev/.acai/transcripts/s-0001.jsonl",
  cwd: "/work/project",
  startedAt: Date.parse("2026-11-21T10:00:00.000Z"),
  permissionMode: "default",
  agentName: "Reviewer",
  projectName: "project",
};
const now = Date.parse("2026-11-21T10:30:00.000Z");

/** The same event inside a subagent, in a turn with a prompt id, after hooks replaced what they may. */
const marked = (ev: AgentEvent): AgentEvent =>
  ({ ...ev, agentId: "sub-7", agentType: "reviewer", promptId: "prompt-3" }) as AgentEvent;
/** The optional fields a sample leaves out set, and those it sets left out. */
function varied(ev: AgentEvent): AgentEvent {
  const copy: Record<string, unknown> = { ...ev };
  const drop = (...keys: string[]) => {
    for (const key of keys) delete copy[key];
  };
  switch (ev.type) {
    case "session_start":
      drop("modelProvider");
      copy.sandbox = { enabled: true, policy: "strict", containment: "namespace", network: "none" };
      break;
    case "model_request":
      drop("systemPrompt", "availableTools", "messageCount");
      break;
    case "tool_call_end":
      drop("response");
      break;
    case "stop_request":
      drop("stopReason");
      break;
    case "turn_end":
      copy.message = "turn note";
      copy.steps = 4;
      break;
    case "session_end":
      drop("totals");
      break;
    case "message_sent":
      copy.message = { ...ev.message, to: "*" };
      break;
    default:
      break;
  }
  return copy as unknown as AgentEvent;
}
const replaced = { toolInput: { command: "npm run lint" }, prompt: "rewritten", output: "cut" };

async function sampleOf(event: HookEventName): Promise<AgentEvent> {
  return sampleAgentEvent({
    event,
    toolName: "Bash",
    projectDir: session.cwd,
    sessionId: session.sessionId,
    transcriptPath: session.transcriptPath,
    model: "gpt-test",
  });
}

function triggersOf(event: HookEventName): string[] {
  return Object.entries(AGENT_HOOKS_TRIGGERS)
    .filter(([, to]) => to === event)
    .map(([name]) => name);
}

/** One line per dialect and variant: `label: JSON as it is sent`. */
function payloadLines(event: HookEventName, agentEvent: AgentEvent): string[] {
  const lines: string[] = [];
  const variants = [
    ["plain", agentEvent, undefined],
    ["marked", marked(agentEvent), replaced],
    ["varied", varied(agentEvent), undefined],
  ] as const;
  for (const [variant, ev, state] of variants) {
    const common = { event, agentEvent: ev, session, now, ...(state ? { state } : {}) };
    if (variant === "varied" && JSON.stringify(ev) === JSON.stringify(agentEvent)) continue;
    const acai = buildPayload({ ...common, dialect: "acai" });
    lines.push(`${variant} acai: ${payloadText(acai, "acai")}`);
    const agentHooks = buildPayload({ ...common, dialect: "agenthooks" });
    lines.push(`${variant} agenthooks: ${payloadText(agentHooks, "agenthooks")}`);
    for (const trigger of triggersOf(event)) {
      const payload = buildPayload({ ...common, dialect: "agenthooks", trigger });
      lines.push(`${variant} agenthooks trigger ${trigger}: ${payloadText(payload, "agenthooks")}`);
    }
    for (const shape of ["openclaw", "a3s"] as const) {
      const argument = handlerArgument(shape, event, acai);
      lines.push(`${variant} ${shape}: ${JSON.stringify(argument)}`);
    }
  }
  return lines;
}

describe("every event's payload, byte for byte", () => {
  for (const event of HOOK_EVENTS) {
    it(`${event}: acai, agenthooks (each trigger), openclaw, a3s`, async () => {
      const agentEvent = await sampleOf(event);
      expect(payloadLines(event, agentEvent).join("\n")).toMatchSnapshot();
    });
  }
});

/** The row's facts, as the table has had them since before the event modules. */
const ROW_FACTS = [
  "agentEvent",
  "claude",
  "agentHooks",
  "kind",
  "subject",
  "honours",
  "changes",
  "plainStdoutIsContext",
  "asyncHooks",
  "onBlock",
] as const;

describe("what the toolkit shows of each event", () => {
  for (const event of HOOK_EVENTS) {
    it(`${event}: its sample, its help and its row`, async () => {
      const { fields, agentHooksExtras, matchOn, ...all } = eventRow(event);
      const row = Object.fromEntries(ROW_FACTS.map((key) => [key, all[key]]));
      const sample = await sampleOf(event);
      const facts = {
        sample,
        matchOn: [matchOn(sample, {}), matchOn(sample, replaced)],
        help: EVENT_HELP[event],
        row,
        builders: [typeof fields, typeof agentHooksExtras, typeof matchOn],
      };
      expect(JSON.stringify(facts, null, 1)).toMatchSnapshot();
    });
  }
});
