import type { ToolSet } from "ai";
import type { Tool } from "../tools/types.js";
import { anySignal, unlessAborted } from "./abort.js";
import type { SessionEndReason } from "./event-data.js";
import type { AgentEvent } from "./events.js";
import { toModelTools } from "./model-step.js";
import { SessionContext } from "./session-context.js";
import { endSession } from "./session-end.js";
import { startSession } from "./session-start.js";
import { TranscriptWriter } from "./transcript.js";
import { runTurn } from "./turn.js";
import { takeTurnInput } from "./turn-input.js";
import type { AgentOptions, RunInput } from "./types.js";
import type { Verdict } from "./verdicts.js";

export { DEFAULT_MAX_STOP_BLOCKS } from "./limits.js";

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
 * - any gate: stop → the turn ends "hook_stop", then the session ends "hook_stop"; the user's
 *   interrupt overtakes a stop: the turn ends "aborted" (gate-flow.ts reads every gate this way).
 * - `turn_end` (after_agent): stop → the session ends "hook_stop" (the turn is already over).
 * - any event: `context` strings reach the model with the next request (see `History`).
 *
 * Provider errors become an `error` event and `turn_end` "error"; nothing is thrown.
 *
 * Where each part lives: a run is `runSession` below; a turn is turn.ts, a
 * step step.ts, the gates beside them (stop-gate.ts, model-request.ts,
 * message-received.ts, permission-gate.ts), tool calls tool-calls.ts, and
 * what they all share session-context.ts.
 */
export class Agent {
  private readonly options: AgentOptions;
  private readonly modelTools: ToolSet;
  private readonly toolsByName: ReadonlyMap<string, Tool>;
  /** The transcript of the run going on, if any. */
  private transcript: TranscriptWriter | undefined;

  constructor(options: AgentOptions) {
    // Typed as required; checked here too, so no caller (a cast, plain JS) gets an agent whose tools run unchecked.
    assertPolicy(options);
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
    const session = new SessionContext({
      options: this.options,
      modelTools: this.modelTools,
      tools: this.toolsByName,
      transcript,
      now,
    });
    try {
      yield* runSession(session, input, runSignal);
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

/** Thrown when an agent would be built without a permission policy. */
export class MissingPermissionPolicyError extends Error {}

function assertPolicy(options: AgentOptions): void {
  const policy = (options as Partial<AgentOptions>).permissions;
  if (policy === undefined || policy === null || typeof policy.mode !== "string") {
    throw new MissingPermissionPolicyError(
      "An agent was built without a permission policy; every agent that runs tools (subagents included) takes the session's.",
    );
  }
}

/** A run: `session_start`, one turn per prompt taken from the queue, `session_end`. */
async function* runSession(
  session: SessionContext,
  input: RunInput,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, void, Verdict | undefined> {
  const refused = yield* startSession(session, input.source ?? "startup", signal);
  if (refused) return yield* endSession(session, refused);

  const prompts = iteratorOf(input.prompts);
  session.inbox = input.inbox;
  let turns = 0;
  const end = (reason: SessionEndReason) => endSession(session, reason, { turns, signal });
  try {
    while (true) {
      const next = await unlessAborted(Promise.resolve(prompts.next()), signal);
      if (signal.aborted || next === undefined) return yield* end("aborted");
      if (next.done) return yield* end(input.endReason?.() ?? "completed");
      const taken = yield* takeTurnInput(session, next.value, turns + 1, signal);
      if (taken.kind === "end") return yield* end(taken.reason);
      if (taken.kind === "none") continue;
      turns++;
      const turnSignal = anySignal([signal, next.value.signal]);
      const stopped = yield* runTurn(session, {
        turn: turns,
        prompt: taken.prompt,
        signal: turnSignal,
      });
      if (signal.aborted) return yield* end("aborted");
      if (stopped) return yield* end(stopped);
    }
  } finally {
    // Not awaited: an async generator's return() waits for a pending next() that may never settle.
    Promise.resolve(prompts.return?.()).catch(() => {});
  }
}

function iteratorOf<T>(source: Iterable<T> | AsyncIterable<T>): Iterator<T> | AsyncIterator<T> {
  if (Symbol.asyncIterator in source) return (source as AsyncIterable<T>)[Symbol.asyncIterator]();
  return (source as Iterable<T>)[Symbol.iterator]();
}
