/**
 * Which hooks of an event were considered and why each one that will not run
 * does not (hooks.md §8): the audit log's `considered` line, which
 * `acai hooks why` reads. Pure: the plan, the index and the event's subject in,
 * one entry per hook configured for the event out.
 */
import type { HookDefinition, HookEventName } from "../contract/definition.js";
import { type MatchSubject, missedBy } from "../contract/match.js";
import type { HookIndex, Plan } from "./plan.js";

/** Why a configured hook does not run for an event. */
type NotRunWhy = "disabled" | "once" | "if" | "matcher";

export type ConsideredHook =
  | { hook: string; hook_id: string; file: string; status: "planned" }
  | {
      hook: string;
      hook_id: string;
      file: string;
      status: "not_run";
      why: NotRunWhy;
      detail: string;
    };

/**
 * Every hook configured for the event (disabled ones too), in run order:
 * `planned` when the plan holds it (a chain may still end before it), else
 * `not_run` with the reason.
 */
export function consideredHooks(args: {
  configured: readonly HookDefinition[];
  index: HookIndex;
  planned: Plan | undefined;
  subject: MatchSubject;
}): ConsideredHook[] {
  const { planned, subject } = args;
  const inPlan = new Set<string>();
  for (const list of [planned?.chain, planned?.observers, planned?.async]) {
    for (const hook of list ?? []) inPlan.add(hook.id);
  }
  return args.configured.map((hook) => {
    const ref = { hook: hook.name, hook_id: hook.id, file: hook.file };
    if (inPlan.has(hook.id)) return { ...ref, status: "planned" };
    const [why, detail] = notRunReason(hook, args.index, subject);
    return { ...ref, status: "not_run", why, detail };
  });
}

function notRunReason(
  hook: HookDefinition,
  index: HookIndex,
  subject: MatchSubject,
): [NotRunWhy, string] {
  if (hook.disabled !== undefined) return ["disabled", hook.disabled];
  if (hook.once === true && index.spent?.has(hook.id) === true) {
    return ["once", '"once": it already ran in this session'];
  }
  if (missedBy(hook, subject) === "if") {
    return ["if", `"if": ${JSON.stringify(hook.matcher.if)} does not catch this call`];
  }
  return ["matcher", `its matcher does not match ${describeSubject(subject)}`];
}

function describeSubject(subject: MatchSubject): string {
  if (subject.toolName !== undefined) return `tool ${subject.toolName}`;
  if (subject.source !== undefined) return `"${subject.source}"`;
  if (subject.namespace !== undefined) return `namespace ${subject.namespace}`;
  return `this ${subject.event satisfies HookEventName} event`;
}
