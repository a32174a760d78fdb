/**
 * The parts of every event's stdin schema (hooks.md §3): the common fields
 * payload.ts adds, the subagent mark, and the pieces several events share.
 * Each event module states its own fields with them; `eventSchema` makes the
 * whole schema, from which the SDK's types and `schemas/event-*.json` come.
 *
 * Objects are loose: acai may add fields, and a hook must not break when it does.
 * Only the fields the contract promises are required.
 */
import { z } from "zod";

export type PayloadShape = z.core.$ZodLooseShape;

const base = () => ({
  hook_event_name: z
    .string()
    .describe("Claude Code's name of the event (acai's where it has none)"),
  session_id: z.string(),
  transcript_path: z.string().describe("Absolute path of the session's JSONL transcript"),
  cwd: z.string().describe("Project root; also the hook's working directory"),
  timestamp: z.string().describe("ISO 8601"),
  permission_mode: z
    .enum(["default", "acceptEdits", "plan", "bypassPermissions"])
    .optional()
    .describe("The session's permission mode (docs/permissions.md)"),
  agent_name: z
    .string()
    .optional()
    .describe("This agent's name (--name), when it has one (agent-relay's agentName)"),
  project_name: z
    .string()
    .optional()
    .describe("The project root's folder name (agent-relay's projectName)"),
  session_started_at: z
    .string()
    .optional()
    .describe("ISO 8601: when the session started (agent-relay's sessionStartTime)"),
});

/** Sent on every event raised inside a subagent. (Every part here is built only when an event's schema is.) */
const inSubagent = () => ({
  agent_id: z.string().optional().describe("Inside a subagent: its id"),
  agent_type: z.string().optional().describe("Inside a subagent: its type"),
});

export const UsageSchema = () =>
  z.looseObject({
    input_tokens: z.number(),
    output_tokens: z.number(),
    total_tokens: z.number(),
  });

export const ToolCallSchema = () =>
  z.looseObject({
    tool_use_id: z.string(),
    tool_name: z.string(),
    tool_input: z.unknown(),
  });

export const promptId = () => ({
  prompt_id: z
    .string()
    .optional()
    .describe("Id of the user prompt this event belongs to: the same on every event of its turn"),
});

/** A tool call's fields, on every tool event. */
export const toolFields = () => ({
  tool_name: z.string().describe("Bash, Read, Write, Edit, Glob, Grep or a dynamic tool's name"),
  tool_input: z
    .record(z.string(), z.unknown())
    .describe("The tool's input, with Claude Code's field names (as modified by earlier hooks)"),
  tool_use_id: z.string(),
  ...promptId(),
});

/** Whose events a subagent's lifecycle events are. */
export const subagentShape = () => ({
  agent_id: z.string().describe("The subagent's id"),
  agent_type: z
    .string()
    .describe("The subagent's type (its agent file's name, or general-purpose)"),
});

/** An event's whole stdin: `event`, the common fields, the subagent mark, then its own. */
export function eventSchema<N extends string, S extends PayloadShape>(
  name: N,
  claude: string,
  shape: S,
) {
  return z
    .looseObject({ event: z.literal(name), ...base(), ...inSubagent(), ...shape })
    .describe(`stdin of a hook on ${name} (${claude})`);
}

export type EventSchema<N extends string, S extends PayloadShape> = ReturnType<
  typeof eventSchema<N, S>
>;
