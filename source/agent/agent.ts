import { randomUUID } from "node:crypto";
import type { ToolSet } from "ai";
import { scanPatterns } from "../patterns/scan.js";
import type { Tool } from "../tools/types.js";
import { anySignal, sleep, unlessAborted } from "./abort.js";
import { type CompactTrigger, compactHistory } from "./compaction/compact.js";
import { DEFAULT_COMPACT_AT, isContextLengthError } from "./compaction/context-window.js";
import type {
  AgentEvent,
  IncomingMessage,
  SessionEndReason,
  StopReason,
  Usage,
  Verdict,
  VerdictFor,
} from "./events.js";
import { errorResult, History } from "./history.js";
import {
  addUsage,
  type StepOutcome,
  streamModelStep,
  toModelTools,
  ZERO_USAGE,
} from "./model-step.js";
import { describeProviderError } from "./provider-error.js";
import { providerOf, SessionCounter } from "./session-totals.js";
import { defaultSystemPrompt } from "./system-prompt.js";
import { runToolCalls } from "./tool-calls.js";
import { TranscriptWriter } from "./transcript.js";
import type { AgentOptions, Inbox, RunInput, TurnInput } from "./types.js";

type TurnOutcome = { stopReason: StopReason; message?: string };
/** What became of a message: its text for the model, suppressed, or a hook stopped the session. */
type Received =
  | { kind: "text"; text: string }
  | { kind: "suppressed" }
  | { kind: "stop"; reason: string };

/** Per-turn accumulators, filled while the turn runs and reported by `turn_end`. */
interface TurnState {
  turn: number;
  text: string;
  usage: Usage;
  /** The last step started. */
  steps: number;
}

/**
 * The agent loop. `run()` yields `AgentEvent`s; gate events wait for the
 * verdict passed to `next(verdict)` (none = continue). Verdicts:
 *
 * - `session_start`: block → `error` + `session_end` "error"; stop → `session_end` "hook_stop".
 * - `user_prompt`: block → `turn_end` "blocked" (no `turn_start`); `continue.prompt` replaces it.
 * - `model_request`: block → turn ends "blocked"; retry → waits `afterMs` and asks again
 *   (at most `maxHookRetries` times, then sends the request with a `warning`).
 * - `model_response`: block → turn ends "blocked" (pending tool calls are answered "not run").
 * - `tool_call_start`: block → not run, the reason is the tool result; `continue.input` → re-validated;
 *   then the permission check (`options.permissions`, with `continue.permission`): deny → not run,
 *   why is the tool result; ask → `permission_request`.
 * - `permission_request`: allow → the tool runs (`allow.input` re-validated); anything else → not run.
 * - `tool_call_end`: `continue.output` replaces the output; block → the reason is appended.
 * - `stop_request`: block → the reason becomes a user message and the turn goes on.
 * - any gate: stop → the turn ends "hook_stop", then the session ends "hook_stop".
 * - `turn_end` (after_agent): stop → the session ends "hook_stop" (the turn is already over).
 * - any event: `context` strings reach the model with the next request (see `History`).
 *
 * Provider errors become an `error` event and `turn_end` "error"; nothing is thrown.
 */
/** Consecutive `before_stop` blocks after which the agent stops anyway (hooks.md §2). */
export const DEFAULT_MAX_STOP_BLOCKS = 8;
/** Follow-up steps per turn for pattern answers given after the model finished (AgentOptions). */
export const DEFAULT_MAX_PATTERN_FOLLOW_UPS = 3;

export class Agent {
  private readonly options: AgentOptions;
  private readonly modelTools: ToolSet;
  private readonly toolsByName: ReadonlyMap<string, Tool>;
  /** The transcript of the run going on, if any. */
  private transcript: TranscriptWriter | undefined;

  constructor(options: AgentOptions) {
    this.options = options;
    this.modelTools = toModelTools(options.tools);
    this.toolsByName = new Map(options.tools.map((tool) => [tool.name, tool]));
  }

  async *run(input: RunInput): AsyncGenerator<AgentEvent, void, Verdict | undefined> {
    // Aborted when the consumer stops iterating early, so a started stream or tool does not linger.
    const internal = new AbortController();
    const runSignal = anySignal([input.signal, internal.signal]);
    const now = this.options.now ?? Date.now;
    const transcript = new TranscriptWriter(this.options.transcriptPath, now, {
      sessionId: this.options.sessionId,
      cwd: this.options.cwd,
      ...(this.options.resume ? { parentUuid: this.options.resume.parentUuid } : {}),
    });
    this.transcript = transcript;
    const session = new SessionRun(
      this.options,
      this.modelTools,
      this.toolsByName,
      transcript,
      now,
    );
    try {
      yield* session.run(input, runSignal);
    } finally {
      internal.abort();
      if (this.transcript === transcript) this.transcript = undefined;
      await transcript.close();
    }
  }

  /**
   * Records in the running session's transcript an event raised outside the
   * loop (a `notification` of the hooks layer); nothing when no run is going on.
   */
  record(event: AgentEvent): void {
    this.transcript?.event(event);
  }
}

class SessionRun {
  private readonly history: History;
  private readonly system: string;
  private readonly maxSteps: number;
  private readonly maxStopBlocks: number;
  /** Provider warnings already reported (each is said once per session). */
  private readonly modelWarnings = new Set<string>();
  private readonly maxHookRetries: number;
  private readonly maxPatternFollowUps: number;
  /** The running turn's prompt id (`promptId` of its events). */
  private promptId = "";
  /** Tokens of the conversation as the server measured them with the last request. */
  private measuredTokens: number | undefined;
  /** Steps, tool calls and tokens of the session, for `session_end` and `stop_request`. */
  private readonly counter: SessionCounter;
  /** Messages from other agents, if the session takes them. */
  private inbox: Inbox | undefined;

  constructor(
    private readonly options: AgentOptions,
    private readonly modelTools: ToolSet,
    private readonly tools: ReadonlyMap<string, Tool>,
    private readonly transcript: TranscriptWriter,
    private readonly now: () => number,
  ) {
    this.history = new History((message) => transcript.message(message));
    if (options.resume) this.history.load(options.resume.messages);
    this.system =
      options.systemPrompt ?? defaultSystemPrompt({ cwd: options.cwd, tools: options.tools });
    this.maxSteps = Math.max(1, options.maxSteps ?? 50);
    this.maxStopBlocks = Math.max(1, options.maxStopBlocks ?? DEFAULT_MAX_STOP_BLOCKS);
    this.maxHookRetries = Math.max(0, options.maxHookRetries ?? 3);
    this.maxPatternFollowUps = Math.max(
      0,
      options.maxPatternFollowUps ?? DEFAULT_MAX_PATTERN_FOLLOW_UPS,
    );
    this.counter = new SessionCounter(now());
  }

  /**
   * Yields an event, records it and the verdict it got, and queues the
   * verdict's context. The verdict is read as that event's own (`VerdictFor`):
   * the generator protocol carries one type for every event.
   */
  private async *emit<E extends AgentEvent>(
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

  async *run(
    input: RunInput,
    signal: AbortSignal,
  ): AsyncGenerator<AgentEvent, void, Verdict | undefined> {
    const start = yield* this.emit({
      type: "session_start",
      sessionId: this.options.sessionId,
      model: this.options.modelId,
      cwd: this.options.cwd,
      transcriptPath: this.options.transcriptPath,
      source: input.source ?? "startup",
      modelProvider: providerOf(this.options.model),
    });
    if (signal.aborted) return yield* this.end("aborted");
    if (start?.action === "block") {
      yield* this.emit({
        type: "error",
        message: `A session_start hook refused to start the session: ${start.reason}`,
      });
      return yield* this.end("error");
    }
    if (start?.action === "stop") {
      yield* this.emit({
        type: "warning",
        message: `A hook stopped the session: ${start.reason}`,
        source: "session_start",
      });
      return yield* this.end("hook_stop");
    }

    const prompts = iteratorOf(input.prompts);
    this.inbox = input.inbox;
    let turn = 0;
    try {
      while (true) {
        const next = await unlessAborted(Promise.resolve(prompts.next()), signal);
        if (signal.aborted || next === undefined) return yield* this.end("aborted");
        if (next.done) return yield* this.end(input.endReason?.() ?? "completed");
        if (next.value.command === "compact") {
          // `/compact [instructions]`: between turns, not a turn of its own.
          yield* this.compact("manual", next.value.prompt, anySignal([signal, next.value.signal]));
          if (signal.aborted) return yield* this.end("aborted");
          continue;
        }
        let turnInput = next.value;
        if (turnInput.message) {
          const received = yield* this.receive(turnInput.message, turn + 1);
          if (signal.aborted) return yield* this.end("aborted");
          if (received.kind === "stop") return yield* this.end("hook_stop");
          if (received.kind === "suppressed") continue;
          turnInput = { ...turnInput, prompt: received.text };
        }
        turn++;
        this.promptId = randomUUID();
        const turnSignal = anySignal([signal, next.value.signal]);
        const state: TurnState = { turn, text: "", usage: ZERO_USAGE, steps: 0 };
        const outcome = yield* this.turn(state, turnInput, turnSignal);
        const endVerdict = yield* this.emit({
          type: "turn_end",
          turn,
          promptId: this.promptId,
          stopReason: outcome.stopReason,
          text: state.text,
          usage: state.usage,
          ...(outcome.message !== undefined ? { message: outcome.message } : {}),
          steps: state.steps,
        });
        if (signal.aborted) return yield* this.end("aborted");
        if (outcome.stopReason === "hook_stop" || endVerdict?.action === "stop")
          return yield* this.end("hook_stop");
      }
    } finally {
      // Not awaited: an async generator's return() waits for a pending next() that may never settle.
      Promise.resolve(prompts.return?.()).catch(() => {});
    }
  }

  private async *end(
    reason: SessionEndReason,
  ): AsyncGenerator<AgentEvent, void, Verdict | undefined> {
    const failure = this.transcript.error;
    if (failure) {
      yield* this.emit({
        type: "warning",
        message: `Could not write the transcript ${this.transcript.file}: ${failure.message}`,
        source: "transcript",
      });
    }
    yield* this.emit({ type: "session_end", reason, totals: this.counter.totals(this.now()) });
  }

  private async *turn(
    state: TurnState,
    input: TurnInput,
    signal: AbortSignal,
  ): AsyncGenerator<AgentEvent, TurnOutcome, Verdict | undefined> {
    const { turn } = state;
    let prompt = input.prompt;
    const promptVerdict = yield* this.emit({
      type: "user_prompt",
      turn,
      promptId: this.promptId,
      prompt,
    });
    if (signal.aborted) return { stopReason: "aborted" };
    switch (promptVerdict?.action) {
      case "block":
        return {
          stopReason: "blocked",
          message: `A hook blocked the prompt: ${promptVerdict.reason}`,
        };
      case "stop":
        return { stopReason: "hook_stop", message: promptVerdict.reason };
      case "continue":
        if (promptVerdict.prompt !== undefined) prompt = promptVerdict.prompt;
        break;
      default:
        break;
    }
    this.history.addUser(prompt);
    yield* this.emit({ type: "turn_start", turn, prompt });
    if (signal.aborted) return { stopReason: "aborted" };

    let stopBlocks = 0;
    let followUps = 0;
    let compactedForError = false;
    for (let step = 1; ; step++) {
      if (step > this.maxSteps) return yield* this.maxStepsReached(state, step - 1, stopBlocks);
      state.steps = step;
      const delivered = yield* this.deliverInbox(turn);
      if (signal.aborted) return { stopReason: "aborted" };
      if (delivered) return delivered;
      yield* this.emit({ type: "step_start", turn, step });
      if (this.nearContextWindow()) yield* this.compact("auto", "", signal);
      if (signal.aborted) return { stopReason: "aborted" };
      const gate = yield* this.requestGate(turn, step, signal);
      if (gate) return gate;

      this.history.flushContext();
      const started = this.now();
      const outcome = yield* this.streamStep(turn, step, signal);
      if (outcome.kind === "aborted") return { stopReason: "aborted" };
      if (outcome.kind === "error" && isContextLengthError(outcome.error) && !compactedForError) {
        // The server says the conversation is too long: one compaction, one retry.
        compactedForError = true;
        if (yield* this.compact("auto", "", signal)) {
          step--;
          continue;
        }
      }
      if (outcome.kind === "error") {
        const message = describeProviderError(outcome.error);
        yield* this.emit({ type: "error", message, turn });
        return { stopReason: "error", message };
      }
      state.usage = addUsage(state.usage, outcome.usage);
      this.measuredTokens = outcome.usage.inputTokens + outcome.usage.outputTokens || undefined;
      state.text = outcome.text;
      this.history.addAssistant(outcome.responseMessages);
      const calls = outcome.toolCalls;
      const unanswered = (why: string) =>
        this.history.addToolResults(
          calls.map((c) => errorResult(c.toolCallId, c.toolName, `Not run: ${why}.`)),
        );

      const responseVerdict = yield* this.emit({
        type: "model_response",
        turn,
        promptId: this.promptId,
        step,
        model: this.options.modelId,
        text: outcome.text,
        toolCalls: calls.map(({ toolCallId, toolName, input }) => ({
          toolCallId,
          toolName,
          input,
        })),
        usage: outcome.usage,
        finishReason: outcome.finishReason,
        durationMs: Math.max(0, this.now() - started),
      });
      if (signal.aborted) {
        unanswered("the user interrupted the turn");
        return { stopReason: "aborted" };
      }
      if (responseVerdict?.action === "block" || responseVerdict?.action === "stop") {
        unanswered("a hook ended the turn");
        return responseVerdict.action === "block"
          ? {
              stopReason: "blocked",
              message: `A hook ended the turn after the model's response: ${responseVerdict.reason}`,
            }
          : { stopReason: "hook_stop", message: responseVerdict.reason };
      }

      const answered = yield* this.readOutput(turn, step, outcome.text);
      if (signal.aborted) {
        unanswered("the user interrupted the turn");
        return { stopReason: "aborted" };
      }

      if (calls.length > 0) {
        const tools = yield* runToolCalls(
          {
            emit: (event) => this.emit(event),
            tools: this.tools,
            cwd: this.options.cwd,
            env: this.options.env,
            ...(this.options.shellEnv ? { shellEnv: this.options.shellEnv } : {}),
            runner: this.options.runner,
            ...(this.options.permissions ? { permissions: this.options.permissions } : {}),
            signal,
            now: this.now,
            turn,
            promptId: this.promptId,
            step,
          },
          calls,
        );
        this.history.addToolResults(tools.results);
        if (tools.end) return tools.end;
        yield* this.emit({ type: "step_end", turn, step });
        if (signal.aborted) return { stopReason: "aborted" };
        continue;
      }

      yield* this.emit({ type: "step_end", turn, step });
      if (signal.aborted) return { stopReason: "aborted" };
      // A pattern answered after the model finished: one more step, so the answer is not lost.
      if (answered && followUps < this.maxPatternFollowUps) {
        followUps++;
        continue;
      }
      const stopVerdict = yield* this.emit({
        type: "stop_request",
        turn,
        promptId: this.promptId,
        step,
        lastAssistantMessage: outcome.text,
        stopHookActive: stopBlocks > 0,
        consecutiveBlocks: stopBlocks,
        stopReason: this.counter.afterRefusedTools ? "tool_rejected" : "end_turn",
      });
      if (signal.aborted) return { stopReason: "aborted" };
      if (stopVerdict?.action === "stop")
        return { stopReason: "hook_stop", message: stopVerdict.reason };
      if (stopVerdict?.action !== "block") return { stopReason: "end_turn" };
      stopBlocks++;
      if (stopBlocks >= this.maxStopBlocks) {
        return {
          stopReason: "stop_hook_limit",
          message: `A stop hook blocked the end of the turn ${stopBlocks} times in a row; acai stopped anyway (limit ${this.maxStopBlocks}). Last reason: ${stopVerdict.reason}`,
        };
      }
      this.history.addUser(`Stop hook feedback:\n${stopVerdict.reason}`);
    }
  }

  private nearContextWindow(): boolean {
    const window = this.options.contextWindow;
    if (window === undefined || this.measuredTokens === undefined) return false;
    return this.measuredTokens >= window * (this.options.compactAt ?? DEFAULT_COMPACT_AT);
  }

  /** Compacts the conversation (compaction/compact.ts); true when it did. Problems are warnings. */
  private async *compact(
    trigger: CompactTrigger,
    instructions: string,
    signal: AbortSignal,
  ): AsyncGenerator<AgentEvent, boolean, Verdict | undefined> {
    const result = yield* compactHistory(
      {
        emit: (event) => this.emit(event),
        history: this.history,
        boundary: (t, tokens) => this.transcript.compactBoundary(t, tokens),
        model: this.options.model,
        modelTools: this.modelTools,
        signal,
        now: this.now,
        measuredTokens: this.measuredTokens,
        maxModelRetries: this.options.maxModelRetries ?? 2,
        session: {
          sessionId: this.options.sessionId,
          model: this.options.modelId,
          modelProvider: providerOf(this.options.model),
          cwd: this.options.cwd,
          transcriptPath: this.options.transcriptPath,
        },
      },
      trigger,
      instructions,
    );
    const warn = (message: string) => this.emit({ type: "warning", message, source: "compaction" });
    switch (result.kind) {
      case "compacted":
        this.measuredTokens = result.tokensAfter;
        return true;
      case "blocked":
        yield* warn(`A pre_compact hook blocked the compaction: ${result.reason}`);
        return false;
      case "nothing":
        yield* warn("Nothing to compact yet: the conversation is too short.");
        return false;
      case "failed":
        yield* warn(`The compaction failed; the conversation is unchanged: ${result.message}`);
        return false;
      case "aborted":
        return false;
      default:
        return result satisfies never;
    }
  }

  /**
   * The step's complete message: `output`, then one `pattern` event per
   * `@namespace:target message` line (source/patterns/scan.ts). Returns
   * whether a pattern was answered (context queued for the next request).
   */
  private async *readOutput(
    turn: number,
    step: number,
    text: string,
  ): AsyncGenerator<AgentEvent, boolean, Verdict | undefined> {
    if (text.trim() === "") return false;
    const at = { turn, promptId: this.promptId, step };
    yield* this.emit({ type: "output", ...at, text });
    const scanned = scanPatterns(text);
    let answered = false;
    for (const found of scanned.patterns) {
      const verdict = yield* this.emit({ type: "pattern", ...at, ...found });
      if (verdict?.context?.some((c) => c.trim() !== "")) answered = true;
    }
    if (scanned.skipped > 0) {
      yield* this.emit({
        type: "warning",
        message: `${scanned.skipped} more @namespace: pattern line(s) in one message were not read (at most ${scanned.patterns.length} per message)`,
        source: "pattern",
      });
    }
    return answered;
  }

  /**
   * `--max-steps` reached: `before_stop` hooks hear it (`stop_reason: max_steps`);
   * a block cannot extend the turn past the limit, a stop ends the session.
   */
  private async *maxStepsReached(
    state: TurnState,
    step: number,
    stopBlocks: number,
  ): AsyncGenerator<AgentEvent, TurnOutcome, Verdict | undefined> {
    const message = `Stopped after ${this.maxSteps} model requests (--max-steps).`;
    const verdict = yield* this.emit({
      type: "stop_request",
      turn: state.turn,
      promptId: this.promptId,
      step,
      lastAssistantMessage: state.text,
      stopHookActive: stopBlocks > 0,
      consecutiveBlocks: stopBlocks,
      stopReason: "max_steps",
    });
    if (verdict?.action === "stop") return { stopReason: "hook_stop", message: verdict.reason };
    if (verdict?.action === "block") {
      yield* this.emit({
        type: "warning",
        message: `A before_stop hook blocked at the step limit; acai stops anyway (--max-steps ${this.maxSteps}). Reason: ${verdict.reason}`,
        source: "stop_request",
      });
    }
    return { stopReason: "max_steps", message };
  }

  /**
   * The message_received gate for one message, then the message is settled
   * (delivered or suppressed). Its verdict's context replaces the text rather
   * than going to the model beside it (agent-relay's `inject`).
   */
  private async *receive(
    message: IncomingMessage,
    turn: number,
  ): AsyncGenerator<AgentEvent, Received, Verdict | undefined> {
    const event: AgentEvent = { type: "message_received", turn, message };
    this.transcript.event(event);
    const verdict = (yield event) as VerdictFor<"message_received"> | undefined;
    if (verdict !== undefined && !isBareContinue(verdict))
      this.transcript.verdict(verdict, event.type);
    this.inbox?.settle(message.id);
    switch (verdict?.action) {
      case undefined:
        return { kind: "text", text: message.text };
      case "block":
        return { kind: "suppressed" };
      case "stop":
        return { kind: "stop", reason: verdict.reason };
      case "continue": {
        if (verdict.suppress === true) return { kind: "suppressed" };
        const replaced = verdict.prompt ?? verdict.context?.join("\n\n");
        return { kind: "text", text: replaced?.trim() ? replaced : message.text };
      }
      default:
        return verdict satisfies never;
    }
  }

  /** Messages that arrived during the turn (`acai -p`) reach the model with its next request. */
  private async *deliverInbox(
    turn: number,
  ): AsyncGenerator<AgentEvent, TurnOutcome | undefined, Verdict | undefined> {
    for (const message of this.inbox?.take() ?? []) {
      const received = yield* this.receive(message, turn);
      if (received.kind === "stop") return { stopReason: "hook_stop", message: received.reason };
      if (received.kind === "text") this.history.addUser(received.text);
    }
    return undefined;
  }

  /** The `model_request` gate, with hook retries. Returns an outcome when the turn must end. */
  private async *requestGate(
    turn: number,
    step: number,
    signal: AbortSignal,
  ): AsyncGenerator<AgentEvent, TurnOutcome | undefined, Verdict | undefined> {
    for (let retries = 0; ; retries++) {
      const verdict = yield* this.emit({
        type: "model_request",
        turn,
        promptId: this.promptId,
        step,
        model: this.options.modelId,
        systemPrompt: this.system,
        availableTools: [...this.tools.keys()],
        messageCount: this.history.messages.length + (this.history.pendingContext.length ? 1 : 0),
      });
      if (signal.aborted) return { stopReason: "aborted" };
      switch (verdict?.action) {
        case "block":
          return {
            stopReason: "blocked",
            message: `A hook blocked the model request: ${verdict.reason}`,
          };
        case "stop":
          return { stopReason: "hook_stop", message: verdict.reason };
        case "retry":
          if (retries >= this.maxHookRetries) {
            yield* this.emit({
              type: "warning",
              message: `A hook asked to retry the model request more than ${this.maxHookRetries} times; sending it now.`,
              source: "model_request",
            });
            return undefined;
          }
          await sleep(verdict.afterMs, signal);
          if (signal.aborted) return { stopReason: "aborted" };
          break;
        default:
          return undefined;
      }
    }
  }

  private async *streamStep(
    turn: number,
    step: number,
    signal: AbortSignal,
  ): AsyncGenerator<AgentEvent, StepOutcome, Verdict | undefined> {
    const stream = streamModelStep({
      model: this.options.model,
      system: this.system,
      messages: [...this.history.messages],
      tools: this.modelTools,
      maxRetries: this.options.maxModelRetries ?? 2,
      signal,
    });
    while (true) {
      const next = await stream.next();
      if (next.done) return next.value;
      const chunk = next.value;
      if (chunk.kind === "warning") {
        // Once per session: providers repeat the same warning on every request.
        if (!this.modelWarnings.has(chunk.message)) {
          this.modelWarnings.add(chunk.message);
          yield* this.emit({ type: "warning", message: chunk.message, source: "model" });
        }
        continue;
      }
      yield* this.emit({ type: "text_delta", turn, step, text: chunk.text });
      if (signal.aborted) {
        await stream.return({ kind: "aborted" });
        return { kind: "aborted" };
      }
    }
  }
}

function isBareContinue(verdict: Verdict): boolean {
  return (
    verdict.action === "continue" &&
    verdict.input === undefined &&
    verdict.prompt === undefined &&
    verdict.output === undefined &&
    verdict.suppress === undefined &&
    verdict.permission === undefined &&
    !verdict.context?.length
  );
}

function iteratorOf<T>(source: Iterable<T> | AsyncIterable<T>): Iterator<T> | AsyncIterator<T> {
  if (Symbol.asyncIterator in source) return (source as AsyncIterable<T>)[Symbol.asyncIterator]();
  return (source as Iterable<T>)[Symbol.iterator]();
}
