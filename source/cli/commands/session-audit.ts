/**
 * One session's lines of the hooks audit log: per tool call, every hook
 * considered and what came of it (cli/hooks/why-explain.ts), and how many
 * hooks ran in the session in all. The log holds every session's lines; only
 * lines naming this session's id are parsed.
 */
import { z } from "zod";
import { auditLogPath } from "../../hooks/run/audit.js";
import { auditLines, parseJson } from "../hooks/audit-lines.js";
import {
  type EventExplanation,
  explainToolCall,
  toolCallLineOf,
  type WhyLine,
} from "../hooks/why-explain.js";

export interface SessionAudit {
  file: string;
  /** Tool call id → its hooks, event by event. */
  toolCalls: Map<string, EventExplanation[]>;
  /** Hook runs of the session, tool events or not. */
  hookRuns: number;
}

const SessionLineSchema = z.object({ session: z.string(), hook: z.string().optional() }).loose();

export async function sessionAudit(acaiHome: string, sessionId: string): Promise<SessionAudit> {
  const file = auditLogPath(acaiHome);
  const needle = JSON.stringify(sessionId);
  const byCall = new Map<string, WhyLine[]>();
  let hookRuns = 0;
  for await (const text of auditLines(file)) {
    if (!text.includes(needle)) continue;
    const value = parseJson(text);
    const line = SessionLineSchema.safeParse(value);
    if (!line.success || line.data.session !== sessionId) continue;
    if (line.data.hook !== undefined) hookRuns++;
    const call = toolCallLineOf(value);
    if (call === undefined) continue;
    const id = call.line.tool_call_id;
    const lines = byCall.get(id);
    if (lines === undefined) byCall.set(id, [call]);
    else lines.push(call);
  }
  const toolCalls = new Map([...byCall].map(([id, lines]) => [id, explainToolCall(lines)]));
  return { file, toolCalls, hookRuns };
}
