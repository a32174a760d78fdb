/**
 * Claude Code's hook answer: `decision: "block"|"approve"`, `continue: false` +
 * `stopReason`, `systemMessage`, `hookSpecificOutput.{permissionDecision,
 * permissionDecisionReason, updatedInput, additionalContext, updatedToolOutput}`,
 * and PermissionRequest's `hookSpecificOutput.decision.{behavior, updatedInput,
 * message, interrupt}`.
 *
 * Gemini CLI's answers share this shape: `decision: "allow" | "deny"`, and
 * `hookSpecificOutput.{tool_input, llm_request, llm_response, toolConfig,
 * tailToolCallRequest}` (model-control.ts).
 *
 * Precedence, as in Claude Code: `continue: false` (stop) over a
 * PermissionRequest decision, over block/deny, over ask, over allow, over
 * modifications, over continue.
 */
import { z } from "zod";
import { builtinNamed } from "../aliases.js";
import type { Decision, ModelControl } from "../decision.js";
import {
  llmRequestSchema,
  llmResponseSchema,
  requestChanges,
  responseText,
  tailCallSchema,
  toolConfigSchema,
} from "../model-control.js";
import {
  type AnswerDialect,
  common,
  decodeWith,
  hasAny,
  jsonObjectSchema,
  watchPathsOf,
  watchPathsSchema,
  withoutNulls,
} from "./common.js";

/** PermissionRequest's answer: allow (maybe with a new input) or deny (maybe ending the session). */
const permissionRequestDecisionSchema = z.lazy(() =>
  z.object({
    behavior: z.enum(["allow", "deny"]),
    updatedInput: jsonObjectSchema.nullish(),
    /** Rules to add to settings: not applied by acai (they are ignored). */
    updatedPermissions: z.unknown().optional(),
    message: z.string().nullish(),
    interrupt: z.boolean().nullish(),
  }),
);

const hookSpecificOutputSchema = z.lazy(() =>
  z.object({
    hookEventName: z.string().nullish(),
    decision: permissionRequestDecisionSchema.nullish(),
    /** `defer`: a headless run stops at this call; `--resume` asks again. */
    permissionDecision: z.enum(["allow", "deny", "ask", "defer"]).nullish(),
    permissionDecisionReason: z.string().nullish(),
    updatedInput: jsonObjectSchema.nullish(),
    additionalContext: z.string().nullish(),
    updatedToolOutput: z.unknown().optional(),
    /** Claude Code's PostToolUse name for the same thing (MCP tools). */
    updatedMCPToolOutput: z.unknown().optional(),
    /** Gemini CLI's BeforeModel / AfterModel / BeforeToolSelection / AfterTool fields. */
    llm_request: llmRequestSchema.nullish(),
    llm_response: llmResponseSchema.nullish(),
    toolConfig: toolConfigSchema.nullish(),
    tailToolCallRequest: tailCallSchema.nullish(),
    /** Gemini CLI's BeforeTool input override: merged onto the tool input (a merge patch). */
    tool_input: jsonObjectSchema.nullish(),
    /** PermissionDenied: the model may retry the denied call. */
    retry: z.boolean().nullish(),
    /** Gemini CLI's AfterAgent: a deny clears the conversation before the retry. */
    clearContext: z.boolean().nullish(),
    /** SessionStart / FileChanged: the paths watched for FileChanged hooks. */
    watchPaths: watchPathsSchema.nullish(),
  }),
);

export const claudeAnswerSchema = z.lazy(() =>
  z.object({
    /**
     * `allow` / `deny` / `ask`: Gemini CLI's spelling (deny blocks; ask is
     * `permissionDecision: "ask"`; allow says nothing more).
     */
    decision: z.enum(["block", "approve", "allow", "deny", "ask"]).optional(),
    reason: z.string().optional(),
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    systemMessage: z.string().optional(),
    suppressOutput: z.boolean().optional(),
    hookSpecificOutput: hookSpecificOutputSchema.optional(),
  }),
);

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

/** Gemini CLI's changes around the model, from `hookSpecificOutput`. */
function modelControl(specific: ClaudeAnswer["hookSpecificOutput"]): ModelControl {
  const out: ModelControl = {};
  if (specific === undefined) return out;
  const request = requestChanges(
    specific.llm_request ?? undefined,
    specific.toolConfig ?? undefined,
  );
  if (request !== undefined) out.request = request;
  const text = responseText(specific.llm_response ?? undefined);
  if (text !== undefined) out.response = { text };
  const tail = specific.tailToolCallRequest ?? undefined;
  // Gemini's tail call names Gemini's tools (`write_file`): run the built-in it stands for.
  if (tail !== undefined)
    out.followUp = { toolName: builtinNamed(tail.name), input: tail.args ?? {} };
  return out;
}

function toDecision(answer: ClaudeAnswer): Decision {
  const specific = answer.hookSpecificOutput;
  const base = {
    ...common({ context: specific?.additionalContext ?? undefined, message: answer.systemMessage }),
    ...watchPathsOf(specific?.watchPaths),
  };
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
  if (answer.decision === "block" || answer.decision === "deny" || permission === "deny") {
    const clear = specific?.clearContext === true ? { clearContext: true as const } : {};
    return {
      ...base,
      action: "block",
      ...clear,
      ...common({ reason: permissionReason ?? answer.reason }),
    };
  }
  if (permission === "ask" || answer.decision === "ask") {
    return { ...base, action: "ask", ...common({ reason: permissionReason ?? answer.reason }) };
  }
  if (permission === "defer") {
    return { ...base, action: "defer", ...common({ reason: permissionReason ?? answer.reason }) };
  }
  const reason = common({ reason: permissionReason ?? answer.reason });
  if (specific?.retry === true) return { ...base, ...reason, action: "retry", retryAfterMs: 0 };
  const control = modelControl(specific);
  const input = specific?.updatedInput ?? undefined;
  const patch = specific?.tool_input ?? undefined;
  const output = outputText(specific?.updatedToolOutput ?? specific?.updatedMCPToolOutput);
  // `permissionDecision: "allow"` (or the older `decision: "approve"`) spares the permission question.
  const spares = permission === "allow" || answer.decision === "approve";
  if (spares && output === undefined && patch === undefined) {
    return input === undefined
      ? { ...base, ...reason, action: "allow" }
      : { ...base, ...reason, action: "allow", input };
  }
  const changes = [input, patch, output].some((change) => change !== undefined);
  if (changes || Object.keys(control).length > 0) {
    const decision: Decision = { ...base, ...reason, action: "modify", ...control };
    if (input !== undefined) decision.input = input;
    if (patch !== undefined) decision.inputPatch = patch;
    if (output !== undefined) decision.output = output;
    return decision;
  }
  return { ...base, ...reason, action: "continue" };
}

export const claudeDialect: AnswerDialect = {
  name: "claude",
  detect: (answer) =>
    hasAny(answer, CLAUDE_ONLY_FIELDS) ||
    (answer.decision !== undefined &&
      answer.decision !== "allow" &&
      answer.decision !== "deny" &&
      answer.decision !== "ask"),
  decode: (answer) =>
    withUnreadNote(
      decodeWith("Claude Code", claudeAnswerSchema, withoutNulls({ ...answer }), toDecision),
      answer.hookSpecificOutput,
    ),
};

/** The `hookSpecificOutput` keys the schema reads; worked out at the first answer, as the schema is built then. */
let readSpecificKeys: ReadonlySet<string> | undefined;

/**
 * `hookSpecificOutput` keys acai does not read are dropped by the schema; the
 * audit log says which (`acai hooks log` / `why`), so a field a hook relies on
 * never vanishes without a trace (a misspelt `updatedInput`, a field of
 * another agent's). Not a warning on screen: Claude Code hooks often send
 * fields for Claude Code's own UI.
 */
function withUnreadNote(decision: Decision, specific: unknown): Decision {
  if (typeof specific !== "object" || specific === null || Array.isArray(specific)) return decision;
  readSpecificKeys ??= new Set(Object.keys(hookSpecificOutputSchema._zod.innerType.shape));
  const read = readSpecificKeys;
  const unread = Object.keys(specific).filter((key) => !read.has(key));
  if (unread.length === 0 || decision.action === "failed") return decision;
  const note = `hookSpecificOutput fields acai does not read (ignored): ${unread.slice(0, 10).join(", ")}${unread.length > 10 ? ", …" : ""}`;
  return { ...decision, log: decision.log === undefined ? note : `${decision.log}\n${note}` };
}
