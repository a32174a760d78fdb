import type { ToolSet } from "ai";
import type { Tool } from "../tools/types.js";
import type { ToolCallSummary } from "./event-data.js";
import type { AgentEvent } from "./events.js";
import { History } from "./history.js";
import { type Limits, limitsOf } from "./limits.js";
import { SessionCounter } from "./session-totals.js";
import { defaultSystemPrompt } from "./system-prompt.js";
import type { TranscriptWriter } from "./transcript.js";
import type { AgentOptions, Inbox } from "./types.js";
import type { Verdict, VerdictFor } from "./verdicts.js";

export interface SessionParts {
  options: AgentOptions;
  /** The tools as the model sees them (`toModelTools`). */
  modelTools: ToolSet;
  tools: ReadonlyMap<string, Tool>;
  transcript: TranscriptWriter;
  now: () => number;
}

/**
 * What every phase of one run shares (agent.ts, turn.ts, step.ts and the
 * gates): the options and limits, the conversation, the transcript, the
 * session's counters, and `emit`, the way an event leaves the loop.
 */
export class SessionContext {
  readonly options: AgentOptions;
  readonly modelTools: ToolSet;
  readonly tools: ReadonlyMap<string, Tool>;
  readonly transcript: TranscriptWriter;
  readonly now: () => number;
  readonly history: History;
  readonly system: string;
  readonly limits: Limits;
  /** Steps, tool calls and tokens of the session, for `session_end` and `stop_request`. */
  readonly counter: SessionCounter;
  /** Provider warnings already reported (each is said once per session). */
  readonly modelWarnings = new Set<string>();
  /** Tokens of the conversation as the server measured them with the last request. */
  measuredTokens: number | undefined;
  /** Messages from other agents, if the session takes them. */
  inbox: Inbox | undefined;
  /** Calls deferred in the run this one resumes, run at the start of the first turn. */
  private pending: ToolCallSummary[];

  constructor(parts: SessionParts) {
    const { options, transcript } = parts;
    this.options = options;
    this.modelTools = parts.modelTools;
    this.tools = parts.tools;
    this.transcript = transcript;
    this.now = parts.now;
    this.history = new History(
      (message) => transcript.message(message),
      (was, text) => transcript.promptRewrite(was, text),
    );
    if (options.resume) this.history.load(options.resume.messages);
    this.history.queueContext(options.resume?.context ?? []);
    this.pending = [...(options.resume?.pending ?? [])];
    this.system =
      options.systemPrompt ?? defaultSystemPrompt({ cwd: options.cwd, tools: options.tools });
    this.limits = limitsOf(options);
    this.counter = new SessionCounter(parts.now());
  }

  hasPending(): boolean {
    return this.pending.length > 0;
  }

  /** The deferred calls still to run (once: the first turn takes them). */
  takePending(): ToolCallSummary[] {
    const calls = this.pending;
    this.pending = [];
    return calls;
  }

  /**
   * Yields an event, records it and the verdict it got, and queues the
   * verdict's context. The verdict is read as that event's own (`VerdictFor`):
   * the generator protocol carries one type for every event.
   */
  async *emit<E extends AgentEvent>(
    event: E,
  ): AsyncGenerator<AgentEvent, VerdictFor<E["type"]> | undefined, Verdict | undefined> {
    this.transcript.event(event);
    this.counter.observe(event);
    const verdict = yield event;
    if (verdict === undefined || isBareContinue(verdict)) return undefined;
    this.transcript.verdict(verdict, event.type);
    // pre_compact's context is instructions for the summary, not for the model's next request.
    if (verdict.action !== "stop" && verdict.context?.length && event.type !== "compact_start")
      this.history.queueContext(verdict.context);
    return verdict as VerdictFor<E["type"]>;
  }
}

/** A verdict that changes nothing: not recorded. */
export function isBareContinue(verdict: Verdict): boolean {
  return (
    verdict.action === "continue" &&
    verdict.input === undefined &&
    verdict.prompt === undefined &&
    verdict.output === undefined &&
    verdict.suppress === undefined &&
    verdict.permission === undefined &&
    verdict.request === undefined &&
    verdict.response === undefined &&
    verdict.text === undefined &&
    verdict.dropToolCalls === undefined &&
    verdict.followUp === undefined &&
    verdict.lastTurn === undefined &&
    !verdict.context?.length
  );
}
