import { fromSubagent } from "../agent/subagent-events.js";
import type { InterceptedEvent } from "../hooks/run/activity.js";
import { costUsd, type ModelPrice } from "../models/pricing.js";
import { ControlStripper, stripControls } from "../terminal/inert-text.js";
import { claudeMessagesOf, claudeShapeState } from "./claude-shapes.js";
import { EXIT } from "./exit-codes.js";
import type { Output } from "./io.js";
import type { RunOutcome } from "./outcome.js";

export const OUTPUT_FORMATS = ["text", "json", "stream-json"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface ResultInfo {
  sessionId: string;
  model: string;
  durationMs: number;
  exitCode: number;
  /** Error shown to the user when the run failed before or outside the agent (config, trust, ...). */
  error?: string;
  /** The model's price, when acai knows it (settings `pricing`, OpenAI's list prices). */
  price?: ModelPrice | undefined;
}

/** Claude Code's `subtype` of a result: `success`, or which error ended the run. */
type ResultSubtype = "success" | "error_max_turns" | "error_during_execution";

/**
 * The `{type: "result"}` object of `json` and the last line of `stream-json`:
 * acai's fields, and Claude Code's (`subtype`, `result`, `total_cost_usd`,
 * `duration_api_ms`; `is_error`, `session_id`, `num_turns`, `duration_ms`,
 * `usage` and `permission_denials` are shared) so scripts written for
 * `claude -p` read it as they are.
 */
export interface ResultObject {
  type: "result";
  subtype: ResultSubtype;
  is_error: boolean;
  exit_code: number;
  text: string;
  /** Claude Code's name for `text`. */
  result: string;
  stop_reason: string | null;
  usage: { input_tokens: number; output_tokens: number; total_tokens: number };
  session_id: string;
  model: string;
  num_turns: number;
  num_steps: number;
  duration_ms: number;
  duration_api_ms: number;
  /** What the run cost in USD; null when acai does not know the model's price. */
  total_cost_usd: number | null;
  /** Tool calls the permission check denied (only when there were some). */
  permission_denials?: { tool_name: string; tool_use_id: string; tool_input: unknown }[];
  /** stop_reason "deferred": the call a before_tool hook deferred (Claude Code's name). */
  deferred_tool_use?: { id: string; name: string; input: unknown; reason: string };
  error?: string;
}

export function resultObject(outcome: RunOutcome, info: ResultInfo): ResultObject {
  const error =
    info.error ??
    signalError(info.exitCode) ??
    errorText(outcome) ??
    fallbackError(info.exitCode, outcome);
  // A deferred call is no failure: the caller resumes the run (exit 5 says which it was).
  const deferred = outcome.stopReason === "deferred" && info.exitCode === EXIT.deferred;
  return {
    type: "result",
    subtype: deferred ? "success" : resultSubtype(outcome, info.exitCode),
    is_error: info.exitCode !== 0 && !deferred,
    exit_code: info.exitCode,
    text: outcome.text,
    result: outcome.text,
    stop_reason: outcome.stopReason ?? null,
    usage: {
      input_tokens: outcome.usage.inputTokens,
      output_tokens: outcome.usage.outputTokens,
      total_tokens: outcome.usage.totalTokens,
    },
    session_id: info.sessionId,
    model: info.model,
    num_turns: outcome.numTurns,
    num_steps: outcome.numSteps,
    duration_ms: info.durationMs,
    duration_api_ms: Math.round(outcome.apiDurationMs),
    total_cost_usd: info.price ? costUsd(outcome.usage, info.price) : null,
    ...(outcome.permissionDenials.length > 0
      ? {
          permission_denials: outcome.permissionDenials.map((d) => ({
            tool_name: d.toolName,
            tool_use_id: d.toolUseId,
            tool_input: d.toolInput,
          })),
        }
      : {}),
    ...(outcome.deferred === undefined ? {} : { deferred_tool_use: outcome.deferred }),
    ...(error && info.exitCode !== 0 && !deferred ? { error } : {}),
  };
}

/** The step limit is Claude Code's turn limit, whatever the exit code (`--max-steps` ends with 0). */
function resultSubtype(outcome: RunOutcome, exitCode: number): ResultSubtype {
  if (outcome.stopReason === "max_steps") return "error_max_turns";
  return exitCode === 0 ? "success" : "error_during_execution";
}

function signalError(exitCode: number): string | undefined {
  if (exitCode === EXIT.sigint) return "interrupted by SIGINT";
  if (exitCode === EXIT.sigterm) return "interrupted by SIGTERM";
  if (exitCode === EXIT.sighup) return "interrupted by SIGHUP (the terminal went away)";
  return undefined;
}

/** `error` is documented to be present whenever `is_error` is: say at least why the run ended. */
function fallbackError(exitCode: number, outcome: RunOutcome): string {
  return outcome.stopReason
    ? `the run ended with stop_reason ${outcome.stopReason} (exit ${exitCode})`
    : `the run ended with exit code ${exitCode}`;
}

function errorText(outcome: RunOutcome): string | undefined {
  if (outcome.errors.length > 0) return outcome.errors.join("\n");
  return outcome.stopMessage;
}

export interface Printer {
  event(event: InterceptedEvent): void;
  /** A message from acai itself (settings warnings, broken tools) before or outside the run. */
  warning(message: string): void;
  finish(outcome: RunOutcome, info: ResultInfo): void;
}

export function createPrinter(
  format: OutputFormat,
  out: { stdout: Output; stderr: Output },
  options: { verbose?: boolean; stdoutIsTTY?: boolean; assumeYes?: boolean } = {},
): Printer {
  switch (format) {
    case "text":
      return new TextPrinter(out.stdout, out.stderr, {
        verbose: options.verbose ?? false,
        stdoutIsTTY: options.stdoutIsTTY ?? false,
        assumeYes: options.assumeYes ?? false,
      });
    case "json":
      return new JsonPrinter(out.stdout, out.stderr);
    case "stream-json":
      return new StreamJsonPrinter(out.stdout);
    default:
      return format satisfies never;
  }
}

/**
 * Assistant text to stdout as it streams; everything else, concise, to stderr.
 * Nothing of tools, hooks or tool inputs reaches the terminal with its control
 * characters (`stripControls`); the assistant's text is filtered likewise when
 * stdout is a terminal, and kept byte for byte when it is a pipe or a file.
 */
class TextPrinter implements Printer {
  private lastChar = "\n";
  private currentStep = -1;
  private wroteText = false;
  /** A hook's block was already shown: the turn's "blocked" message would only repeat it. */
  private shownHookBlock = false;
  private readonly modelText: ControlStripper | undefined;
  private readonly verbose: boolean;
  /** `--yes`: a headless run has no one to ask, so every `ask` is allowed with it, denied without. */
  private readonly assumeYes: boolean;

  constructor(
    private readonly stdout: Output,
    private readonly stderr: Output,
    options: { verbose: boolean; stdoutIsTTY: boolean; assumeYes: boolean },
  ) {
    this.verbose = options.verbose;
    this.assumeYes = options.assumeYes;
    this.modelText = options.stdoutIsTTY ? new ControlStripper() : undefined;
  }

  event(event: InterceptedEvent): void {
    const note =
      describeForHuman(event, { assumeYes: this.assumeYes }) ??
      (this.verbose ? describeVerbose(event) : undefined);
    if (
      event.type === "hook_end" &&
      (event.outcome === "block" ||
        event.outcome === "stop" ||
        (event.outcome === "ask" && !this.assumeYes))
    ) {
      this.shownHookBlock = true;
    }
    if (note) this.note(note);
    // stdout is the session's answer: a subagent's text reaches it only as its Task result.
    if (event.type === "text_delta" && event.text.length > 0 && !fromSubagent(event)) {
      const text = this.modelText ? this.modelText.push(event.text) : event.text;
      if (text.length === 0) return;
      const stepKey = event.turn * 100_000 + event.step;
      if (this.wroteText && stepKey !== this.currentStep && this.lastChar !== "\n") {
        this.stdout.write("\n");
      }
      this.currentStep = stepKey;
      this.wroteText = true;
      this.stdout.write(text);
      this.lastChar = text.at(-1) ?? this.lastChar;
    }
  }

  warning(message: string): void {
    this.note(`warning: ${message}`);
  }

  finish(outcome: RunOutcome, info: ResultInfo): void {
    if (this.lastChar !== "\n") {
      this.stdout.write("\n");
      this.lastChar = "\n";
    }
    const interrupted = info.error === undefined ? signalError(info.exitCode) : undefined;
    if (info.error) this.note(`error: ${info.error}`);
    else if (interrupted) this.note(interrupted);
    else if (
      info.exitCode !== 0 &&
      outcome.stopMessage &&
      outcome.errors.length === 0 &&
      !this.shownHookBlock
    ) {
      this.note(outcome.stopMessage);
    }
  }

  private note(text: string): void {
    // Keep stderr lines from landing in the middle of a line of streamed text.
    if (this.lastChar !== "\n") {
      this.stdout.write("\n");
      this.lastChar = "\n";
    }
    this.stderr.write(`acai: ${stripControls(text)}\n`);
  }
}

/** Warnings and errors raised during the run: shown on stderr in every format but stream-json. */
function describeProblem(event: InterceptedEvent): string | undefined {
  switch (event.type) {
    case "warning":
      return `warning: ${event.message}`;
    case "error":
      return `error: ${event.message}`;
    case "hook_warning":
      return `hook warning${event.hook ? ` (${event.hook.name})` : ""}: ${event.message}`;
    default:
      return undefined;
  }
}

/**
 * The one-line stderr note for an event in text mode, or nothing. A hook's
 * `ask` is settled before its `hook_end`: headless, `--yes` allowed it, else
 * it was denied (`detail` then says so and how to allow it), and the call did
 * not happen — shown like a block.
 */
function describeForHuman(
  event: InterceptedEvent,
  headless: { assumeYes: boolean } = { assumeYes: false },
): string | undefined {
  switch (event.type) {
    case "warning":
    case "error":
    case "hook_warning":
      return describeProblem(event);
    case "hook_end": {
      const parts: string[] = [];
      if (event.outcome === "block" || event.outcome === "stop") {
        parts.push(
          `hook ${event.hook.name} ${event.outcome === "block" ? "blocked" : "stopped"} ${event.event}${event.detail ? `: ${event.detail}` : ""}`,
        );
      }
      if (event.outcome === "ask") {
        const answer = headless.assumeYes ? " (allowed by --yes)" : "";
        parts.push(
          `hook ${event.hook.name} asked to confirm ${event.event}${event.detail ? `: ${event.detail}` : ""}${answer}`,
        );
      }
      if (event.message) parts.push(`hook ${event.hook.name}: ${event.message}`);
      return parts.length > 0 ? parts.join("\nacai: ") : undefined;
    }
    case "tool_call_error":
      return event.denied
        ? `permission denied: ${event.toolName} ${clip(summarize(event.input), 80)}: ${event.error}`
        : undefined;
    case "message_received":
      return `message from ${event.message.from}${event.message.broadcast ? " (to all)" : ""}: ${clip(event.message.content, 200)}`;
    case "message_sent": {
      const { to, delivered, kept } = event.message;
      const where = [
        ...(delivered.length > 0 ? [`delivered to ${delivered.join(", ")}`] : []),
        ...(kept.length > 0 ? [`kept for ${kept.join(", ")} (not running)`] : []),
      ];
      return `message to ${to}: ${where.length > 0 ? where.join("; ") : "no agent was running"}`;
    }
    case "turn_end":
      if (event.stopReason === "max_steps")
        return `stopped: ${event.message ?? "max steps reached"}`;
      if (event.stopReason === "stop_hook_limit" || event.stopReason === "hook_stop") {
        return event.message ? `stopped: ${event.message}` : `stopped (${event.stopReason})`;
      }
      if (event.stopReason === "deferred") {
        return `deferred: ${event.message ?? "a hook deferred a tool call"}; acai -p --resume SESSION_ID asks the hooks again`;
      }
      return undefined;
    default:
      return undefined;
  }
}

/** Extra notes of `--verbose`: tool calls and every hook run. */
function describeVerbose(event: InterceptedEvent): string | undefined {
  switch (event.type) {
    case "tool_call_start":
      return `${subagentPrefix(event)}tool ${event.toolName} ${clip(JSON.stringify(event.input) ?? "", 120)}`;
    case "subagent_start":
      return `subagent ${event.agentType} (${event.agentId}) started: ${clip(event.description, 120)}`;
    case "subagent_end":
      return `subagent ${event.agentType} (${event.agentId}) ended: ${event.stopReason}`;
    case "tool_call_error":
      return `${subagentPrefix(event)}tool ${event.toolName} failed: ${clip(event.error, 200)}`;
    case "hook_end":
      return `hook ${event.hook.name} (${event.event}): ${event.outcome}${event.detail ? ` (${clip(event.detail, 200)})` : ""}, ${Math.round(event.durationMs)} ms`;
    default:
      return undefined;
  }
}

/** "[subagent TYPE] " before what happened inside a subagent. */
function subagentPrefix(event: InterceptedEvent): string {
  return fromSubagent(event) ? `[subagent ${event.agentType ?? ""}] ` : "";
}

/** A tool input in one short line: a command or a path when it has one. */
function summarize(input: unknown): string {
  if (typeof input === "object" && input !== null) {
    const fields = input as Record<string, unknown>;
    for (const key of ["command", "file_path", "path", "pattern"]) {
      if (typeof fields[key] === "string") return fields[key] as string;
    }
  }
  return JSON.stringify(input) ?? "";
}

function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ");
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

class JsonPrinter implements Printer {
  constructor(
    private readonly stdout: Output,
    private readonly stderr: Output,
  ) {}

  /** stdout holds only the result object; warnings and errors raised during the run go to stderr. */
  event(event: InterceptedEvent): void {
    const note = describeProblem(event);
    if (note) this.stderr.write(`acai: ${stripControls(note)}\n`);
  }

  warning(message: string): void {
    this.stderr.write(`acai: warning: ${stripControls(message)}\n`);
  }

  finish(outcome: RunOutcome, info: ResultInfo): void {
    this.stdout.write(`${JSON.stringify(resultObject(outcome, info))}\n`);
  }
}

/**
 * One JSON object per line: every agent and hook event, each followed by the
 * Claude Code message it stands for when there is one (claude-shapes.ts),
 * then the result.
 */
class StreamJsonPrinter implements Printer {
  private readonly claude = claudeShapeState();

  constructor(private readonly stdout: Output) {}

  event(event: InterceptedEvent): void {
    this.stdout.write(`${JSON.stringify(event)}\n`);
    for (const message of claudeMessagesOf(event, this.claude)) {
      this.stdout.write(`${JSON.stringify(message)}\n`);
    }
  }

  warning(message: string): void {
    this.stdout.write(`${JSON.stringify({ type: "warning", message, source: "acai" })}\n`);
  }

  finish(outcome: RunOutcome, info: ResultInfo): void {
    this.stdout.write(`${JSON.stringify(resultObject(outcome, info))}\n`);
  }
}
