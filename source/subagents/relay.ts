/**
 * A subagent's nested `Agent.run()` seen from its parent: its events go up
 * marked with its id and type, its lifecycle becomes the subagent events
 * (session_start → `subagent_start`, stop_request → `subagent_stop`), and
 * what only the session's own agent has is kept inside (user_prompt,
 * turn_start, turn_end, session_end: their hooks do not fire for a subagent).
 * Verdicts come back down unchanged: the nested agent applies them as its own
 * (a `subagent_stop` block is a `stop_request` block to it).
 */

import type { StopReason, Usage } from "../agent/event-data.js";
import type { AgentEvent } from "../agent/events.js";
import { RAISES } from "../agent/raises.js";
import type { SubagentMark } from "../agent/subagent-events.js";
import { ZERO_USAGE } from "../agent/usage.js";
import type { Verdict } from "../agent/verdicts.js";

export interface RelayInfo {
  agentId: string;
  agentType: string;
  description: string;
  prompt: string;
  toolCallId: string;
  depth: number;
  transcriptPath: string;
}

export interface RelayOutcome {
  stopReason: StopReason;
  text: string;
  usage: Usage;
  message?: string;
  /** A subagent_start hook's block reason: the subagent never started. */
  refused?: string;
  /** A subagent_start hook's stop reason. */
  stopped?: string;
}

type Run = AsyncGenerator<AgentEvent, void, Verdict | undefined>;

export async function* relaySubagent(
  run: Run,
  info: RelayInfo,
): AsyncGenerator<AgentEvent, RelayOutcome, Verdict | undefined> {
  const mark: Required<SubagentMark> = { agentId: info.agentId, agentType: info.agentType };
  let outcome: RelayOutcome = {
    stopReason: "error",
    text: "",
    usage: ZERO_USAGE,
    message: "the subagent ended before its turn",
  };
  let verdict: Verdict | undefined;
  for (;;) {
    const next = await run.next(verdict);
    if (next.done) return outcome;
    const event = next.value;
    verdict = undefined;
    switch (event.type) {
      case "session_start":
        verdict = yield {
          type: RAISES.subagent_start,
          ...mark,
          description: info.description,
          prompt: info.prompt,
          toolCallId: info.toolCallId,
          depth: info.depth,
        };
        if (verdict?.action === "block") outcome = { ...outcome, refused: verdict.reason };
        if (verdict?.action === "stop") outcome = { ...outcome, stopped: verdict.reason };
        break;
      case "stop_request":
        verdict = yield {
          type: RAISES.subagent_stop,
          ...mark,
          turn: event.turn,
          step: event.step,
          lastAssistantMessage: event.lastAssistantMessage,
          stopHookActive: event.stopHookActive,
          consecutiveBlocks: event.consecutiveBlocks,
          agentTranscriptPath: info.transcriptPath,
        };
        break;
      case "turn_end":
        outcome = {
          ...outcome,
          stopReason: event.stopReason,
          text: event.text,
          usage: event.usage,
          ...(event.message === undefined ? { message: undefined } : { message: event.message }),
        };
        break;
      case "user_prompt":
      case "turn_start":
      case "session_end":
      // A subagent's failed request fails its Task call (after_tool_failure); stop_failure is the session's turn.
      case "turn_failed":
        break;
      case "error":
      case "warning":
        // A refused start's error only repeats the block the consumer saw on subagent_start.
        if (outcome.refused === undefined && outcome.stopped === undefined)
          verdict = yield { ...mark, ...event };
        break;
      default:
        // A nested subagent's events keep their own mark.
        verdict = yield { ...mark, ...event };
        break;
    }
  }
}
