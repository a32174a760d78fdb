/**
 * A `modify` (or an `allow` with an input) applied to what the event lets
 * hooks change (the table's `changes`): a replaced tool input is checked once,
 * by the tool's own schema, and an invalid one is a failure that refuses the
 * call; a field the event cannot change is ignored with a note. Pure; the
 * fold (step.ts) calls it for every answer.
 */
import type { AgentEvent } from "../../agent/events.js";
import { RAISES } from "../../agent/raises.js";
import { ANSWER_TEXT_CAPS, capText, type Decision, failed } from "../contract/decision.js";
import type { HookDefinition } from "../contract/definition.js";
import { eventRow, type HookEventName } from "../contract/events/table.js";
import type { GateState } from "../contract/gate-state.js";
import { applyMergePatch } from "../contract/merge-patch.js";
import { mergeRequestChanges } from "../contract/model-control.js";

type ToolInputValidation = { ok: true; value?: unknown } | { ok: false; error: string };
export type ValidateToolInput = (toolName: string, input: unknown) => ToolInputValidation;

/** What of a chain's gate a modify needs. */
export interface ModifyTarget {
  event: HookEventName;
  agentEvent: AgentEvent;
  /** Checks a replaced tool input (the tool's own schema); none: taken as is. */
  validateToolInput?: ValidateToolInput;
}

export interface Applied {
  decision: Decision;
  replaced: GateState;
  notes: string[];
  /**
   * Set when the hook's new tool input fails the tool's schema: the call is
   * refused whatever the hook's failure policy (the original input never runs).
   */
  refusal?: string;
}

/** Checks a replaced tool input; a validator that throws counts as a schema error. */
function checkToolInput(gate: ModifyTarget, toolName: string, input: unknown): ToolInputValidation {
  try {
    return gate.validateToolInput?.(toolName, input) ?? { ok: true };
  } catch (error) {
    return { ok: false, error: `the input could not be checked (${(error as Error).message})` };
  }
}

function refusalReason(hook: HookDefinition, toolName: string, error: string): string {
  return `hook "${hook.name}" replaced the input of this ${toolName} call with one that fails the tool's schema (${capText(error, ANSWER_TEXT_CAPS.error, "error")}); the call is refused and did not run`;
}

/** Applies a `modify` to what this event lets hooks change; an invalid tool input makes it a failure. */
export function applyModification(
  gate: ModifyTarget,
  hook: HookDefinition,
  decision: Decision,
  replaced: GateState,
): Applied {
  if (decision.action === "allow") {
    if (decision.input === undefined) return { decision, replaced, notes: [] };
    const asModify = applyModification(
      gate,
      hook,
      { action: "modify", input: decision.input },
      replaced,
    );
    return asModify.decision.action === "failed" ? asModify : { ...asModify, decision };
  }
  if (decision.action !== "modify") return { decision, replaced, notes: [] };
  const changes = eventRow(gate.event).changes;
  const next: GateState = { ...replaced };
  const ignored: string[] = [];
  const ev = gate.agentEvent;
  if (decision.input !== undefined || decision.inputPatch !== undefined) {
    if (
      changes.includes("input") &&
      (ev.type === RAISES.before_tool || ev.type === RAISES.permission_request)
    ) {
      let input = "toolInput" in replaced ? replaced.toolInput : ev.input;
      if (decision.input !== undefined) input = decision.input;
      if (decision.inputPatch !== undefined) input = applyMergePatch(input, decision.inputPatch);
      const check = checkToolInput(gate, ev.toolName, input);
      if (!check.ok) {
        return {
          decision: failed(`its new input for ${ev.toolName} is invalid: ${check.error}`, {
            ...(decision.log === undefined ? {} : { log: decision.log }),
          }),
          replaced,
          notes: [],
          refusal: refusalReason(hook, ev.toolName, check.error),
        };
      }
      next.toolInput = input;
      if (check.value !== undefined) next.checkedToolInput = check.value;
    } else ignored.push(decision.input !== undefined ? "input" : "input_patch");
  }
  if (decision.prompt !== undefined) {
    if (changes.includes("prompt")) next.prompt = decision.prompt;
    else ignored.push("prompt");
  }
  if (decision.output !== undefined) {
    if (changes.includes("output")) next.output = decision.output;
    else ignored.push("output");
  }
  const notes: string[] = [];
  applyModelControl({ changes, ev, hook, decision, next, ignored, notes });
  if (ignored.length > 0) {
    notes.unshift(
      `hook "${hook.name}" answered modify with ${ignored.join(", ")}, which ${gate.event} cannot change; ignored`,
    );
  }
  return { decision, replaced: next, notes };
}

/** The parts of a modify around the model (model-control.ts), where the event lets hooks change them. */
function applyModelControl(at: {
  changes: readonly string[];
  ev: AgentEvent;
  hook: HookDefinition;
  decision: Extract<Decision, { action: "modify" }>;
  next: GateState;
  ignored: string[];
  notes: string[];
}): void {
  const { changes, ev, hook, decision, next, ignored } = at;
  if (decision.request !== undefined) {
    if (changes.includes("request"))
      next.request = mergeRequestChanges(next.request, decision.request);
    else ignored.push("llm_request");
  }
  if (decision.response !== undefined) {
    if (changes.includes("response")) next.response = decision.response;
    else ignored.push("llm_response");
  }
  if (decision.dropToolCalls !== undefined) {
    if (changes.includes("tool_calls") && ev.type === "model_response") {
      const ids = ev.toolCalls.map((call) => call.toolCallId);
      const drop = decision.dropToolCalls === true ? ids : decision.dropToolCalls;
      next.dropToolCalls = [
        ...new Set([...(next.dropToolCalls ?? []), ...drop.filter((id) => ids.includes(id))]),
      ];
    } else ignored.push("drop_tool_calls");
  }
  if (decision.followUp !== undefined) {
    if (!changes.includes("follow_up")) ignored.push("follow_up");
    else if (next.followUp !== undefined) {
      at.notes.push(
        `hook "${hook.name}" asked for a follow-up call after hook "${next.followUp.by}" did; only one is run, this one is ignored`,
      );
    } else next.followUp = { ...decision.followUp, by: hook.name };
  }
}
