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

interface ConsideredArgs {
  configured: readonly HookDefinition[];
  index: HookIndex;
  planned: Plan | undefined;
  subject: MatchSubject;
}

/** consideredHooks remembered per event's configured hooks (createConsideredMemo). */
export type ConsideredMemo = (args: ConsideredArgs) => readonly ConsideredHook[];

/** Lines remembered per event's configured hooks; past it (hostile tool names) a line is built each time. */
const MAX_MEMO_KEYS = 256;

/** A line remembered for a subject: the plan's hooks it was made for, and the line. */
interface Remembered {
  planned: readonly (readonly HookDefinition[])[];
  hooks: readonly ConsideredHook[];
}

/**
 * consideredHooks, remembered per event's configured hooks, subject (as the
 * line names it) and plan when nothing else decides the line: none of those
 * hooks has `once` (that depends on what already ran) or `if` (that depends on
 * the call's input). A line is taken again when the plan holds the same hooks
 * as the one it was made for (compared hook by hook: no key text is built per
 * event). What it hands out is frozen, so a sink that keeps a line cannot
 * change the next one. One per run: the hooks' `once` state is the run's.
 */
export function createConsideredMemo(): ConsideredMemo {
  const memos = new WeakMap<readonly HookDefinition[], Map<string, Remembered> | false>();
  return (args) => {
    let memo = memos.get(args.configured);
    if (memo === undefined) {
      memo = args.configured.every(dependsOnPlanAndSubjectOnly) && new Map();
      memos.set(args.configured, memo);
    }
    if (memo === false) return consideredHooks(args);
    const key = describeSubject(args.subject);
    const planned = plannedLists(args.planned);
    const known = memo.get(key);
    if (known !== undefined && sameLists(known.planned, planned)) return known.hooks;
    const hooks = Object.freeze(consideredHooks(args).map((hook) => Object.freeze(hook)));
    if (known !== undefined || memo.size < MAX_MEMO_KEYS) memo.set(key, { planned, hooks });
    return hooks;
  };
}

function dependsOnPlanAndSubjectOnly(hook: HookDefinition): boolean {
  return hook.once !== true && hook.matcher.if === undefined;
}

const NONE: readonly HookDefinition[] = [];

function plannedLists(planned: Plan | undefined): readonly (readonly HookDefinition[])[] {
  return [planned?.chain ?? NONE, planned?.observers ?? NONE, planned?.async ?? NONE];
}

function sameLists(
  a: readonly (readonly HookDefinition[])[],
  b: readonly (readonly HookDefinition[])[],
): boolean {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as readonly HookDefinition[];
    const y = b[i] as readonly HookDefinition[];
    if (x === y) continue;
    if (x.length !== y.length) return false;
    for (let j = 0; j < x.length; j++) if (x[j] !== y[j]) return false;
  }
  return true;
}

/**
 * Every hook configured for the event (disabled ones too), in run order:
 * `planned` when the plan holds it (a chain may still end before it), else
 * `not_run` with the reason.
 */
export function consideredHooks(args: ConsideredArgs): ConsideredHook[] {
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
