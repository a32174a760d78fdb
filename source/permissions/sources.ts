/**
 * The rules and the mode a session runs with, from where they are written:
 * `permissions` in each settings file (the user's always; the project's two
 * only once the project is trusted — they are part of its trust set) and the
 * flags (`--permission-mode`, `--allowedTools`, `--disallowedTools`,
 * `--dangerously-skip-permissions`). Rules of every source add up; a deny from
 * anywhere beats any allow (decide.ts), so a project never allows what the
 * user denies. The mode: the flag, else the user's `defaultMode`, else the
 * project's — which may not be `bypassPermissions` (only the user turns
 * checks off).
 */
import {
  NO_RULES,
  type PermissionMode,
  type PermissionRules,
  type PermissionsSettings,
  type RuleList,
  type RuleSource,
  toRules,
} from "./rules.js";

export interface PermissionFlags {
  mode?: PermissionMode;
  /** `--allowedTools` rules. */
  allow?: readonly string[];
  /** `--disallowedTools` rules. */
  deny?: readonly string[];
}

export interface SettingsPermissions {
  path: string;
  scope: "user" | "project";
  permissions?: PermissionsSettings;
}

export interface SessionPermissions {
  mode: PermissionMode;
  rules: PermissionRules;
  warnings: string[];
}

const LISTS: readonly RuleList[] = ["deny", "ask", "allow"];

export function sessionPermissions(
  files: readonly SettingsPermissions[],
  includeProject: boolean,
  flags: PermissionFlags = {},
): SessionPermissions {
  const rules = { allow: [], deny: [], ask: [] } as {
    [L in RuleList]: PermissionRules[L][number][];
  };
  const warnings: string[] = [];
  let userMode: PermissionMode | undefined;
  let projectMode: PermissionMode | undefined;
  for (const file of files) {
    if (file.scope === "project" && !includeProject) continue;
    const section = file.permissions;
    if (section === undefined) continue;
    const source: RuleSource = { scope: file.scope, label: file.path };
    for (const list of LISTS) {
      const texts = section[list];
      if (texts === undefined) continue;
      rules[list].push(...toRules(texts, list, source).rules);
    }
    const mode = section.defaultMode;
    if (mode === undefined) continue;
    if (file.scope === "user") userMode = mode;
    else if (mode === "bypassPermissions") {
      warnings.push(
        `Settings file ${file.path}: "permissions.defaultMode": "bypassPermissions" is ignored: only your own settings (or --dangerously-skip-permissions) turn permission checks off.`,
      );
    } else projectMode = mode;
  }
  const flagRules = (list: RuleList, texts: readonly string[] | undefined, label: string) => {
    if (texts === undefined) return;
    rules[list].push(...toRules(texts, list, { scope: "flag", label }).rules);
  };
  flagRules("allow", flags.allow, "--allowedTools");
  flagRules("deny", flags.deny, "--disallowedTools");
  return {
    mode: flags.mode ?? userMode ?? projectMode ?? "default",
    rules: rules.allow.length + rules.deny.length + rules.ask.length === 0 ? NO_RULES : rules,
    warnings,
  };
}
