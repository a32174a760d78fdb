/**
 * The Agent Hooks spec's answer: `decision: "allow"|"deny"`, `reason`,
 * `modified_input`, `additional_context`, `log`.
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

export const agentHooksAnswerSchema = z.lazy(() =>
  z.object({
    decision: z.enum(["allow", "deny"]).optional(),
    reason: z.string().optional(),
    modified_input: jsonObjectSchema.optional(),
    additional_context: z.string().optional(),
    log: z.string().optional(),
  }),
);

type AgentHooksAnswer = z.infer<typeof agentHooksAnswerSchema>;

function toDecision(answer: AgentHooksAnswer): Decision {
  const base = common({
    context: answer.additional_context,
    log: answer.log,
    reason: answer.reason,
  });
  if (answer.decision === "deny") return { ...base, action: "block" };
  // An explicit allow: on permission_request it grants the call; on before_tool the
  // step reads a HOOK.md hook's allow as "no objection" (the spec has no permission prompt).
  if (answer.decision === "allow") {
    return answer.modified_input === undefined
      ? { ...base, action: "allow" }
      : { ...base, action: "allow", input: answer.modified_input };
  }
  if (answer.modified_input !== undefined) {
    return { ...base, action: "modify", input: answer.modified_input };
  }
  return { ...base, action: "continue" };
}

export const agentHooksDialect: AnswerDialect = {
  name: "agenthooks",
  detect: (answer) =>
    answer.decision === "allow" ||
    answer.decision === "deny" ||
    hasAny(answer, ["modified_input", "additional_context"]),
  decode: (answer) =>
    decodeWith("Agent Hooks", agentHooksAnswerSchema, withoutNulls({ ...answer }), toDecision),
};
