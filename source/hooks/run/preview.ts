/**
 * What a session would do with one hook's answer, for `acai hooks test`: the
 * same fold as a session (`step` for a gate's sync hook, the observers' rules
 * for observe-only events and async hooks), and the table's words for it.
 * No rule lives here that a session does not apply.
 */
import type { AgentEvent } from "../../agent/events.js";
import type { Decision } from "../contract/decision.js";
import type { HookDefinition } from "../contract/definition.js";
import { eventRow, type HookEventName } from "../contract/events/table.js";
import type { ValidateToolInput } from "./modify.js";
import { observedEffect } from "./observe.js";
import { DEFAULT_CONTEXT_CAP_CHARS, startChain, step } from "./step.js";

export interface Preview {
  /** The answer after checking (an invalid replaced input makes it a failure). */
  answered: Decision;
  /** What would take effect. */
  effective: Decision;
  /** The tool input a `modify` would leave, checked by the tool's schema. */
  newInput?: unknown;
  /** An invalid replaced input: refused whatever the failure policy. */
  refused: boolean;
  /** What acai would do, in words. */
  would: string;
}

export function previewAnswer(args: {
  event: HookEventName;
  agentEvent: AgentEvent;
  hook: HookDefinition;
  decision: Decision;
  validateToolInput?: ValidateToolInput;
}): Preview {
  const { event, hook, decision } = args;
  const row = eventRow(event);
  if (hook.async || row.kind === "observe") {
    const mode = {
      kind: hook.async ? "async" : "observe",
      canStop: row.honours.includes("stop"),
    } as const;
    const effective = observedEffect(decision, { ...mode, canStop: mode.canStop && !hook.async });
    return {
      answered: decision,
      effective,
      refused: false,
      would: consequence(event, decision, effective, hook),
    };
  }
  const stepped = step(
    startChain({
      event,
      agentEvent: args.agentEvent,
      contextCapChars: DEFAULT_CONTEXT_CAP_CHARS,
      ...(args.validateToolInput === undefined
        ? {}
        : { validateToolInput: args.validateToolInput }),
    }),
    hook,
    decision,
  );
  const { answered, effective } = stepped;
  const replaced = stepped.state.replaced;
  return {
    answered,
    effective,
    ...(effective.action === "modify" && "toolInput" in replaced
      ? { newInput: replaced.toolInput }
      : {}),
    refused:
      answered.action === "failed" && effective.action === "block" && hook.failure === "open",
    would: consequence(event, answered, effective, hook),
  };
}

/** What acai would do with the effective answer, in words (the toolkit's "acai would: …"). */
function consequence(
  event: HookEventName,
  answered: Decision,
  effective: Decision,
  hook: HookDefinition,
): string {
  const row = eventRow(event);
  if (hook.async)
    return "nothing it answers can block or modify: the hook is async (only its context is delivered)";
  if (
    row.kind === "observe" &&
    answered.action !== effective.action &&
    answered.action !== "failed"
  )
    return `ignore its ${answered.action}: ${event} is observe-only (only its context is delivered)`;
  switch (effective.action) {
    case "continue":
      // An observed answer's context is delivered too (with the next model request).
      return effective.context || (answered.action !== "failed" && answered.context)
        ? "go on, adding the context for the model"
        : "go on";
    case "modify":
      return "go on with the modification";
    case "skip":
      return "go on without running the hooks after this one";
    case "block":
      return row.onBlock;
    case "ask":
      if (row.permission === "decision") return "ask the user, as if no hook had answered";
      return row.permission === "hint"
        ? "ask the user's permission for the call (even where a rule allows it; a deny rule still denies it): the REPL asks, a headless run (acai -p) denies it unless --yes"
        : "ask the user in the REPL; a headless run (acai -p) denies it unless --yes";
    case "allow":
      if (row.permission === "decision") return "allow the call without asking the user";
      if (row.permission === "hint")
        return hook.dialect === "agenthooks"
          ? "go on (a HOOK.md hook's allow is no permission)"
          : "go on without asking the user's permission (unless a deny or ask rule holds)";
      return "go on";
    case "retry":
      return row.honours.includes("retry")
        ? `wait ${effective.retryAfterMs} ms and send the model request again`
        : "ignore the retry (only before_model supports it)";
    case "stop":
      return "end the session after this event";
    case "defer":
      return row.honours.includes("defer")
        ? 'defer the call: a headless run (acai -p) stops with stop_reason "deferred" (exit 5) and acai -p --resume asks the hooks again; elsewhere the user is asked'
        : `ignore the defer (only before_tool supports it)`;
    case "failed":
      return "treat the hook as failed";
    default:
      return effective satisfies never;
  }
}
