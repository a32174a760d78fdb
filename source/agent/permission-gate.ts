/**
 * The permission check of one tool call, after its `tool_call_start` gate
 * (docs/permissions.md): `decide` with the session's policy and what the
 * consumer's verdict said (a before_tool hook's ask or allow); an `ask` is a
 * `permission_request` gate, answered by the consumer (hooks, then the user;
 * a headless run denies). A denial's words, which say why and how to allow
 * it, are the tool result the model gets.
 */
import {
  decide,
  judgedLanding,
  type PermissionPolicy,
  suggestRule,
} from "../permissions/decide.js";
import { askReason, denialForModel, denyReason } from "../permissions/explain.js";
import type { Tool } from "../tools/types.js";
import type { ToolCallRef } from "./event-refs.js";
import type { AgentEvent, Emit } from "./events.js";
import { type GateEnd, gateFlow } from "./gate-flow.js";
import { RAISES } from "./raises.js";
import type { PermissionHintVerdict, Verdict } from "./verdicts.js";

export type PermissionOutcome =
  /** `landing`: where a Write/Edit was judged to land; the tool writes there or not at all. */
  | { kind: "run"; input: unknown; landing?: string }
  | { kind: "denied"; reason: string; modelText: string }
  | { kind: "invalid"; error: string; input: unknown }
  /** The user interrupted, or a hook answered stop (gate-flow.ts). */
  | { kind: "end"; end: GateEnd };

export interface PermissionGateContext {
  emit: Emit;
  /** The session's policy: there is no run without one (no "open" fallback). */
  permissions: PermissionPolicy;
  cwd: string;
  signal: AbortSignal;
}

export async function* checkPermission(
  ctx: PermissionGateContext,
  ref: ToolCallRef,
  tool: Tool,
  input: unknown,
  hint: PermissionHintVerdict | undefined,
): AsyncGenerator<AgentEvent, PermissionOutcome, Verdict | undefined> {
  const policy = ctx.permissions;
  const call = { toolName: tool.name, input };
  // A parser loaded when first needed (permissions/shell/deferred.ts) is loaded before anything is decided.
  await policy.shell.ready?.();
  const decision = decide(call, policy, hint);
  const run = (runInput: unknown): PermissionOutcome => {
    const landing = judgedLanding({ toolName: tool.name, input: runInput }, policy);
    return landing === undefined
      ? { kind: "run", input: runInput }
      : { kind: "run", input: runInput, landing };
  };
  if (decision.behavior === "allow") return run(input);
  if (decision.behavior === "deny") {
    return {
      kind: "denied",
      reason: denyReason(tool.name, decision.by),
      modelText: denialForModel(tool.name, decision),
    };
  }
  const reason = askReason(tool.name, decision.by);
  const hit = decision.by.kind === "protected" ? decision.by.hit : undefined;
  const verdict = yield* ctx.emit({
    type: RAISES.permission_request,
    ...ref,
    toolName: tool.name,
    input,
    reason,
    permissionMode: policy.mode,
    suggestion: suggestRule(call, policy),
    ...(hit === undefined ? {} : { protected: hit }),
  });
  const flow = gateFlow(verdict, ctx.signal);
  if (flow.kind !== "go_on") return { kind: "end", end: flow.end };
  const answer = flow.verdict;
  switch (answer?.action) {
    case "allow": {
      // A protected write runs as it was shown to the user, never with an input swapped in.
      if (answer.input === undefined || hit !== undefined) return run(input);
      const replaced = tool.validate(answer.input);
      if (!replaced.ok) {
        return {
          kind: "invalid",
          error: `The permission answer replaced the input of this ${tool.name} call with an invalid one: ${replaced.error}`,
          input: answer.input,
        };
      }
      return run(replaced.value);
    }
    case "block":
      return {
        kind: "denied",
        reason: answer.reason,
        modelText: answer.modelText ?? `Permission denied: ${answer.reason}`,
      };
    default:
      return {
        kind: "denied",
        reason: `not allowed: ${reason}, and nobody answered`,
        modelText: `Permission denied: ${tool.name} needs the user's approval (${reason}), and nobody gave it.`,
      };
  }
}
