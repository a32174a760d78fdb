/**
 * The two phases before a tool call runs: prepare (the call is valid, then
 * the `tool_call_start` gate — before_tool) and permit (the permission gate,
 * permission-gate.ts). Each returns what happens next: go on with the input,
 * refuse the call, or end the turn.
 */
import type { Tool } from "../tools/types.js";
import type { AgentEvent } from "./events.js";
import { type GateEnd, gateFlow } from "./gate-flow.js";
import type { StepToolCall } from "./model-step.js";
import { checkPermission } from "./permission-gate.js";
import { RAISES } from "./raises.js";
import { callRef, type Refusal, type ToolStepContext } from "./tool-call-context.js";
import type { PermissionHintVerdict, Verdict } from "./verdicts.js";

export type Prepared =
  | { kind: "go_on"; tool: Tool; input: unknown; hint?: PermissionHintVerdict }
  | { kind: "refused"; refusal: Refusal }
  | { kind: "end"; end: GateEnd }
  /** A before_tool hook deferred the call (headless): it stays pending, the run stops. */
  | { kind: "deferred"; input: unknown; reason: string };

export type Permitted =
  /** `landing`: where a Write/Edit was judged to land; the tool writes there or not at all. */
  | { kind: "go_on"; input: unknown; landing?: string }
  | { kind: "refused"; refusal: Refusal }
  | { kind: "end"; end: GateEnd };

/** The call names a tool and its input is valid; `tool_call_start` may block, stop or replace it. */
export async function* prepare(
  ctx: ToolStepContext,
  call: StepToolCall,
): AsyncGenerator<AgentEvent, Prepared, Verdict | undefined> {
  const tool = ctx.tools.get(call.toolName);
  const problem =
    call.invalidReason ?? (tool ? undefined : `There is no tool named "${call.toolName}".`);
  if (problem || !tool) {
    return { kind: "refused", refusal: { input: call.input, error: problem ?? "unknown tool" } };
  }
  const checked = tool.validate(call.input);
  // Tools name themselves in their validation errors ("Invalid input for Read: …").
  if (!checked.ok) return { kind: "refused", refusal: { input: call.input, error: checked.error } };

  // Hooks' `if` reads the parsed Bash line: the parser loaded when first needed
  // (permissions/shell/deferred.ts) is loaded before the first gate that reads it.
  await ctx.permissions.shell.ready?.();
  const flow = gateFlow(
    yield* ctx.emit({
      type: RAISES.before_tool,
      ...callRef(ctx, call),
      toolName: tool.name,
      input: checked.value,
      ...(ctx.recentTools === undefined ? {} : { recentTools: ctx.recentTools() }),
    }),
    ctx.signal,
  );
  if (flow.kind !== "go_on") return { kind: "end", end: flow.end };
  const { verdict } = flow;
  if (verdict?.action === "defer") {
    return { kind: "deferred", input: checked.value, reason: verdict.reason };
  }
  if (verdict?.action === "block") {
    const modelText = verdict.modelText ?? `Blocked by a hook: ${verdict.reason}`;
    const refusal = { input: checked.value, error: verdict.reason, blocked: true, modelText };
    return { kind: "refused", refusal };
  }
  if (verdict?.action !== "continue") return { kind: "go_on", tool, input: checked.value };
  const hint = verdict.permission === undefined ? {} : { hint: verdict.permission };
  if (verdict.input === undefined) return { kind: "go_on", tool, input: checked.value, ...hint };
  const replaced = tool.validate(verdict.input);
  if (!replaced.ok) {
    const error = `A hook replaced the input of this ${tool.name} call with an invalid one: ${replaced.error}`;
    return { kind: "refused", refusal: { input: verdict.input, error } };
  }
  return { kind: "go_on", tool, input: replaced.value, ...hint };
}

/** The permission check; an `ask` is the `permission_request` gate. */
export async function* permit(
  ctx: ToolStepContext,
  call: StepToolCall,
  prepared: Extract<Prepared, { kind: "go_on" }>,
): AsyncGenerator<AgentEvent, Permitted, Verdict | undefined> {
  const { tool, input, hint } = prepared;
  const outcome = yield* checkPermission(ctx, callRef(ctx, call), tool, input, hint);
  switch (outcome.kind) {
    case "run":
      return outcome.landing === undefined
        ? { kind: "go_on", input: outcome.input }
        : { kind: "go_on", input: outcome.input, landing: outcome.landing };
    case "denied": {
      const { reason } = outcome;
      const modelText = yield* deniedGate(ctx, call, input, outcome);
      const refusal = { input, error: reason, blocked: true, denied: true, modelText };
      return { kind: "refused", refusal };
    }
    case "invalid":
      return { kind: "refused", refusal: { input: outcome.input, error: outcome.error } };
    case "end":
      return outcome;
    default:
      return outcome satisfies never;
  }
}

/**
 * The `permission_denied` gate (Claude Code's PermissionDenied): the call
 * stays denied; a retry answer adds to the model's tool result that it may
 * try the call again. Returns the text the model gets.
 */
async function* deniedGate(
  ctx: ToolStepContext,
  call: StepToolCall,
  input: unknown,
  denied: { reason: string; modelText: string },
): AsyncGenerator<AgentEvent, string, Verdict | undefined> {
  const verdict = yield* ctx.emit({
    type: RAISES.permission_denied,
    ...callRef(ctx, call),
    toolName: call.toolName,
    input,
    reason: denied.reason,
  });
  if (verdict?.action !== "retry") return denied.modelText;
  return `${denied.modelText}\n\nA PermissionDenied hook says you may retry this call.`;
}
