/** acai's own JSON answer (hooks.md §4). All fields optional; unknown fields ignored. */
import { z } from "zod";
import type { Decision, ModelControl } from "../decision.js";
import {
  dropToolCallsSchema,
  followUpSchema,
  llmRequestSchema,
  llmResponseSchema,
  requestChanges,
  responseText,
} from "../model-control.js";
import {
  type AnswerDialect,
  common,
  decodeWith,
  watchPathsOf,
  watchPathsSchema,
  withoutNulls,
} from "./common.js";

const ACAI_ACTIONS = [
  "continue",
  "block",
  "modify",
  "ask",
  "allow",
  "retry",
  "skip",
  "stop",
  "defer",
] as const;

/** Used when `retry` gives no `retry_after_ms`. */
export const DEFAULT_RETRY_AFTER_MS = 1000;

export const acaiAnswerSchema = z.lazy(() =>
  z.object({
    action: z.enum(ACAI_ACTIONS).optional(),
    reason: z.string().optional(),
    input: z.unknown().optional(),
    input_patch: z.unknown().optional(),
    prompt: z.string().optional(),
    output: z.string().optional(),
    context: z.string().optional(),
    message: z.string().optional(),
    retry_after_ms: z.number().int().min(0).max(600_000).optional(),
    log: z.string().optional(),
    llm_request: llmRequestSchema.optional(),
    llm_response: llmResponseSchema.optional(),
    drop_tool_calls: dropToolCallsSchema.optional(),
    follow_up: followUpSchema.optional(),
    /** session_start / file_changed: the paths watched for file_changed hooks (Claude Code's watchPaths). */
    watch_paths: watchPathsSchema.optional(),
  }),
);

type AcaiAnswer = z.infer<typeof acaiAnswerSchema>;

/** The answer's changes around the model (model-control.ts). */
function modelControl(answer: AcaiAnswer): ModelControl {
  const out: ModelControl = {};
  const request = requestChanges(answer.llm_request);
  if (request !== undefined) out.request = request;
  const text = responseText(answer.llm_response);
  if (text !== undefined) out.response = { text };
  if (answer.drop_tool_calls !== undefined) out.dropToolCalls = answer.drop_tool_calls;
  if (answer.follow_up !== undefined) {
    out.followUp = { toolName: answer.follow_up.tool_name, input: answer.follow_up.tool_input };
  }
  return out;
}

function toDecision(answer: AcaiAnswer): Decision {
  const base = { ...common(answer), ...watchPathsOf(answer.watch_paths) };
  const control = modelControl(answer);
  const hasModification =
    answer.input !== undefined ||
    answer.input_patch !== undefined ||
    answer.prompt !== undefined ||
    answer.output !== undefined ||
    Object.keys(control).length > 0;
  // Without `action`, a modification field means modify; otherwise continue.
  const action = answer.action ?? (hasModification ? "modify" : "continue");
  switch (action) {
    case "modify": {
      const decision: Decision = { ...base, action: "modify", ...control };
      if (answer.input !== undefined) decision.input = answer.input;
      if (answer.input_patch !== undefined) decision.inputPatch = answer.input_patch;
      if (answer.prompt !== undefined) decision.prompt = answer.prompt;
      if (answer.output !== undefined) decision.output = answer.output;
      return decision;
    }
    case "allow":
      return answer.input === undefined
        ? { ...base, action: "allow" }
        : { ...base, action: "allow", input: answer.input };
    case "retry":
      return {
        ...base,
        action: "retry",
        retryAfterMs: answer.retry_after_ms ?? DEFAULT_RETRY_AFTER_MS,
      };
    case "continue":
    case "block":
    case "ask":
    case "skip":
    case "stop":
    case "defer":
      return { ...base, action };
    default:
      return action satisfies never;
  }
}

export const acaiDialect: AnswerDialect = {
  name: "acai",
  detect: (answer) => answer.action !== undefined,
  decode: (answer) => decodeWith("acai", acaiAnswerSchema, withoutNulls({ ...answer }), toDecision),
};
