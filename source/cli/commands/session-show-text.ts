/**
 * `acai sessions show`'s output (pure): the summary in words, or as JSON for
 * scripts. Everything from the transcript and the audit log is printed inert
 * (prompts, tool input and hooks' reasons are others' text).
 */
import type { ModelPrice } from "../../models/pricing.js";
import { costUsd, formatUsd } from "../../models/pricing.js";
import type { SessionSummary, ToolCallLine, TurnLine } from "../../session/resume/summary.js";
import { inertText, jsonForTerminal } from "../../terminal/inert-text.js";
import { toolTitle } from "../acp/updates.js";
import { eventLines } from "../hooks/why-text.js";
import type { SessionAudit } from "./session-audit.js";

export interface SessionReport {
  sessionId: string;
  file: string;
  summary: SessionSummary;
  audit: SessionAudit;
  price: ModelPrice | undefined;
}

const PROMPT_COLUMNS = 100;

function oneLine(text: string, columns: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return inertText(flat.length > columns ? `${flat.slice(0, columns - 1)}…` : flat);
}

function cost(report: SessionReport): number | undefined {
  const { tokens } = report.summary;
  const usage = {
    inputTokens: tokens.input,
    outputTokens: tokens.output,
    totalTokens: tokens.total,
  };
  return report.price === undefined ? undefined : costUsd(usage, report.price);
}

function headLines(report: SessionReport): string[] {
  const s = report.summary;
  const usd = cost(report);
  const when = (iso: string | undefined) => (iso ?? "?").replace("T", " ").slice(0, 19);
  const runs = s.runs > 1 ? ` (started ${s.runs} times: resumed)` : "";
  const ended =
    s.end === undefined
      ? "not ended (still running, or killed)"
      : `${inertText(s.end.reason)}${s.end.durationMs === undefined ? "" : ` after ${s.end.durationMs} ms`}`;
  const priced =
    usd === undefined
      ? "cost unknown (no price for this model: pricing in settings)"
      : `cost ${formatUsd(usd)}`;
  return [
    `Session ${inertText(report.sessionId)}`,
    `  project:    ${inertText(s.cwd ?? "?")}`,
    `  model:      ${inertText(s.model ?? "?")}`,
    `  time:       ${when(s.startedAt)} – ${when(s.lastAt)}${runs}`,
    `  ended:      ${ended}`,
    `  tokens:     ${s.tokens.input} in, ${s.tokens.output} out in ${s.modelRequests} model requests; ${priced}`,
    `  transcript: ${inertText(report.file)}`,
  ];
}

function turnLine(turn: TurnLine): string {
  const how = turn.stopReason === undefined ? "not ended" : inertText(turn.stopReason);
  const steps =
    turn.steps === undefined ? "" : `, ${turn.steps} step${turn.steps === 1 ? "" : "s"}`;
  const message = turn.message === undefined ? "" : ` — ${oneLine(turn.message, PROMPT_COLUMNS)}`;
  return `  ${turn.turn}. ${JSON.stringify(oneLine(turn.prompt, PROMPT_COLUMNS))} → ${how}${steps}${message}`;
}

function outcomeText(call: ToolCallLine): string {
  const took = call.durationMs === undefined ? "" : ` (${call.durationMs} ms)`;
  const detail = call.detail === undefined ? "" : `: ${oneLine(call.detail, PROMPT_COLUMNS)}`;
  const asked = call.permission === undefined ? "" : `; permission asked: ${call.permission}`;
  return `${call.outcome}${took}${detail}${asked}`;
}

function toolCallLines(call: ToolCallLine, audit: SessionAudit): string[] {
  const by = call.agent === undefined ? "" : ` [subagent ${inertText(call.agent)}]`;
  const title = oneLine(toolTitle(call.tool, call.input), PROMPT_COLUMNS);
  const head = `  ${inertText(call.id)}  ${title}${by} → ${outcomeText(call)}`;
  const hooks = audit.toolCalls.get(call.id) ?? [];
  return [head, ...hooks.flatMap((explained) => eventLines(explained, "    "))];
}

export function sessionText(report: SessionReport): string {
  const s = report.summary;
  const { audit } = report;
  const out = [...headLines(report), "", `Prompts (${s.turns.length}):`, ...s.turns.map(turnLine)];
  out.push("", `Tool calls (${s.toolCalls.length}):`);
  if (s.toolCalls.length === 0) out.push("  none");
  for (const call of s.toolCalls) out.push(...toolCallLines(call, audit));
  out.push(
    "",
    `Hooks: ${audit.hookRuns} run${audit.hookRuns === 1 ? "" : "s"} in this session (${inertText(audit.file)}); acai hooks log lists them, acai hooks why CALL_ID explains one call.`,
  );
  if (s.skippedLines > 0)
    out.push(`${s.skippedLines} transcript lines were not readable and are left out.`);
  return `${out.join("\n")}\n`;
}

export function sessionJson(report: SessionReport): string {
  const s = report.summary;
  const usd = cost(report);
  const value = {
    session_id: report.sessionId,
    transcript: report.file,
    project: s.cwd ?? null,
    model: s.model ?? null,
    started_at: s.startedAt ?? null,
    last_at: s.lastAt ?? null,
    runs: s.runs,
    end:
      s.end === undefined ? null : { reason: s.end.reason, duration_ms: s.end.durationMs ?? null },
    tokens: s.tokens,
    model_requests: s.modelRequests,
    cost_usd: usd ?? null,
    turns: s.turns.map((t) => ({
      turn: t.turn,
      prompt: t.prompt,
      stop_reason: t.stopReason ?? null,
      steps: t.steps ?? null,
      ...(t.message === undefined ? {} : { message: t.message }),
    })),
    tool_calls: s.toolCalls.map((call) => ({
      tool_call_id: call.id,
      tool: call.tool,
      input: call.input,
      ...(call.agent === undefined ? {} : { agent_type: call.agent }),
      turn: call.turn ?? null,
      outcome: call.outcome,
      ...(call.detail === undefined ? {} : { detail: call.detail }),
      duration_ms: call.durationMs ?? null,
      permission: call.permission ?? null,
      hooks: report.audit.toolCalls.get(call.id) ?? [],
    })),
    hook_runs: report.audit.hookRuns,
    audit_log: report.audit.file,
    skipped_lines: s.skippedLines,
  };
  return `${jsonForTerminal(value, 2)}\n`;
}
