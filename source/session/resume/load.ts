/**
 * Reads a session's transcript back: the conversation to send again (the
 * messages after the last compaction boundary) and what `acai sessions`
 * lists. A transcript is hostile input like any file: a line that is not
 * JSON, too long, or not a shape acai wrote is skipped with a warning naming
 * the file and the line, never a crash; the file is read bounded.
 */

import type { ModelMessage } from "ai";
import { z } from "zod";
import type { ToolCallSummary } from "../../agent/event-data.js";
import { systemReminder } from "../../agent/history.js";
import {
  answerInterruptedCalls,
  deferredCalls,
  interruptedNote,
} from "../../agent/history-repair.js";
import { ConversationLineSchema, messageOfLine } from "../../agent/transcript-messages.js";
import { jsonTextTooDeep } from "../../config/json-depth.js";
import { readRegularFileSync } from "../../config/read-regular-file.js";

/** A transcript larger than this is not read back (256 MiB). */
const MAX_TRANSCRIPT_BYTES = 256 * 1024 * 1024;
/** A single line larger than this is skipped (16 MiB). */
const MAX_TRANSCRIPT_LINE_BYTES = 16 * 1024 * 1024;
const MAX_LINE_DEPTH = 256;
const MAX_WARNINGS = 5;

export interface SessionRecord {
  file: string;
  sessionId?: string;
  cwd?: string;
  model?: string;
  /** ISO time of the first line. */
  startedAt?: string;
  /** ISO time of the last line. */
  lastAt?: string;
  firstPrompt?: string;
  turns: number;
  messages: ModelMessage[];
  /** uuid of the last conversation line, for the next line's parentUuid. */
  lastUuid: string | null;
  warnings: string[];
  /** Ids of the calls a before_tool hook deferred (`tool_call_deferred` lines). */
  deferredIds: Set<string>;
  /** The calls the session stopped at with a deferred one: run first when it is resumed. */
  pending: ToolCallSummary[];
  /** Prompts a `user_prompt` hook blocked (they never joined the conversation). */
  blockedPrompts: number;
  /**
   * The context of the blocking hooks of prompts blocked since the last
   * context the model was sent: the next turn of the resumed session sends it.
   */
  context: string[];
}

export type TranscriptRead = { ok: true; record: SessionRecord } | { ok: false; reason: string };

export function readSessionTranscript(
  file: string,
  maxBytes = MAX_TRANSCRIPT_BYTES,
): TranscriptRead {
  const read = readRegularFileSync(file, maxBytes);
  if (!read.ok)
    return { ok: false, reason: read.problem === "missing" ? "it does not exist" : read.reason };
  return { ok: true, record: parseSessionTranscript(read.data.toString("utf8"), file) };
}

export function parseSessionTranscript(text: string, file: string): SessionRecord {
  const record: SessionRecord = {
    file,
    turns: 0,
    messages: [],
    lastUuid: null,
    warnings: [],
    deferredIds: new Set(),
    pending: [],
    blockedPrompts: 0,
    context: [],
  };
  let skipped = 0;
  const skip = (line: number, why: string) => {
    skipped++;
    if (record.warnings.length < MAX_WARNINGS)
      record.warnings.push(`${file}:${line}: ${why}; the line is skipped.`);
  };
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index] ?? "";
    if (raw.trim() === "") continue;
    const why = readLine(record, raw, index >= lines.length - 2);
    if (why !== undefined) skip(index + 1, why);
  }
  if (skipped > record.warnings.length) {
    record.warnings.push(`${file}: ${skipped - record.warnings.length} more lines skipped.`);
  }
  // A session stopped at a deferred call: those calls run when it is resumed, hooks asked again.
  record.pending = deferredCalls(record.messages, record.deferredIds);
  if (record.pending.length > 0) {
    const names = record.pending.map((call) => call.toolName).join(", ");
    record.warnings.push(
      `${file}: the session stopped at a deferred tool call; resuming runs ${names} first, asking its hooks again.`,
    );
  }
  // A session killed during a tool call left the call without a result: it goes on "interrupted".
  const repaired = answerInterruptedCalls(
    record.messages,
    new Set(record.pending.map((call) => call.toolCallId)),
  );
  if (repaired.interrupted.length > 0) {
    record.messages = repaired.messages;
    record.warnings.push(interruptedNote(file, repaired.interrupted));
  }
  return record;
}

/** Reads one line into the record; returns why it is skipped, if it is. */
function readLine(record: SessionRecord, raw: string, last: boolean): string | undefined {
  if (raw.length > MAX_TRANSCRIPT_LINE_BYTES) return "the line is too long";
  if (jsonTextTooDeep(raw, MAX_LINE_DEPTH)) return "the line nests too deep";
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    // A torn last line (the session was killed mid-write) is expected.
    return last ? undefined : "not JSON";
  }
  if (!isObject(value)) return "not a JSON object";
  noteTime(record, value);
  switch (value.type) {
    case "user":
    case "assistant":
      return addMessage(record, value);
    case "prompt_rewrite":
      return rewritePrompt(record, value);
    case "compact_boundary":
      record.messages = [];
      record.lastUuid = null;
      return undefined;
    case "event":
    case undefined:
      if (isObject(value.event)) noteEvent(record, value.event);
      return undefined;
    case "verdict":
      return noteBlockedPrompt(record, value);
    default:
      return undefined;
  }
}

function addMessage(record: SessionRecord, value: Record<string, unknown>): string | undefined {
  const parsed = ConversationLineSchema.safeParse(value);
  const message = parsed.success ? messageOfLine(parsed.data) : undefined;
  if (!parsed.success || message === undefined) return "not a conversation line acai can read";
  record.messages.push(message);
  if (parsed.data.uuid !== undefined) record.lastUuid = parsed.data.uuid;
  if (record.context.length > 0 && deliversContext(message, record.context)) record.context = [];
  return undefined;
}

/**
 * A `user_prompt` gate's block: the prompt never reached the model, and the
 * blocking hook's context (Codex's additionalContext) waits for the next turn.
 */
const BlockedPrompt = z.lazy(() =>
  z.object({
    for: z.literal("user_prompt"),
    verdict: z.object({ action: z.literal("block"), context: z.array(z.string()).optional() }),
  }),
);

function noteBlockedPrompt(
  record: SessionRecord,
  value: Record<string, unknown>,
): string | undefined {
  if (value.for !== "user_prompt") return undefined;
  const parsed = BlockedPrompt.safeParse(value);
  // A user_prompt verdict that is not a block (continue, stop): nothing waits.
  if (!parsed.success) return undefined;
  record.blockedPrompts++;
  // As History.queueContext: blank text is not sent.
  for (const text of parsed.data.verdict.context ?? []) {
    if (text.trim()) record.context.push(text);
  }
  return undefined;
}

/** The user message History.flushContext wrote with the waiting context in it: it was sent. */
function deliversContext(message: ModelMessage, context: readonly string[]): boolean {
  if (message.role !== "user" || typeof message.content !== "string") return false;
  const content = message.content;
  return context.every((text) => content.includes(systemReminder(text)));
}

const PromptRewrite = z.lazy(() => z.object({ was: z.string(), text: z.string() }));

/** A hook's rewrite of a prompt: the last user message with that text gets the new one. */
function rewritePrompt(record: SessionRecord, value: Record<string, unknown>): string | undefined {
  const parsed = PromptRewrite.safeParse(value);
  if (!parsed.success) return "not a prompt rewrite acai can read";
  const { was, text } = parsed.data;
  for (let index = record.messages.length - 1; index >= 0; index--) {
    const message = record.messages[index];
    if (message?.role === "user" && message.content === was) {
      record.messages[index] = { ...message, content: text };
      return undefined;
    }
  }
  // Its prompt is not in the conversation any more (a compaction replaced it): nothing to do.
  return undefined;
}

function noteTime(record: SessionRecord, value: Record<string, unknown>): void {
  const time =
    typeof value.time === "string"
      ? value.time
      : typeof value.timestamp === "string"
        ? value.timestamp
        : undefined;
  if (time === undefined) return;
  record.startedAt ??= time;
  record.lastAt = time;
}

function noteEvent(record: SessionRecord, event: Record<string, unknown>): void {
  if (event.type === "session_start") {
    if (typeof event.sessionId === "string") record.sessionId ??= event.sessionId;
    if (typeof event.cwd === "string") record.cwd ??= event.cwd;
    if (typeof event.model === "string") record.model = event.model;
  } else if (event.type === "tool_call_deferred" && typeof event.toolCallId === "string") {
    if (event.agentId === undefined) record.deferredIds.add(event.toolCallId);
  } else if (event.type === "turn_start") {
    record.turns++;
    if (typeof event.prompt === "string") record.firstPrompt ??= event.prompt;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
