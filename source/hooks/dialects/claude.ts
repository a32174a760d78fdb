/**
 * Claude Code's hook answer: `decision: "block"|"approve"`, `continue: false` +
 * `stopReason`, `systemMessage`, `hookSpecificOutput.{permissionDecision,
 * permissionDecisionReason, updatedInput, additionalContext, updatedToolOutput}`.
 *
 * Precedence, as in Claude Code: `continue: false` (stop) over block/deny, over
 * ask, over modifications, over continue.
 */
import { z } from "zod";
import type { Decision } from "../decision.js";
import {
  type AnswerDialect,
  common,
  decodeWith,
  hasAny,
  jsonObjectSchema,
  withoutNulls,
} from "./common.js";

const hookSpecificOutputSchema = z.object({
  hookEventName: z.string().nullish(),
  permissionDecision: z.enum(["allow", "deny", "ask"]).nullish(),
  permissionDecisionReason: z.string().nullish(),
  updatedInput: jsonObjectSchema.nullish(),
  additionalContext: z.string().nullish(),
  updatedToolOutput: z.unknown().optional(),
  /** Claude Code's PostToolUse name for the same thing (MCP tools). */
  updatedMCPToolOutput: z.unknown().optional(),
});

export const claudeAnswerSchema = z.object({
  decision: z.enum(["block", "approve"]).optional(),
  reason: z.string().optional(),
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  systemMessage: z.string().optional(),
  suppressOutput: z.boolean().optional(),
  hookSpecificOutput: hookSpecificOutputSchema.optional(),
});

export type ClaudeAnswer = z.infer<typeof claudeAnswerSchema>;

const CLAUDE_ONLY_FIELDS = [
  "hookSpecificOutput",
  "continue",
  "stopReason",
  "systemMessage",
  "suppressOutput",
] as const;

function outputText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : JSON.stringify(value);
}

function toDecision(answer: ClaudeAnswer): Decision {
  const specific = answer.hookSpecificOutput;
  const base = common({
    context: specific?.additionalContext ?? undefined,
    message: answer.systemMessage,
  });
  if (answer.continue === false) {
    return { ...base, action: "stop", ...common({ reason: answer.stopReason ?? answer.reason }) };
  }
  const permission = specific?.permissionDecision ?? undefined;
  const permissionReason = specific?.permissionDecisionReason ?? undefined;
  if (answer.decision === "block" || permission === "deny") {
    return { ...base, action: "block", ...common({ reason: permissionReason ?? answer.reason }) };
  }
  if (permission === "ask") {
    return { ...base, action: "ask", ...common({ reason: permissionReason ?? answer.reason }) };
  }
  const reason = common({ reason: permissionReason ?? answer.reason });
  const input = specific?.updatedInput ?? undefined;
  const output = outputText(specific?.updatedToolOutput ?? specific?.updatedMCPToolOutput);
  if (input !== undefined || output !== undefined) {
    const decision: Decision = { ...base, ...reason, action: "modify" };
    if (input !== undefined) decision.input = input;
    if (output !== undefined) decision.output = output;
    return decision;
  }
  return { ...base, ...reason, action: "continue" };
}

export const claudeDialect: AnswerDialect = {
  name: "claude",
  detect: (answer) =>
    hasAny(answer, CLAUDE_ONLY_FIELDS) ||
    (answer.decision !== undefined && answer.decision !== "allow" && answer.decision !== "deny"),
  decode: (answer) =>
    decodeWith("Claude Code", claudeAnswerSchema, withoutNulls({ ...answer }), toDecision),
};
