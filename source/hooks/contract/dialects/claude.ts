/**
 * Claude Code's hook answer: `decision: "block"|"approve"`, `continue: false` +
 * `stopReason`, `systemMessage`, `hookSpecificOutput.{permissionDecision,
 * permissionDecisionReason, updatedInput, additionalContext, updatedToolOutput}`,
 * and PermissionRequest's `hookSpecificOutput.decision.{behavior, updatedInput,
 * message, interrupt}`.
 *
 * Precedence, as in Claude Code: `continue: false` (stop) over a
 * PermissionRequest decision, over block/deny, over ask, over allow, over
 * modifications, over continue.
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

/** PermissionRequest's answer: allow (maybe with a new input) or deny (maybe ending the session). */
const permissionRequestDecisionSchema = z.object({
  behavior: z.enum(["allow", "deny"]),
  updatedInput: jsonObjectSchema.nullish(),
  /** Rules to add to settings: not applied by acai (they are ignored). */
  updatedPermissions: z.unknown().optional(),
  message: z.string().nullish(),
  interrupt: z.boolean().nullish(),
});

const hookSpecificOutputSchema = z.object({
  hookEventName: z.string().nullish(),
  decision: permissionRequestDecisionSchema.nullish(),
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

type ClaudeAnswer = z.infer<typeof claudeAnswerSchema>;

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
  const request = specific?.decision ?? undefined;
  if (request !== undefined) {
    const reason = common({ reason: request.message ?? answer.reason ?? undefined });
    if (request.behavior === "deny") {
      return { ...base, ...reason, action: request.interrupt === true ? "stop" : "block" };
    }
    const updated = request.updatedInput ?? undefined;
    return updated === undefined
      ? { ...base, ...reason, action: "allow" }
      : { ...base, ...reason, action: "allow", input: updated };
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
  // `permissionDecision: "allow"` (or the older `decision: "approve"`) spares the permission question.
  if ((permission === "allow" || answer.decision === "approve") && output === undefined) {
    return input === undefined
      ? { ...base, ...reason, action: "allow" }
      : { ...base, ...reason, action: "allow", input };
  }
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
