/**
 * The events of subagents (source/subagents/, the `Task` tool): the mark every
 * event raised inside one carries, and a subagent's own lifecycle events,
 * which `AgentEvent` (events.ts) includes.
 */
import type { StopReason, Usage } from "./event-data.js";

/**
 * Set on every event raised inside a subagent (the `Task` tool): the
 * subagent's id and type (hooks' `agent_id`, `agent_type`). Events of the
 * session's own agent have neither.
 */
export interface SubagentMark {
  agentId?: string;
  agentType?: string;
}

/** A subagent's lifecycle (source/subagents/): raised by the Task tool around a nested run. */
export type SubagentEvent =
  | {
      type: "subagent_start";
      agentId: string;
      agentType: string;
      /** The Task call's `description` (hooks' `task_description`). */
      description: string;
      prompt: string;
      /** The parent's Task call. */
      toolCallId: string;
      /** 1 for a subagent of the session's agent, 2 for one of that subagent, … */
      depth: number;
    } /* gate: block = the Task call fails with the reason; context reaches the subagent */
  | {
      type: "subagent_stop";
      agentId: string;
      agentType: string;
      turn: number;
      step: number;
      lastAssistantMessage: string;
      stopHookActive: boolean;
      consecutiveBlocks: number;
      /** The subagent's own JSONL transcript. */
      agentTranscriptPath: string;
    } /* gate: block = the reason becomes the subagent's next user message (as stop_request) */
  | {
      type: "subagent_end";
      agentId: string;
      agentType: string;
      toolCallId: string;
      stopReason: StopReason;
      /** The subagent's final text: the Task call's result. */
      text: string;
      usage: Usage;
      message?: string;
    };

/** Whether an event was raised inside a subagent (or is a subagent's lifecycle event). */
export function fromSubagent(event: object): event is SubagentMark & { agentId: string } {
  return "agentId" in event && typeof event.agentId === "string";
}
