/**
 * What the REPL may change in a running session's permissions (the policy
 * every agent of the session is judged by, session/permission-policy.ts):
 * the mode (Shift-Tab) and allow rules the user adds from a permission
 * prompt, for the session (memory) or the project (`.acai/settings.local.json`,
 * session/project-rule.ts). Rules are checked by `keepableRule` first.
 */
import type { PermissionPolicy } from "../permissions/decide.js";
import { keepableRule } from "../permissions/keep.js";
import { type PermissionMode, type PermissionRule, toRules } from "../permissions/rules.js";
import type { ProjectStatus } from "./assessment.js";
import { addProjectAllowRule, type ProjectRuleOptions } from "./project-rule.js";
import type { PermissionControls, ProjectHooksMode } from "./types.js";

export interface PermissionControlsOptions extends ProjectRuleOptions {
  /** Set when rules cannot be kept in the project, saying why. */
  projectRulesOff?: string;
}

const CYCLE: readonly PermissionMode[] = ["default", "acceptEdits", "plan"];

/** Why the REPL cannot keep a rule in this project's settings; undefined when it can. */
export function projectRulesOff(mode: ProjectHooksMode, status: ProjectStatus): string | undefined {
  if (mode === "off") return "acai runs with --no-project, so the project's settings are not read";
  if (status === "untrusted") {
    return "the project is taken for this run only (--trust-project); trust it with acai hooks trust to keep rules in it";
  }
  return undefined;
}

export function permissionControls(
  policy: PermissionPolicy,
  options: PermissionControlsOptions,
): PermissionControls {
  // bypassPermissions is in the cycle only when the session started in it (a flag or the user's settings).
  const modes = policy.mode === "bypassPermissions" ? [...CYCLE, policy.mode] : CYCLE;
  const add = (rule: PermissionRule) => {
    policy.rules = { ...policy.rules, allow: [...policy.rules.allow, rule] };
  };
  const ruleOf = (text: string, source: PermissionRule["source"]) =>
    toRules([text], "allow", source).rules[0];
  return {
    modes,
    mode: () => policy.mode,
    setMode: (mode) => {
      policy.mode = mode;
    },
    projectRulesOff: options.projectRulesOff,
    keepable: (rule) => keepableRule(rule).ok,
    allowForSession(text) {
      const keep = keepableRule(text);
      if (!keep.ok) return { ok: false, error: keep.why };
      const rule = ruleOf(text, { scope: "session", label: "your answer in this session" });
      if (rule === undefined) return { ok: false, error: `${text} is not a rule` };
      add(rule);
      return { ok: true, where: "this session" };
    },
    async allowForProject(text) {
      const keep = keepableRule(text);
      if (!keep.ok) return { ok: false, error: keep.why };
      if (options.projectRulesOff !== undefined)
        return { ok: false, error: options.projectRulesOff };
      const written = await addProjectAllowRule(text, options);
      if (!written.ok) return written;
      const rule = ruleOf(text, { scope: "project", label: written.file });
      if (rule !== undefined) add(rule);
      return { ok: true, where: written.file };
    },
  };
}
