import type { StopReason, Usage } from "../agent/event-data.js";
import { fromSubagent } from "../agent/subagent-events.js";
import type { InterceptedEvent } from "../hooks/run/activity.js";
import { EXIT, type ExitCode } from "./exit-codes.js";

/** What a headless run amounts to, folded from its events. */
export interface RunOutcome {
  /** Final assistant text of the last turn. */
  text: string;
  stopReason: StopReason | undefined;
  /** Why a turn was blocked / limited / failed, when the agent said so. */
  stopMessage: string | undefined;
  usage: Usage;
  numTurns: number;
  numSteps: number;
  /** Time spent in model requests (the `model_response` events' durations). */
  apiDurationMs: number;
  errors: string[];
  /** A session_start hook refused the session. */
  refusedAtStart: boolean;
  sessionEndReason: string | undefined;
  /** Tool calls the permission check denied (Claude Code's `permission_denials`). */
  permissionDenials: { toolName: string; toolUseId: string; toolInput: unknown }[];
  /** The call a before_tool hook deferred (the run's last), as `deferred_tool_use` states it. */
  deferred?: { id: string; name: string; input: unknown; reason: string };
}

/** The outcome of a run that never reached the loop. */
export function emptyOutcome(): RunOutcome {
  return {
    text: "",
    stopReason: undefined,
    stopMessage: undefined,
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    numTurns: 0,
    numSteps: 0,
    apiDurationMs: 0,
    errors: [],
    refusedAtStart: false,
    sessionEndReason: undefined,
    permissionDenials: [],
  };
}

export class OutcomeTracker {
  private readonly state: RunOutcome = emptyOutcome();
  private sawTurn = false;
  /**
   * Past session_end: a last turn its hooks asked for (agent-relay's
   * onSessionEnd inject) is shown, but the run's result, reason and exit
   * code are what they were when the session ended.
   */
  private ended = false;
  private stepUsage: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

  observe(event: InterceptedEvent): void {
    // A subagent's turns, steps and errors are its Task call's, not the run's.
    if (fromSubagent(event) || this.ended) return;
    const s = this.state;
    switch (event.type) {
      case "turn_start":
        this.sawTurn = true;
        s.numTurns++;
        return;
      case "step_start":
        s.numSteps++;
        return;
      case "model_response":
        this.stepUsage = addUsage(this.stepUsage, event.usage);
        s.apiDurationMs += event.durationMs;
        return;
      case "turn_end":
        s.text = event.text;
        s.stopReason = event.stopReason;
        s.stopMessage = event.message;
        s.usage = addUsage(s.usage, pickUsage(event.usage, this.stepUsage));
        this.stepUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
        return;
      case "error":
        s.errors.push(event.message);
        return;
      case "tool_call_deferred":
        s.deferred = {
          id: event.toolCallId,
          name: event.toolName,
          input: event.input,
          reason: event.reason,
        };
        return;
      case "tool_call_error":
        if (event.denied) {
          s.permissionDenials.push({
            toolName: event.toolName,
            toolUseId: event.toolCallId,
            toolInput: event.input,
          });
        }
        return;
      case "hook_end":
        if (
          event.event === "session_start" &&
          (event.outcome === "block" || event.outcome === "stop")
        ) {
          if (!this.sawTurn) s.refusedAtStart = true;
        }
        // Only honoured stops are reported as "stop" on an observe-only event (after_agent).
        if (event.event === "after_agent" && event.outcome === "stop") {
          s.stopMessage = `hook ${event.hook.name} stopped the session after the turn${event.detail ? `: ${event.detail}` : ""}`;
        }
        return;
      case "session_end":
        this.ended = true;
        s.sessionEndReason = event.reason;
        if (!this.sawTurn && event.reason === "hook_stop") s.refusedAtStart = true;
        return;
      default:
        return;
    }
  }

  get outcome(): RunOutcome {
    return this.state;
  }
}

function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}

/** Prefer the turn's own total; fall back to the sum of its steps when the turn reports none. */
function pickUsage(turn: Usage, steps: Usage): Usage {
  return turn.totalTokens > 0 || turn.inputTokens > 0 || turn.outputTokens > 0 ? turn : steps;
}

export type ReceivedSignal = "SIGINT" | "SIGTERM" | undefined;

export function exitCodeFor(outcome: RunOutcome, signal: ReceivedSignal): ExitCode {
  if (signal === "SIGINT") return EXIT.sigint;
  if (signal === "SIGTERM") return EXIT.sigterm;
  if (outcome.refusedAtStart) return EXIT.hookBlocked;
  const reason = outcome.stopReason;
  if (reason === undefined) {
    if (outcome.sessionEndReason === "hook_stop") return EXIT.hookBlocked;
    return EXIT.error;
  }
  switch (reason) {
    case "end_turn":
    case "max_steps":
      // An after_agent hook's stop ends the session after a turn that itself went well.
      return outcome.sessionEndReason === "hook_stop" ? EXIT.hookBlocked : EXIT.ok;
    case "blocked":
    case "hook_stop":
    case "stop_hook_limit":
      return EXIT.hookBlocked;
    case "aborted":
      return EXIT.sigint;
    case "error":
      return EXIT.error;
    case "deferred":
      return EXIT.deferred;
    default:
      return reason satisfies never;
  }
}
