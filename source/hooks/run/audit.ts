/**
 * The audit log (hooks.md §8): one JSON line per hook run, all sessions in one
 * file, `<ACAI_HOME>/logs/hooks-audit.jsonl` (one file is easy to tail and grep;
 * each line carries its session id).
 */
import { closeSync, writeSync } from "node:fs";
import { join } from "node:path";
import { openPrivateAppendSync } from "../../config/private-files.js";
import { capText, type Decision } from "../contract/decision.js";
import {
  type HookDefinition,
  type HookEventName,
  type HookType,
  hookTypeOf,
} from "../contract/definition.js";
import type { ConsideredHook } from "./considered.js";
import { exitTwoCrashNote } from "./crash-note.js";
import type { HookRunRecord } from "./run.js";

const AUDIT_STDERR_CHARS = 500;

export interface AuditEntry {
  time: string;
  session: string;
  event: HookEventName;
  hook: string;
  hook_id: string;
  scope: HookDefinition["scope"];
  source: HookDefinition["sourceKind"];
  /** The hook's type: command, http, prompt, agent, mcp_tool (or plugin). */
  type?: HookType;
  file: string;
  /** What the hook answered (`failed` when it failed). */
  decision: Decision["action"];
  /** What took effect after validation and the failure policy, when different. */
  effect?: Decision["action"];
  exit_code: number | null;
  signal: string | null;
  duration_ms: number;
  timed_out: boolean;
  /** Killed for passing the output cap. */
  killed: boolean;
  aborted: boolean;
  async: boolean;
  /** It ran inside the OS sandbox (docs/security.md §8); false for hooks that start no process. */
  sandboxed?: boolean;
  error?: string;
  reason?: string;
  log?: string;
  stderr?: string;
  /** Something the reader should know about this run (an exit 2 that looks like a shell crash). */
  note?: string;
  /** The tool call the event is about (tool events), for `acai hooks why`. */
  tool_call_id?: string;
  /**
   * What a modify changed, named and briefly (`input`, `llm_request.messages`,
   * `llm_request.tools [Read]`, `llm_response`, `drop_tool_calls [call_1]`,
   * `follow_up Read`…); whether it took effect is `effect`.
   */
  changes?: string[];
}

/**
 * One line per event that has hooks configured: every one of them, planned
 * or not run and why (considered.ts). No `hook` field: readers of run lines
 * (`acai hooks log`) tell the two apart by `kind`.
 */
export interface ConsideredLine {
  kind: "considered";
  time: string;
  session: string;
  event: HookEventName;
  tool_call_id?: string;
  hooks: readonly ConsideredHook[];
}

export interface AuditSink {
  /** Must be cheap; may throw (the interceptor reports it once and goes on). */
  write(entry: AuditEntry | ConsideredLine): void;
  /**
   * A gate's chain is running: lines written until the returned release may
   * wait and go out together (the same lines, in the same order).
   */
  hold?(): () => void;
  /** Called when the interceptor that opened the sink is done. */
  close?(): void;
}

export function auditLogPath(acaiHome: string): string {
  return join(acaiHome, "logs", "hooks-audit.jsonl");
}

/** How long a held line may wait for its chain to end before it is written anyway (default). */
const MAX_HOLD_MS = 100;

/**
 * Appends a line per entry (O_APPEND: lines from concurrent sessions do not
 * interleave). The folder is created and the file opened on the first write;
 * the descriptor stays open until `close()`. Entries written in one turn of
 * the event loop are serialized and go out in one write at the end of the
 * turn (`setImmediate`) or at `close()`: twenty hooks answering one tool call
 * cost one system call, not twenty, and none of it delays the verdict. While
 * a chain holds the log (`hold`), its hooks answer in turns of their own, one
 * after another: their lines go out at the end of the turn the chain ends in,
 * or `maxHoldMs` (default `MAX_HOLD_MS`) after the first of them (a slow hook, a question to the
 * user), whichever is first. Lines written in the turn a hold begins wait
 * with it (an event's `considered` line, written just before its chain
 * starts: it goes out with the chain's lines, not while its hooks work).
 */
export function createFileAuditSink(
  acaiHome: string,
  { maxHoldMs = MAX_HOLD_MS }: { maxHoldMs?: number } = {},
): AuditSink {
  const path = auditLogPath(acaiHome);
  let fd: number | undefined;
  let entries: (AuditEntry | ConsideredLine)[] = [];
  /** A write at the end of a turn that failed: the next write() reports it. */
  let broken: Error | undefined;
  let holds = 0;
  let heldTimer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    if (heldTimer !== undefined) clearTimeout(heldTimer);
    heldTimer = undefined;
    if (entries.length === 0 || fd === undefined) return;
    let text = "";
    for (const entry of entries) text += `${JSON.stringify(entry)}\n`;
    entries = [];
    writeSync(fd, text);
  };
  return {
    write(entry) {
      if (broken !== undefined) throw broken;
      if (fd === undefined) {
        // Owner-only: hook stderr and reasons may quote secrets (0600, new folders 0700).
        fd = openPrivateAppendSync(path);
      }
      // Ref'd: it runs at the end of this turn even if nothing else keeps acai alive.
      if (entries.length === 0) {
        if (holds === 0) setImmediate(atTurnEnd);
        else heldTimer ??= setTimeout(flushQuietly, maxHoldMs);
      }
      entries.push(entry);
    },
    hold() {
      holds++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holds--;
        if (holds === 0 && entries.length > 0) setImmediate(flushQuietly);
      };
    },
    close() {
      flush();
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
  /** A hold that began in the turn (an event's `considered` line, then its chain) keeps the lines. */
  function atTurnEnd(): void {
    if (holds === 0) flushQuietly();
    else if (entries.length > 0) heldTimer ??= setTimeout(flushQuietly, maxHoldMs);
  }
  function flushQuietly(): void {
    try {
      flush();
    } catch (error) {
      broken = error as Error;
    }
  }
}

/** The hooks of one event are audited within the same millisecond: its text is made once. */
let lastTime = Number.NaN;
let lastIso = "";
export function isoTime(time: number): string {
  if (time !== lastTime) {
    lastTime = time;
    lastIso = new Date(time).toISOString();
  }
  return lastIso;
}

export function auditEntry(args: {
  time: number;
  session: string;
  hook: HookDefinition;
  record: HookRunRecord;
  /** The answer after validation (see OnHookRun). */
  answered: Decision;
  effective: Decision;
  async?: boolean;
}): AuditEntry {
  const { hook, record, answered, effective } = args;
  const entry: AuditEntry = {
    time: isoTime(args.time),
    session: args.session,
    event: record.event,
    hook: hook.name,
    hook_id: hook.id,
    scope: hook.scope,
    source: hook.sourceKind,
    type: hookTypeOf(hook),
    file: hook.file,
    decision: record.decision.action,
    exit_code: record.exitCode,
    signal: record.signal,
    duration_ms: Math.round(record.durationMs),
    timed_out: record.timedOut,
    killed: record.outputLimit,
    aborted: record.aborted,
    async: args.async ?? false,
    sandboxed: record.sandboxed === true,
  };
  if (effective.action !== record.decision.action) entry.effect = effective.action;
  if (answered.action === "failed") entry.error = answered.error;
  const reason = effective.reason ?? record.decision.reason;
  if (reason !== undefined) entry.reason = capText(reason, AUDIT_STDERR_CHARS, "reason");
  const log = record.decision.log;
  // Already cut at ANSWER_TEXT_CAPS.log, visibly, when the answer was decoded.
  if (log !== undefined) entry.log = log;
  if (record.stderr !== "") entry.stderr = capText(record.stderr, AUDIT_STDERR_CHARS, "stderr");
  const note = record.decision.action === "block" ? exitTwoCrashNote(record) : undefined;
  if (note !== undefined) entry.note = note;
  if (record.toolCallId !== undefined) entry.tool_call_id = record.toolCallId;
  const changes = changesOf(answered);
  if (changes.length > 0) entry.changes = changes;
  return entry;
}

/** What a modify answer changes, one short name per part (the audit line's `changes`). */
function changesOf(decision: Decision): string[] {
  if (decision.action !== "modify") return [];
  const out: string[] = [];
  if (decision.input !== undefined) out.push("input");
  if (decision.inputPatch !== undefined) out.push("input_patch");
  if (decision.prompt !== undefined) out.push("prompt");
  if (decision.output !== undefined) out.push("output");
  const request = decision.request;
  if (request !== undefined) {
    if (request.messages !== undefined)
      out.push(`llm_request.messages (${request.messages.length})`);
    if (request.system !== undefined) out.push("llm_request.system");
    if (request.params !== undefined)
      out.push(`llm_request.config ${Object.keys(request.params).join(",")}`);
    if (request.tools !== undefined) out.push(`llm_request.tools [${request.tools.join(", ")}]`);
    if (request.toolMode !== undefined) out.push(`llm_request.tool_mode ${request.toolMode}`);
  }
  if (decision.response !== undefined) out.push("llm_response");
  if (decision.dropToolCalls !== undefined) {
    const which = decision.dropToolCalls === true ? "all" : decision.dropToolCalls.join(", ");
    out.push(`drop_tool_calls [${which}]`);
  }
  if (decision.followUp !== undefined) out.push(`follow_up ${decision.followUp.toolName}`);
  return out.map((text) => capText(text, AUDIT_STDERR_CHARS, "changes"));
}
