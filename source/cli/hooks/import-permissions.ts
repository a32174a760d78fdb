/**
 * Claude Code settings `permissions` → acai settings `permissions` (pure; the
 * import command reads and writes the files). The rule syntax and the modes
 * are Claude Code's, so rules carry over as written and add to the rules the
 * acai file already has (each once). What does not carry over is reported:
 * a rule that does not parse, a mode acai lacks, fields acai does not know
 * (`additionalDirectories`, …), and rules for tools acai does not have
 * (kept: they match nothing until such a tool exists).
 */
import { PERMISSION_MODES, parseRuleText, type RuleList } from "../../permissions/rules.js";

const LISTS: readonly RuleList[] = ["allow", "deny", "ask"];
const KNOWN = new Set<string>([...LISTS, "defaultMode"]);
/** Claude Code tools acai has no counterpart for: their rules are kept but match nothing. */
const CLAUDE_ONLY = new Set([
  "WebFetch",
  "WebSearch",
  "NotebookEdit",
  "MultiEdit",
  "Task",
  "TodoWrite",
  "LS",
  "SlashCommand",
  "Skill",
]);

export interface PermissionsConversion {
  /** The acai file's `permissions` after the merge (undefined: none before, none added). */
  permissions: Record<string, unknown> | undefined;
  /** `allow: Bash(npm test:*)`, per rule added. */
  added: string[];
  skipped: number;
  dropped: string[];
  notes: string[];
  /** Set when the mode was carried over. */
  mode?: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function convertClaudePermissions(
  source: unknown,
  existing: unknown,
): PermissionsConversion {
  const out: Record<string, unknown> = isObject(existing) ? structuredClone(existing) : {};
  const result: PermissionsConversion = {
    permissions: isObject(existing) ? out : undefined,
    added: [],
    skipped: 0,
    dropped: [],
    notes: [],
  };
  if (source === undefined) return result;
  if (!isObject(source)) {
    result.dropped.push('"permissions" is not an object');
    return result;
  }
  for (const key of Object.keys(source)) {
    if (!KNOWN.has(key)) result.dropped.push(`permissions.${key} (acai has no such setting)`);
  }
  for (const list of LISTS) addRules(list, source[list], out, result);
  const mode = source.defaultMode;
  if (mode !== undefined) {
    if (typeof mode !== "string" || !(PERMISSION_MODES as readonly string[]).includes(mode)) {
      result.dropped.push(
        `permissions.defaultMode ${JSON.stringify(mode)} (acai's modes: ${PERMISSION_MODES.join(", ")})`,
      );
    } else if (out.defaultMode !== undefined && out.defaultMode !== mode) {
      result.notes.push(
        `permissions.defaultMode stays ${JSON.stringify(out.defaultMode)} (the file had it; Claude Code's is ${mode})`,
      );
    } else if (out.defaultMode === undefined) {
      out.defaultMode = mode;
      result.mode = mode;
    }
  }
  if (result.added.length > 0 || result.mode !== undefined) result.permissions = out;
  return result;
}

function addRules(
  list: RuleList,
  rules: unknown,
  out: Record<string, unknown>,
  result: PermissionsConversion,
): void {
  if (rules === undefined) return;
  if (!Array.isArray(rules)) {
    result.dropped.push(`permissions.${list} (not a list of rules)`);
    return;
  }
  const have: unknown[] = Array.isArray(out[list]) ? [...(out[list] as unknown[])] : [];
  for (const rule of rules) {
    if (typeof rule !== "string") {
      result.dropped.push(`permissions.${list}: ${JSON.stringify(rule)} (not a rule)`);
      continue;
    }
    const parsed = parseRuleText(rule);
    if (!parsed.ok) {
      result.dropped.push(`permissions.${list}: ${rule} (${parsed.error})`);
      continue;
    }
    if (have.includes(rule)) {
      result.skipped++;
      continue;
    }
    have.push(rule);
    result.added.push(`${list}: ${rule}`);
    if (CLAUDE_ONLY.has(parsed.tool)) {
      result.notes.push(
        `permissions.${list}: ${rule} names ${parsed.tool}, which acai does not have`,
      );
    }
  }
  if (have.length > 0) out[list] = have;
}
