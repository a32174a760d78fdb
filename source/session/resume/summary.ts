/**
 * What one session did, read back from its transcript (pure): its prompts and
 * how each turn ended, every tool call with its outcome (ran, failed, blocked
 * by a hook, denied, interrupted, deferred) and the permission answer it got,
 * the tokens of every model response, and how the session ended — for
 * `acai sessions show`. The transcript is untrusted input: each event line is
 * checked against the fields read, and a line that is not is counted, never
 * a crash. A resumed session appends to the same transcript: its runs add up.
 */
import { z } from "zod";
import { jsonTextTooDeep } from "../../config/json-depth.js";

const MAX_LINE_CHARS = 16 * 1024 * 1024;
const MAX_LINE_DEPTH = 256;

type ToolOutcome =
  | "ok"
  | "failed"
  | "blocked"
  | "denied"
  | "interrupted"
  | "deferred"
  | "unfinished";

export interface ToolCallLine {
  id: string;
  tool: string;
  input: unknown;
  /** The subagent that made the call (`agentType`), absent for the session's own agent. */
  agent?: string;
  turn?: number;
  outcome: ToolOutcome;
  /** The error, the block's or denial's reason, the deferral's reason. */
  detail?: string;
  durationMs?: number;
  /** A permission question was asked: what it was answered. */
  permission?: "allowed" | "denied" | "asked";
}

export interface TurnLine {
  turn: number;
  prompt: string;
  stopReason?: string;
  steps?: number;
  message?: string;
}

interface Tokens {
  input: number;
  output: number;
  total: number;
}

export interface SessionSummary {
  sessionId?: string;
  cwd?: string;
  model?: string;
  startedAt?: string;
  lastAt?: string;
  /** Times the session was started (1, plus one per resume). */
  runs: number;
  turns: TurnLine[];
  toolCalls: ToolCallLine[];
  /** Every model response's usage, subagents' included. */
  tokens: Tokens;
  modelRequests: number;
  /** The last run's end; absent when the session never ended (killed, or still running). */
  end?: { reason: string; durationMs?: number };
  /** Lines that were not JSON or not a shape acai writes. */
  skippedLines: number;
}

const Usage = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  totalTokens: z.number().optional(),
});
const Mark = { agentType: z.string().optional() };
const Call = { toolCallId: z.string(), toolName: z.string(), input: z.unknown(), ...Mark };

/** The events the summary reads, with the fields it reads. */
const EventSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("session_start"),
    sessionId: z.string(),
    model: z.string(),
    cwd: z.string(),
  }),
  z.object({ type: z.literal("turn_start"), turn: z.number(), prompt: z.string(), ...Mark }),
  z.object({
    type: z.literal("turn_end"),
    turn: z.number(),
    stopReason: z.string(),
    steps: z.number().optional(),
    message: z.string().optional(),
    ...Mark,
  }),
  z.object({ type: z.literal("model_response"), usage: Usage }),
  z.object({ type: z.literal("tool_call_start"), turn: z.number().optional(), ...Call }),
  z.object({ type: z.literal("permission_request"), ...Call }),
  z.object({ type: z.literal("tool_call_end"), durationMs: z.number(), ...Call }),
  z.object({
    type: z.literal("tool_call_error"),
    error: z.string(),
    interrupted: z.boolean(),
    blocked: z.boolean(),
    denied: z.boolean().optional(),
    durationMs: z.number(),
    ...Call,
  }),
  z.object({ type: z.literal("tool_call_deferred"), reason: z.string(), ...Call }),
  z.object({
    type: z.literal("session_end"),
    reason: z.string(),
    totals: z.object({ durationMs: z.number() }).optional(),
  }),
]);
type SummaryEvent = z.infer<typeof EventSchema>;

const LineSchema = z
  .object({ type: z.string(), time: z.string().optional(), for: z.string().optional() })
  .loose();
const TypedSchema = z.object({ type: z.string() }).loose();
const VerdictSchema = z.object({ action: z.string() }).loose();

/** The event types the summary reads (others are passed over unparsed). */
const READ = new Set(EventSchema.options.map((option) => option.shape.type.value));

class SummaryFold {
  readonly summary: SessionSummary = {
    runs: 0,
    turns: [],
    toolCalls: [],
    tokens: { input: 0, output: 0, total: 0 },
    modelRequests: 0,
    skippedLines: 0,
  };
  private readonly calls = new Map<string, ToolCallLine>();
  private asked: ToolCallLine | undefined;

  line(raw: string): void {
    const value = parseLine(raw);
    const line = value === undefined ? undefined : LineSchema.safeParse(value);
    if (line === undefined || !line.success) {
      this.summary.skippedLines++;
      return;
    }
    const data = line.data;
    if (data.time !== undefined) {
      this.summary.startedAt ??= data.time;
      this.summary.lastAt = data.time;
    }
    if (data.type === "verdict") this.verdict(data.for, data.verdict);
    else if (data.type === "event") this.eventLine(data.event);
  }

  private eventLine(value: unknown): void {
    const event = TypedSchema.safeParse(value);
    if (!event.success) {
      this.summary.skippedLines++;
      return;
    }
    if (!READ.has(event.data.type as SummaryEvent["type"])) return;
    const parsed = EventSchema.safeParse(event.data);
    if (parsed.success) this.event(parsed.data);
    else this.summary.skippedLines++;
  }

  private verdict(forType: string | undefined, value: unknown): void {
    const verdict = VerdictSchema.safeParse(value);
    if (forType !== "permission_request" || this.asked === undefined || !verdict.success) return;
    this.asked.permission = verdict.data.action === "allow" ? "allowed" : "denied";
    this.asked = undefined;
  }

  private event(event: SummaryEvent): void {
    const s = this.summary;
    switch (event.type) {
      case "session_start":
        s.runs++;
        s.sessionId ??= event.sessionId;
        s.cwd ??= event.cwd;
        s.model = event.model;
        return;
      case "turn_start":
        if (event.agentType === undefined) s.turns.push({ turn: event.turn, prompt: event.prompt });
        return;
      case "turn_end":
        if (event.agentType === undefined) this.turnEnd(event);
        return;
      case "model_response":
        s.modelRequests++;
        s.tokens.input += event.usage.inputTokens;
        s.tokens.output += event.usage.outputTokens;
        s.tokens.total +=
          event.usage.totalTokens ?? event.usage.inputTokens + event.usage.outputTokens;
        return;
      case "session_end":
        s.end = {
          reason: event.reason,
          ...(event.totals === undefined ? {} : { durationMs: event.totals.durationMs }),
        };
        return;
      default:
        this.toolEvent(event);
    }
  }

  private turnEnd(event: Extract<SummaryEvent, { type: "turn_end" }>): void {
    const turn = this.summary.turns.findLast((t) => t.turn === event.turn);
    if (turn === undefined) return;
    turn.stopReason = event.stopReason;
    if (event.steps !== undefined) turn.steps = event.steps;
    if (event.message !== undefined) turn.message = event.message;
  }

  private toolEvent(event: Extract<SummaryEvent, { toolCallId: string }>): void {
    const call = this.call(event);
    switch (event.type) {
      case "tool_call_start":
        if (event.turn !== undefined) call.turn = event.turn;
        return;
      case "permission_request":
        call.permission = "asked";
        this.asked = call;
        return;
      case "tool_call_end":
        call.outcome = "ok";
        call.durationMs = event.durationMs;
        return;
      case "tool_call_error":
        call.outcome = errorOutcome(event);
        call.detail = event.error;
        call.durationMs = event.durationMs;
        return;
      case "tool_call_deferred":
        call.outcome = "deferred";
        call.detail = event.reason;
        return;
    }
  }

  /** The call's line, made at its first event (a resumed deferred call has a second start). */
  private call(event: Extract<SummaryEvent, { toolCallId: string }>): ToolCallLine {
    const found = this.calls.get(event.toolCallId);
    if (found !== undefined) return found;
    const call: ToolCallLine = {
      id: event.toolCallId,
      tool: event.toolName,
      input: event.input,
      ...(event.agentType === undefined ? {} : { agent: event.agentType }),
      outcome: "unfinished",
    };
    this.calls.set(event.toolCallId, call);
    this.summary.toolCalls.push(call);
    return call;
  }
}

function errorOutcome(event: Extract<SummaryEvent, { type: "tool_call_error" }>): ToolOutcome {
  if (event.denied === true) return "denied";
  if (event.blocked) return "blocked";
  return event.interrupted ? "interrupted" : "failed";
}

function parseLine(raw: string): unknown {
  if (raw.length > MAX_LINE_CHARS || jsonTextTooDeep(raw, MAX_LINE_DEPTH)) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** The summary of a transcript's text (a torn last line is not counted as skipped). */
export function summarizeTranscript(text: string): SessionSummary {
  const fold = new SummaryFold();
  const lines = text.split("\n");
  const last = lines.findLastIndex((line) => line.trim() !== "");
  lines.forEach((raw, index) => {
    if (raw.trim() === "") return;
    if (index === last && parseLine(raw) === undefined) return;
    fold.line(raw);
  });
  return fold.summary;
}
