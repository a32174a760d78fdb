/**
 * The fold of a gate's chain, one hook answer at a time (hooks.md §4–§5), pure:
 * `step(state, hook, decision)` → the next state, whether the chain ends there,
 * and the warnings to show. The chain runner (chain.ts) runs the hooks, asks
 * the user, and calls this; `acai hooks test` calls it for its one hook.
 *
 * Rules: a `modify` replaces what the event allows (the table's `changes`);
 * a replaced tool input is checked once, by the tool's own schema, and an
 * invalid one refuses the call whatever the failure policy; a failure follows
 * the hook's policy; the first block / stop / retry (where honoured) ends the
 * chain; `skip` ends it and goes on; `ask` ends the step waiting for the user
 * (`settleAsk`) — except on before_tool, where `ask` and `allow` are the
 * hooks' say on the permission (`ChainState.permission`), which the agent's
 * permission check asks about once the chain is over, and on
 * permission_request, where `allow` ends the chain granting the call and
 * `ask` is no decision; context is collected from every hook, capped.
 */
import type { AgentEvent } from "../../agent/events.js";
import type { PermissionHintVerdict } from "../../agent/verdicts.js";
import { applyFailurePolicy, capText, type Decision } from "../contract/decision.js";
import type { HookDefinition } from "../contract/definition.js";
import { eventRow, type HookEventName } from "../contract/events/table.js";
import type { GateState } from "../contract/gate-state.js";
import { type AskRequest, type HookRef, hookRef } from "./activity.js";
import { applyModification, type ValidateToolInput } from "./modify.js";

export const DEFAULT_CONTEXT_CAP_CHARS = 10_000;

/** How a chain ended (none of its hooks ending it is `continue`). */
export type ChainEnd =
  | { kind: "continue" }
  | {
      kind: "block";
      reason: string;
      /**
       * A Claude Code-shaped (settings) hook's command when it blocked by exit
       * code 2: before_tool then words the tool result as Claude Code does.
       */
      exitCode2Command?: string;
      /** before_stop: the turn goes on from a cleared conversation (Gemini's `clearContext`). */
      clearContext?: true;
    }
  | { kind: "retry"; afterMs: number; hook: HookRef; maxRetries?: number }
  | { kind: "stop"; reason: string }
  /** permission_request: a hook allowed the call on the user's behalf. */
  | { kind: "allow" }
  /** before_tool in a headless run: the call waits for `--resume`. */
  | { kind: "defer"; reason: string };

/** What stays the same along one chain. */
export interface Gate {
  event: HookEventName;
  agentEvent: AgentEvent;
  contextCapChars: number;
  /** Checks a replaced tool input (the tool's own schema); none: taken as is. */
  validateToolInput?: ValidateToolInput;
  /**
   * before_tool's `defer` ends the chain (a headless run of the session's own
   * agent); otherwise it is an `ask` of the permission, as when no hook decides.
   */
  deferrable?: boolean;
}

export interface ChainState {
  gate: Gate;
  /** Only the values hooks replaced are set. */
  replaced: GateState;
  /** From every hook that ran, in order, capped. */
  context: readonly string[];
  /** A hook answered agent-relay's `suppress` where the event honours it. */
  suppressed?: true;
  /**
   * before_tool: what its hooks said about the permission — the first `ask`
   * (it beats any `allow`), else the first `allow`. The agent's permission
   * check reads it (docs/permissions.md).
   */
  permission?: PermissionHintVerdict;
}

export interface Stepped {
  state: ChainState;
  /** The chain ends here; `ask` waits for the user first (`settleAsk`). */
  end?: ChainEnd | { kind: "ask"; request: AskRequest };
  /** Warnings about this hook, in the order they are shown (after its hook_end). */
  notes: string[];
  /** The answer after checking (an invalid replaced input makes it a failure). */
  answered: Decision;
  /** What took effect: after the failure policy, or the refusal of an invalid input. */
  effective: Decision;
  /** hook_end's detail: the reason, the error, or how an ask was answered. */
  detail?: string;
}

export function startChain(gate: Gate): ChainState {
  return { gate, replaced: {}, context: [] };
}

/** Folds one hook's answer into the chain. */
export function step(state: ChainState, hook: HookDefinition, decision: Decision): Stepped {
  const { gate } = state;
  const applied = applyModification(gate, hook, decision, state.replaced);
  const answered = applied.decision;
  const notes = [...applied.notes];
  const effective: Decision =
    applied.refusal === undefined
      ? applyFailurePolicy(hook, answered)
      : { action: "block", reason: applied.refusal };
  let detail = answered.reason;
  if (answered.action === "failed") {
    detail = answered.error;
    if (applied.refusal !== undefined) notes.push(applied.refusal);
    else if (hook.failure === "open") {
      notes.push(`hook "${hook.name}" failed: ${answered.error} (failure policy "open": going on)`);
    }
  }
  const { end, replaced } = endOf(gate, hook, effective, state.replaced, applied.replaced, notes);
  const context = [...state.context];
  const cut = takeContext(hook, answered, gate.contextCapChars, context);
  if (cut) notes.push(cut);
  const suppressed = suppressedBy(gate.event, hook, answered, notes) || state.suppressed === true;
  const permission = permissionSay(gate, hook, effective, state.permission);
  return {
    state: {
      gate,
      replaced,
      context,
      ...(suppressed ? { suppressed: true as const } : {}),
      ...(permission === undefined ? {} : { permission }),
    },
    ...(end === undefined ? {} : { end }),
    notes,
    answered,
    effective,
    ...(detail === undefined ? {} : { detail }),
  };
}

/** How the user answered an `ask`, folded in: allowed goes on, denied blocks with the reason. */
export function settleAsk(stepped: Stepped, asked: { allowed: boolean; reason: string }): Stepped {
  const { end: _asked, ...rest } = stepped;
  return {
    ...rest,
    detail: asked.reason,
    ...(asked.allowed ? {} : { end: { kind: "block", reason: asked.reason } }),
  };
}

function endOf(
  gate: Gate,
  hook: HookDefinition,
  effective: Decision,
  before: GateState,
  modified: GateState,
  notes: string[],
): { end?: Stepped["end"]; replaced: GateState } {
  switch (effective.action) {
    case "continue":
    case "failed": // applyFailurePolicy never returns failed
      return { replaced: before };
    case "modify":
      return { replaced: modified };
    case "block": {
      const reason = effective.reason ?? `blocked by hook "${hook.name}"`;
      const claudeShaped = effective.byExitCode === true && hook.sourceKind === "settings";
      return {
        end: {
          kind: "block",
          reason: capText(reason, gate.contextCapChars, "reason"),
          ...(claudeShaped ? { exitCode2Command: hook.launch.command } : {}),
          ...clearsContext(gate, hook, effective, notes),
        },
        replaced: before,
      };
    }
    case "skip":
      return { end: { kind: "continue" }, replaced: before };
    case "stop": {
      const reason = effective.reason ?? `hook "${hook.name}" ended the session`;
      return { end: { kind: "stop", reason }, replaced: before };
    }
    case "retry":
      if (eventRow(gate.event).honours.includes("retry")) {
        return {
          end: {
            kind: "retry",
            afterMs: effective.retryAfterMs,
            hook: hookRef(hook),
            ...(hook.maxRetries === undefined ? {} : { maxRetries: hook.maxRetries }),
          },
          replaced: before,
        };
      }
      notes.push(`hook "${hook.name}" answered retry, which only before_model supports; ignored`);
      return { replaced: before };
    case "ask":
      // A permission hint: the permission check asks (permissionSay); a permission decision: none.
      if (eventRow(gate.event).permission !== undefined) {
        return { replaced: before };
      }
      return {
        end: { kind: "ask", request: askRequest(gate, hook, effective) },
        replaced: before,
      };
    case "allow":
      if (eventRow(gate.event).permission === "decision")
        return { end: { kind: "allow" }, replaced: modified };
      return { replaced: modified };
    case "defer":
      return { ...deferEnd(gate, hook, effective, notes), replaced: before };
    default:
      return effective satisfies never;
  }
}

/** Gemini's `clearContext` on a block: before_stop's alone; elsewhere a note says it is ignored. */
function clearsContext(
  gate: Gate,
  hook: HookDefinition,
  decision: Decision,
  notes: string[],
): { clearContext?: true } {
  if (decision.action !== "block" || decision.clearContext !== true) return {};
  if (gate.event === "before_stop") return { clearContext: true };
  notes.push(
    `hook "${hook.name}" answered clearContext, which only AfterAgent (before_stop) supports; ignored`,
  );
  return {};
}

/** A defer ends a deferrable before_tool chain; elsewhere a note says what became of it. */
function deferEnd(
  gate: Gate,
  hook: HookDefinition,
  decision: Decision,
  notes: string[],
): { end?: Stepped["end"] } {
  if (!eventRow(gate.event).honours.includes("defer")) {
    notes.push(`hook "${hook.name}" answered defer, which only before_tool supports; ignored`);
    return {};
  }
  if (gate.deferrable === true) {
    return { end: { kind: "defer", reason: decision.reason ?? `deferred by hook "${hook.name}"` } };
  }
  notes.push(
    `hook "${hook.name}" answered defer, which only a headless run (acai -p) of the session's own agent can take; the permission is asked instead`,
  );
  return {};
}

/** Whether this answer suppresses the event's delivery; a note where the event cannot take it. */
export function suppressedBy(
  event: HookEventName,
  hook: HookDefinition,
  decision: Decision,
  notes: string[],
): boolean {
  if (decision.suppress !== true || decision.action === "failed") return false;
  if (eventRow(event).honours.includes("suppress")) return true;
  notes.push(`hook "${hook.name}" answered suppress, which ${event} cannot take; ignored`);
  return false;
}

/**
 * The before_tool chain's say on the permission after this hook: the first
 * `ask` wins over everything; an `allow` counts only while nobody asked. A
 * HOOK.md hook's allow is Agent Hooks' "no objection", not a permission.
 */
function permissionSay(
  gate: Gate,
  hook: HookDefinition,
  effective: Decision,
  before: PermissionHintVerdict | undefined,
): PermissionHintVerdict | undefined {
  if (eventRow(gate.event).permission !== "hint" || before?.behavior === "ask") return before;
  // A defer that cannot be honoured here (deferEnd) is an ask of the permission.
  if (effective.action === "ask" || (effective.action === "defer" && gate.deferrable !== true)) {
    const reason = effective.reason ?? `hook "${hook.name}" asks for confirmation`;
    return { behavior: "ask", reason, by: hook.name };
  }
  if (effective.action === "allow" && hook.dialect !== "agenthooks" && before === undefined) {
    return { behavior: "allow", reason: effective.reason ?? "", by: hook.name };
  }
  return before;
}

/** What the user is asked about a hook's `ask` (tool calls go through permission_request). */
function askRequest(gate: Gate, hook: HookDefinition, decision: Decision): AskRequest {
  return {
    hook: hookRef(hook),
    event: gate.event,
    reason: decision.reason ?? `hook "${hook.name}" asks for confirmation`,
  };
}

/** Context of one answer, capped; returns the warning when it was cut. */
function takeContext(
  hook: HookDefinition,
  decision: Decision,
  cap: number,
  context: string[],
): string | undefined {
  if (decision.context === undefined || decision.context === "") return undefined;
  const own = decision.contextCap !== undefined && decision.contextCap < cap;
  const limit = own ? (decision.contextCap as number) : cap;
  context.push(capText(decision.context, limit));
  if (decision.context.length <= limit) return undefined;
  const why = own
    ? " (agent-relay's inject limit; the capabilities.unlimitedInjection setting lifts it)"
    : "";
  return `hook "${hook.name}" gave ${decision.context.length} characters of context; cut at ${limit}${why}`;
}

/** Whether an answer's context was cut, and the capped text (observers share the rule). */
export function contextOf(
  hook: HookDefinition,
  decision: Decision,
  cap: number,
): { context?: string; note?: string } {
  const found: string[] = [];
  const note = takeContext(hook, decision, cap, found);
  return {
    ...(found[0] === undefined ? {} : { context: found[0] }),
    ...(note === undefined ? {} : { note }),
  };
}
