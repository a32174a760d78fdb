import type { AgentEvent } from "../../agent/events.js";
import type { Verdict } from "../../agent/verdicts.js";
import type { ToolResult } from "../types.js";

/**
 * A subagent type (Claude Code's agent files): what the `Task` tool can start.
 * The body of the file is the subagent's system prompt.
 */
export interface SubagentDefinition {
  /** `subagent_type` in a Task call; hooks' `agent_type`. */
  name: string;
  /** When to use it: shown to the model in the Task tool's description. */
  description: string;
  /** Tool names it may use; undefined = every tool of its parent (Task only below the depth limit). */
  tools?: readonly string[];
  /** A model spec (`--model`'s syntax); undefined or "inherit" = the parent's model. */
  model?: string;
  /** The system prompt; undefined = acai's default one. */
  prompt?: string;
  /** Where it comes from: built in, `~/.acai/agents/`, or the project's `.acai/agents/`. */
  scope: "builtin" | "user" | "project";
  /** The agent file (absolute), for messages. */
  file?: string;
}

/** Claude Code's default type: every tool of its parent, acai's default system prompt. */
export const GENERAL_PURPOSE: SubagentDefinition = {
  name: "general-purpose",
  description:
    "General-purpose agent for researching complex questions, searching for code, and executing multi-step tasks.",
  scope: "builtin",
};

/** A Task call, as the subagent runner gets it. */
interface SubagentRequest {
  description: string;
  prompt: string;
  subagentType: string;
  toolCallId: string;
  signal: AbortSignal;
}

/** Runs one subagent: its events (answered like the agent's own), then the Task call's result. */
export type RunSubagent = (
  request: SubagentRequest,
) => AsyncGenerator<AgentEvent, ToolResult, Verdict | undefined>;
