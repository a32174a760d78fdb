/**
 * A plugin handler's outcome → the run record every hook run leaves (the
 * audit log, `acai hooks test`), its answer decoded exactly as a spawned
 * hook's stdout is (run.ts `decodeRunResult`): the same dialects, the same
 * depth, size and text caps.
 */
import { jsonTextTooDeep } from "../../../config/json-depth.js";
import { quietRunResult } from "../../../process/result.js";
import { type Decision, failed } from "../../contract/decision.js";
import type { HookDefinition, HookEventName } from "../../contract/definition.js";
import { MAX_ANSWER_DEPTH } from "../../contract/dialects/index.js";
import type { RegistrationShape } from "../../contract/plugin-registration.js";
import { decodeRunResult, formatBytes } from "../decode.js";
import type { HookRunRecord } from "../run-record.js";
import { translateOpenClawAnswer } from "./openclaw.js";

/** What the worker said, or why nothing usable came back. */
export type CallOutcome =
  | { kind: "answer"; json?: string; text?: string; error?: string }
  | { kind: "timeout" }
  | { kind: "aborted" }
  | { kind: "lost"; error: string };

export interface RecordContext {
  hook: HookDefinition;
  event: HookEventName;
  shape: RegistrationShape;
  /** What the handler was given; serialized only if a reader asks (`acai hooks test`). */
  payload: unknown;
  startedAt: number;
  now: number;
  maxOutputBytes: number;
}

export function pluginRecord(ctx: RecordContext, outcome: CallOutcome): HookRunRecord {
  return new PluginRunRecord(ctx, outcome);
}

/**
 * A class rather than an object literal with a getter: a literal's getter is a
 * closure allocated per record, and plugins answer hundreds of thousands of
 * calls a second. `stdin` (the payload serialized) is made only when read.
 */
class PluginRunRecord implements HookRunRecord {
  readonly hookId: string;
  readonly event: HookEventName;
  readonly command: string;
  readonly args: readonly string[];
  readonly exitCode: number | null;
  readonly signal = null;
  readonly stdout: string;
  readonly stderr: string;
  readonly durationMs: number;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  readonly outputLimit: boolean;
  readonly decision: Decision;
  private readonly payload: unknown;

  constructor(ctx: RecordContext, outcome: CallOutcome) {
    const answered = outcome.kind === "answer" ? (outcome.json ?? outcome.text ?? "") : "";
    const error = outcome.kind === "answer" ? outcome.error : undefined;
    this.hookId = ctx.hook.id;
    this.event = ctx.event;
    this.payload = ctx.payload;
    this.command = ctx.hook.launch.command;
    this.args = ctx.hook.launch.args;
    this.exitCode = outcome.kind === "answer" && error === undefined ? 0 : null;
    this.stdout = answered.length > 4096 ? `${answered.slice(0, 4096)}…` : answered;
    this.stderr = error ?? (outcome.kind === "lost" ? outcome.error : "");
    this.durationMs = ctx.now - ctx.startedAt;
    this.timedOut = outcome.kind === "timeout";
    this.aborted = outcome.kind === "aborted";
    this.outputLimit = answered.length > ctx.maxOutputBytes;
    this.decision = decisionOf(ctx, outcome);
  }

  get stdin(): string {
    return safeJson(this.payload);
  }
}

function safeJson(payload: unknown): string {
  try {
    return JSON.stringify(payload) ?? "";
  } catch {
    return "";
  }
}

function decisionOf(ctx: RecordContext, outcome: CallOutcome): Decision {
  switch (outcome.kind) {
    case "timeout":
      return failed(`timed out after ${ctx.hook.timeoutMs} ms (its handler was abandoned)`);
    case "aborted":
      return failed("aborted");
    case "lost":
      return failed(outcome.error);
    case "answer":
      if (outcome.error !== undefined) return failed(`its handler ${outcome.error}`);
      return answerDecision(ctx, outcome.json ?? outcome.text);
    default:
      return outcome satisfies never;
  }
}

function answerDecision(ctx: RecordContext, answer: string | undefined): Decision {
  if (answer === undefined) return { action: "continue" };
  // OpenClaw's void hooks are not waited for, and what they return is not read (as in OpenClaw).
  if (ctx.shape === "openclaw" && ctx.hook.async) return { action: "continue" };
  if (answer.length > ctx.maxOutputBytes) {
    return failed(`answered more than ${formatBytes(ctx.maxOutputBytes)}; the answer is not read`);
  }
  const stdout = ctx.shape === "openclaw" ? openClawText(answer, ctx.event) : answer;
  // Decoding is pure: a handler's usual answers are decoded once per event.
  const cacheable = stdout.length <= CACHED_ANSWER_CHARS;
  const key = cacheable ? `${ctx.event}\u0000${stdout}` : "";
  const known = cacheable ? decoded.get(key) : undefined;
  if (known !== undefined) return { ...known };
  const decision = decodeRunResult(quietRunResult({ exitCode: 0, stdout }), ctx.event, {
    timeoutMs: ctx.hook.timeoutMs,
    maxOutputBytes: ctx.maxOutputBytes,
  });
  // A modify carries objects the chain goes on to use: decoded afresh each time.
  if (cacheable && decision.action !== "modify") {
    if (decoded.size >= CACHED_ANSWERS) decoded.clear();
    decoded.set(key, decision);
  }
  return { ...decision };
}

/** Answers (per event) whose decoding is kept, and the longest kept. */
const CACHED_ANSWERS = 256;
const CACHED_ANSWER_CHARS = 1024;
const decoded = new Map<string, Decision>();

/** An OpenClaw answer (`{ block, blockReason, params }`, …) rewritten in acai's dialect (within the depth limit). */
function openClawText(answer: string, event: HookEventName): string {
  if (!answer.trimStart().startsWith("{") || jsonTextTooDeep(answer, MAX_ANSWER_DEPTH)) {
    return answer;
  }
  try {
    return JSON.stringify(translateOpenClawAnswer(JSON.parse(answer), event));
  } catch {
    return answer;
  }
}
