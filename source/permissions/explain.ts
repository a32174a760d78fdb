/**
 * Permission decisions in words: why a call asks (the prompt, the
 * `permission_request` payload's `reason`) and why it was denied (the tool
 * result the model gets, which also says how the user can allow it).
 */
import type { DecidedBy, PermissionDecision } from "./decide.js";
import { describeProtected, type ProtectedHit } from "./protected.js";
import type { PermissionMode, PermissionRule } from "./rules.js";

const MODE_WORDS: Readonly<Record<PermissionMode, string>> = {
  default: "default mode",
  acceptEdits: "acceptEdits mode",
  plan: "plan mode",
  bypassPermissions: "bypassPermissions mode",
};

function ruleWhere(rule: PermissionRule): string {
  if (rule.source.scope === "flag" || rule.source.scope === "session") return rule.source.label;
  return `"permissions.${rule.list}" of ${rule.source.label}`;
}

/** Why the user is asked (one line). */
export function askReason(toolName: string, by: DecidedBy): string {
  switch (by.kind) {
    case "rule":
      return `the ask rule ${by.rule.text} (${ruleWhere(by.rule)}) matches this ${toolName} call`;
    case "hook":
      return `hook "${by.name}" asks: ${by.reason}`;
    case "mode":
      return `no rule allows ${toolName} in ${MODE_WORDS[by.mode]}`;
    case "protected":
      return `${describeProtected(by.hit)}; only you can approve this exact write`;
    case "command":
      return by.reason;
    case "unchecked":
      return unchecked(by.rule, by.reason);
    default:
      return by satisfies never;
  }
}

function unchecked(rule: PermissionRule, reason: string): string {
  return `the ${rule.list} rule ${rule.text} (${ruleWhere(rule)}) cannot be checked against this command, so it holds: ${reason}`;
}

/** Why a call was denied by a rule or the mode (the decision's own reason, without advice). */
export function denyReason(toolName: string, by: DecidedBy): string {
  switch (by.kind) {
    case "rule":
      return `the deny rule ${by.rule.text} (${ruleWhere(by.rule)}) matches this ${toolName} call`;
    case "mode":
      return by.mode === "plan"
        ? `acai is in plan mode: only read-only tools (Read, Glob, Grep) run`
        : `${toolName} is not allowed in ${MODE_WORDS[by.mode]}`;
    case "hook":
      return `hook "${by.name}" denied it: ${by.reason}`;
    case "protected":
      return describeProtected(by.hit);
    case "command":
      return by.reason;
    case "unchecked":
      return unchecked(by.rule, by.reason);
    default:
      return by satisfies never;
  }
}

/** The tool result for a call that a rule or the mode denied. */
export function denialForModel(toolName: string, decision: PermissionDecision): string {
  const why = denyReason(toolName, decision.by);
  const advice =
    decision.by.kind === "mode" && decision.by.mode === "plan"
      ? "Do not try to run it another way: present your plan to the user, who can leave plan mode to let it run."
      : "Do not try to get around it another way; if you need it, tell the user, who can change the rule.";
  return `Permission denied: ${why}. ${advice}`;
}

/** How to make a protected write that was not approved: the words for the user and for the model. */
export function protectedDenial(
  toolName: string,
  hit: ProtectedHit,
  answer: "headless" | "denied" | "failed",
  /** What the user said to tell the model with their no. */
  because?: string,
): { reason: string; modelText: string } {
  const what = describeProtected(hit);
  const howTo = `To make this change, the user edits ${hit.file} themselves, or runs acai interactively (the REPL) and approves this exact write when asked; --yes, acceptEdits, bypassPermissions, allow rules and hooks cannot approve it`;
  const why =
    answer === "headless"
      ? "this non-interactive run (acai -p) cannot ask the user"
      : answer === "denied"
        ? "the user said no"
        : "the question could not be asked";
  const said = because === undefined ? "" : ` The user says: ${because}`;
  return {
    reason: `${toolName} denied: ${what}, and ${why}. ${howTo}.`,
    modelText: `Permission denied: ${toolName} may not write ${hit.file}: ${what.slice(what.indexOf(": ") + 2)}. The model's tools may not change it without the user's approval, and ${why}.${said} Do not try to change it another way (a shell command, a link, another tool). ${howTo}: tell the user what change you would make and why.`,
  };
}
